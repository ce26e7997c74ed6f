package bundle

import (
	"encoding/json"
	"strings"
)

// import.meta, __dirname and __filename give each file's own location in
// the release, as Bun and Node do for unbundled modules. esbuild's CommonJS
// output has no import.meta and one __dirname for the whole bundle, so:
//
//   - a file that mentions them gets one statement put in front of its
//     code: `var __beeuni_m = __beeuni_meta("<path from the root>");`
//     (after a hashbang line and the directive prologue, on the same line,
//     so no line number of the file moves; columns after it on that line
//     are corrected in errors);
//   - esbuild's define turns `import.meta` into that file's `__beeuni_m`
//     and `__dirname`/`__filename` into its fields (only names the file
//     does not declare itself are replaced);
//   - the bundle ends with `function __beeuni_meta(p)` (hoisted), which
//     finds the release root from `__filename`, the entry module's absolute
//     path that the JS host passes, as Node's module wrapper does.
//
// Nothing absolute is baked in: a bundle is cached by content and may run
// from another release folder than the one it was built in. Without
// `__filename` from the host the fields are undefined.

// metaVar is the per-file variable define points at.
const metaVar = "__beeuni_m"

// metaDefine is esbuild's define for every build of files.
var metaDefine = map[string]string{
	"import.meta": metaVar,
	"__dirname":   metaVar + ".dirname",
	"__filename":  metaVar + ".filename",
}

// usesImportMeta reports whether src has `import.meta`, with the spaces
// JavaScript allows around the dot. It looks back from each "meta", as
// packages say "meta" far more often than "import".
func usesImportMeta(src string) bool {
	for i := 0; ; {
		j := strings.Index(src[i:], "meta")
		if j < 0 {
			return false
		}
		at := i + j
		i = at + len("meta")
		if i < len(src) && isIdentByte(src[i]) {
			continue
		}
		k := at
		for k > 0 && isSpace(src[k-1]) {
			k--
		}
		if k == 0 || src[k-1] != '.' {
			continue
		}
		k--
		for k > 0 && isSpace(src[k-1]) {
			k--
		}
		if k >= len("import") && src[k-len("import"):k] == "import" && (k == len("import") || !isIdentByte(src[k-len("import")-1])) {
			return true
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

func isIdentByte(c byte) bool {
	return c == '_' || c == '$' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// position is a 1-based line and 0-based byte column, as esbuild reports.
type position struct{ line, col int }

// metaInserted says where the prefix went in a file and how long it is.
type metaInserted struct {
	at position
	n  int
}

// withMeta returns src with the prefix for rel when src uses import.meta,
// __dirname or __filename.
func withMeta(src, rel string) (string, metaInserted) {
	if !strings.Contains(src, "__dirname") && !strings.Contains(src, "__filename") && !usesImportMeta(src) {
		return src, metaInserted{}
	}
	at, semi := prologueEnd(src)
	q, _ := json.Marshal(rel)
	prefix := "var " + metaVar + " = __beeuni_meta(" + string(q) + ");"
	if semi {
		prefix = ";" + prefix
	}
	line := 1 + strings.Count(src[:at], "\n")
	col := at - (strings.LastIndexByte(src[:at], '\n') + 1)
	return src[:at] + prefix + src[at:], metaInserted{at: position{line, col}, n: len(prefix)}
}

// prologueEnd is the byte offset after a byte-order mark, a hashbang line
// and the directive prologue ("use strict"; ...), where a statement can go
// without changing what the file means; semi is true when the last
// directive has no semicolon of its own.
func prologueEnd(src string) (at int, semi bool) {
	i := 0
	if strings.HasPrefix(src, "\uFEFF") {
		i = len("\uFEFF")
	}
	if strings.HasPrefix(src[i:], "#!") {
		if nl := strings.IndexByte(src[i:], '\n'); nl >= 0 {
			i += nl + 1
		} else {
			return len(src), true
		}
	}
	at = i
	for {
		j := skipSpace(src, at)
		if j >= len(src) || (src[j] != '"' && src[j] != '\'') {
			return at, semi
		}
		end := stringEnd(src, j)
		if end < 0 {
			return at, semi
		}
		k := skipInline(src, end)
		switch {
		case k < len(src) && src[k] == ';':
			at, semi = k+1, false
		case k >= len(src) || src[k] == '\n' || src[k] == '\r' || strings.HasPrefix(src[k:], "//"):
			// A directive ended by a line break, unless the next line
			// continues the expression; then it is not a directive.
			if n := skipSpace(src, k); n < len(src) && strings.IndexByte("([`+-*/%.,?:=<>&|^!~", src[n]) >= 0 {
				return at, semi
			}
			at, semi = end, true
		default:
			return at, semi
		}
	}
}

// skipInline skips spaces, tabs and block comments within the line from i.
func skipInline(src string, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t':
			i++
		case strings.HasPrefix(src[i:], "/*"):
			e := strings.Index(src[i+2:], "*/")
			if e < 0 || strings.ContainsAny(src[i+2:i+2+e], "\n\r") {
				return i
			}
			i += 2 + e + 2
		default:
			return i
		}
	}
	return i
}

// skipSpace skips white space and comments from i.
func skipSpace(src string, i int) int {
	for i < len(src) {
		switch {
		case src[i] == ' ' || src[i] == '\t' || src[i] == '\n' || src[i] == '\r':
			i++
		case strings.HasPrefix(src[i:], "//"):
			nl := strings.IndexByte(src[i:], '\n')
			if nl < 0 {
				return len(src)
			}
			i += nl + 1
		case strings.HasPrefix(src[i:], "/*"):
			e := strings.Index(src[i+2:], "*/")
			if e < 0 {
				return len(src)
			}
			i += 2 + e + 2
		default:
			return i
		}
	}
	return i
}

// stringEnd is the offset after the string literal starting at i (a quote),
// or -1 when it does not close on its line.
func stringEnd(src string, i int) int {
	q := src[i]
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			j++
		case q:
			return j + 1
		case '\n', '\r':
			return -1
		}
	}
	return -1
}

// metaHelper is appended to a bundle whose files use the prefix; %s is the
// entry's path from the root, as a JSON string. Paths are encoded into the
// URL as Node's url.pathToFileURL does. resolve answers what needs no
// package resolution, and refuses the rest rather than guess.
const metaHelper = `
function __beeuni_meta(p) {
  var e = "/" + %s;
  if (typeof __filename !== "string" || !__filename.endsWith(e)) return {};
  var f = __filename.slice(0, __filename.length - e.length) + "/" + p;
  var d = f.slice(0, f.lastIndexOf("/")) || "/";
  var url = "file://" + f.replace(/[\x00-\x20"#%<>?` + "`" + `{}\\\x7f]|[^\x00-\x7f]+/g, encodeURIComponent);
  return { url: url, dirname: d, filename: f, dir: d, file: f.slice(f.lastIndexOf("/") + 1), path: f,
    resolve: function (s) {
      s = String(s);
      if (/^(\.{0,2}\/|file:)/.test(s)) return new URL(s, url).href;
      if (s.slice(0, 5) === "node:") return s;
      var err = new Error("import.meta.resolve(" + JSON.stringify(s) + "): beeuni resolves relative paths, file: URLs and node: modules only; import the package instead");
      err.code = "ERR_UNSUPPORTED_RESOLVE_REQUEST";
      throw err;
    } };
}
`

// metaHelperFor is the helper for a bundle of entry.
func metaHelperFor(entry string) string {
	q, _ := json.Marshal(entry)
	return strings.Replace(metaHelper, "%s", string(q), 1)
}
