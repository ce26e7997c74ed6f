package bundle

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// nodeBuiltins are Node.js's built-in module names: an import of one bare
// (`http`) means node:http, not a package.
var nodeBuiltins = map[string]bool{
	"assert": true, "assert/strict": true, "async_hooks": true, "buffer": true,
	"child_process": true, "cluster": true, "console": true, "constants": true,
	"crypto": true, "dgram": true, "diagnostics_channel": true, "dns": true,
	"dns/promises": true, "domain": true, "events": true, "fs": true,
	"fs/promises": true, "http": true, "http2": true, "https": true,
	"inspector": true, "module": true, "net": true, "os": true, "path": true,
	"path/posix": true, "path/win32": true, "perf_hooks": true, "process": true,
	"punycode": true, "querystring": true, "readline": true,
	"readline/promises": true, "repl": true, "stream": true,
	"stream/promises": true, "stream/web": true, "string_decoder": true,
	"sys": true, "timers": true, "timers/promises": true, "tls": true,
	"trace_events": true, "tty": true, "url": true, "util": true,
	"util/types": true, "v8": true, "vm": true, "wasi": true,
	"worker_threads": true, "zlib": true, "test": true, "sqlite": true, "sea": true,
}

// offer is what the host running the bundles answers to require.
type offer struct {
	names  map[string]bool
	hint   string // MayImport of the names
	digest string // tells offers apart in cache keys
}

func newOffer(names []string) *offer {
	o := &offer{names: map[string]bool{}, hint: MayImport(names)}
	for _, n := range names {
		o.names[n] = true
	}
	sorted := slices.Sorted(maps.Keys(o.names))
	o.digest = hashOf(sorted...)[:16]
	return o
}

// MayImport is the list of node: modules tools may import, as messages
// give it ("node:buffer, node:crypto, ..."): the Node built-ins among the
// names a host offers, sorted. The bundler and the host both say it.
func MayImport(offered []string) string {
	var node []string
	for _, n := range offered {
		if nodeBuiltins[n] {
			node = append(node, "node:"+n)
		}
	}
	if len(node) == 0 {
		return "no node: module"
	}
	slices.Sort(node)
	return strings.Join(slices.Compact(node), ", ")
}

// isBare reports whether an import path names a package rather than a file.
func isBare(p string) bool {
	return !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") && p != "." && p != ".." &&
		!strings.HasPrefix(p, "/") && !filepath.IsAbs(p)
}

// packageName is the package part of a bare import: "zod/v4" -> "zod",
// "@scope/pkg/x" -> "@scope/pkg".
func packageName(p string) string {
	parts := strings.SplitN(p, "/", 3)
	if strings.HasPrefix(p, "@") && len(parts) > 1 {
		return parts[0] + "/" + parts[1]
	}
	return parts[0]
}

// inside reports whether the absolute path p is root or below it; both are
// clean (as filepath.Clean leaves them, and esbuild hands them).
func inside(root, p string) bool {
	if !strings.HasPrefix(p, root) {
		return false
	}
	return len(p) == len(root) || p[len(root)] == filepath.Separator || root == string(filepath.Separator)
}

// loaders maps the six module extensions (and JSON data) to esbuild loaders.
var loaders = map[string]api.Loader{
	".ts": api.LoaderTS, ".mts": api.LoaderTS, ".cts": api.LoaderTS,
	".js": api.LoaderJS, ".mjs": api.LoaderJS, ".cjs": api.LoaderJS,
	".json": api.LoaderJSON,
}

// resolveExtensions are tried in this order for imports without one.
var resolveExtensions = []string{".ts", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"}

// options are the build settings shared by files and in-memory sources.
// goja runs ES2020 and most later syntax but not async generators,
// `for await`, `using` or `import()` in a script: esbuild lowers those
// (import() becomes a promise of require()), and an error names what
// cannot be lowered.
func options(workDir string, plugin api.Plugin) api.BuildOptions {
	return api.BuildOptions{
		Bundle:            true,
		Write:             false,
		Format:            api.FormatCommonJS,
		Platform:          api.PlatformNode,
		Target:            api.ES2020,
		Supported:         map[string]bool{"async-generator": false, "for-await": false, "dynamic-import": false},
		Loader:            loaders,
		ResolveExtensions: resolveExtensions,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
		AbsWorkingDir:     workDir,
		Plugins:           []api.Plugin{plugin},
		// A side map, kept apart from the code (Bundler.SourceMap): the
		// host maps an error's position back to the file the user wrote.
		Sourcemap:      api.SourceMapExternal,
		SourcesContent: api.SourcesContentExclude,
		TreeShaking:    api.TreeShakingTrue,
		LegalComments:  api.LegalCommentsNone,
	}
}

// Options are the esbuild settings of a bundle, without beeuni's plugin,
// define and entry: what plain esbuild runs to bundle the same way (the
// baseline of `beeuni bench bundle`). workDir is the project root.
func Options(workDir string) api.BuildOptions {
	o := options(workDir, api.Plugin{})
	o.Plugins = nil
	return o
}

// errorLine turns esbuild's errors into one line a user can act on:
// `tools/x.ts:3:7: Expected ";" but found "}"`; the column is 1-based, as
// editors count, and ignores the import.meta prefix (metas, by file). A
// missing package is the bare `Cannot find package 'x'`.
func errorLine(msgs []api.Message, metas map[string]metaInserted) string {
	m := msgs[0]
	text, _, _ := strings.Cut(m.Text, "\n")
	text = plainWords(text)
	line := text
	if m.Location != nil && !strings.HasPrefix(text, "Cannot find package '") {
		loc := *m.Location
		if ins, ok := metas[filepath.ToSlash(loc.File)]; ok && loc.Line == ins.at.line && loc.Column >= ins.at.col+ins.n {
			loc.Column -= ins.n
		}
		line = fmt.Sprintf("%s:%d:%d: %s", filepath.ToSlash(loc.File), loc.Line, loc.Column+1, text)
	}
	if len(msgs) > 1 {
		line += fmt.Sprintf(" (and %d more errors)", len(msgs)-1)
	}
	return line
}

// tlaHelp replaces esbuild's words for a top-level await. The bundle is a
// CommonJS script run synchronously at load, which cannot wait.
const tlaHelp = "Top-level await is not supported in tool modules: move the awaited work into execute(), or into a promise created at import and awaited in execute()"

// plainWords rewrites esbuild's messages that speak its own jargon.
func plainWords(text string) string {
	if strings.HasPrefix(text, "Top-level await is ") {
		return tlaHelp
	}
	if spec, ok := unresolved(text); ok && isBare(spec) && !strings.HasPrefix(spec, "#") {
		return fmt.Sprintf("Cannot find package '%s'", packageName(spec))
	}
	return text
}

// unresolved is the import path of esbuild's `Could not resolve "x"`.
func unresolved(text string) (string, bool) {
	rest, ok := strings.CutPrefix(text, "Could not resolve ")
	if !ok {
		return "", false
	}
	q, err := strconv.QuotedPrefix(rest) // esbuild quotes with Go's %q
	if err != nil {
		return "", false
	}
	spec, err := strconv.Unquote(q)
	return spec, err == nil
}
