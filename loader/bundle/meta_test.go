package bundle

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/evanw/esbuild/pkg/api"
)

// metaFiles use import.meta, __dirname and __filename in the shapes modules
// write: ESM with a hashbang and a directive, CommonJS with "use strict"
// (which must stay strict), a package locating its data, a file declaring
// its own __dirname, and typeof checks.
var metaFiles = map[string]string{
	"tools/meta.ts": `import { here } from '../lib/where.mjs'
import data from 'assets'
const old = require('../lib/old.cjs')
export default {
  url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename,
  dir: import.meta.dir, file: import.meta.file, path: import.meta.path,
  here, old, data, own: __dirname, types: typeof __dirname + ' ' + typeof import.meta.url,
}
`,
	"lib/where.mjs":                    "#!/usr/bin/env node\n'use strict'\nexport const here = import . meta.url\n",
	"lib/old.cjs":                      "\"use strict\"\nmodule.exports = { d: __dirname, f: __filename, strict: (function () { return this === undefined })() }\n",
	"node_modules/assets/package.json": `{"name":"assets","main":"index.js"}`,
	"node_modules/assets/index.js":     "module.exports = __filename.replace(/index\\.js$/, 'data.txt')\n",
	"tools/shadow.ts":                  "const __dirname = 'mine'\nexport default { d: __dirname }\n",
	"tools/types.ts":                   "export default { types: typeof __dirname + ' ' + typeof import.meta.url }\n",
}

func TestImportMeta(t *testing.T) {
	root := filepath.Join(t.TempDir(), "my proj#1")
	write(t, root, metaFiles)
	r, err := newBundler(nil).Bundle(root, "tools/meta.ts")
	if err != nil {
		t.Fatal(err)
	}
	// The bundle carries paths from the root only: it runs from wherever the
	// host says the entry is (a release folder other than the build's).
	if strings.Contains(string(r.Code), root) {
		t.Fatal("the bundle holds the absolute root it was built in")
	}
	for _, at := range []string{root, "/srv/release 2/ü"} {
		ran, err := runBundle(t, r.Code, at+"/tools/meta.ts")
		if err != nil {
			t.Fatalf("load at %s: %v", at, err)
		}
		url := "file://" + strings.NewReplacer(" ", "%20", "#", "%23", "ü", "%C3%BC").Replace(at)
		want := map[string]string{
			"m.default.url":        url + "/tools/meta.ts",
			"m.default.dirname":    at + "/tools",
			"m.default.filename":   at + "/tools/meta.ts",
			"m.default.dir":        at + "/tools",
			"m.default.file":       "meta.ts",
			"m.default.path":       at + "/tools/meta.ts",
			"m.default.here":       url + "/lib/where.mjs",
			"m.default.old.d":      at + "/lib",
			"m.default.old.f":      at + "/lib/old.cjs",
			"m.default.old.strict": "true",
			"m.default.data":       at + "/node_modules/assets/data.txt",
			"m.default.own":        at + "/tools",
			"m.default.types":      "string string",
		}
		for expr, w := range want {
			if v, err := ran.eval(t, expr); err != nil || v.String() != w {
				t.Errorf("at %s: %s = %v (%v), want %q", at, expr, v, err, w)
			}
		}
	}
	// A host that passes no __filename: the module still loads.
	r, err = newBundler(nil).Bundle(root, "tools/types.ts")
	if err != nil {
		t.Fatal(err)
	}
	ran, err := runBundle(t, r.Code, "")
	if err != nil {
		t.Fatalf("load without __filename: %v", err)
	}
	if v, _ := ran.eval(t, "m.default.types"); v.String() != "undefined undefined" {
		t.Errorf("without __filename: types = %v", v)
	}
	// A file's own __dirname is its own.
	r, err = newBundler(nil).Bundle(root, "tools/shadow.ts")
	if err != nil {
		t.Fatal(err)
	}
	if ran, err := runBundle(t, r.Code, root+"/tools/shadow.ts"); err != nil {
		t.Fatal(err)
	} else if v, _ := ran.eval(t, "m.default.d"); v.String() != "mine" {
		t.Errorf("declared __dirname = %v", v)
	}
}

// TestImportMetaErrorColumns: the prefix put in front of a file's code
// moves no line, and errors after it on its line keep their columns.
func TestImportMetaErrorColumns(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"tools/first.ts":     "export const u = import.meta.url; let = 1\n",
		"tools/directive.ts": "'use strict'; const u = import.meta.url; const = 1\n",
		"tools/second.ts":    "\"use strict\"\nconst u = __dirname\nconst y = ;\n",
	})
	cases := map[string]string{
		"tools/first.ts":     `tools/first.ts:1:35: "let" is a reserved word`,
		"tools/directive.ts": `tools/directive.ts:1:48: Expected identifier but found "="`,
		"tools/second.ts":    `tools/second.ts:3:11: Unexpected ";"`,
	}
	for entry, want := range cases {
		if _, err := newBundler(nil).Bundle(root, entry); err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", entry, err, want)
		}
	}
}

func TestUsesImportMeta(t *testing.T) {
	tests := map[string]bool{
		"import.meta.url": true, "x = import . meta": true, "import\n\t.meta": true, "(import.meta)": true,
		"z.meta()": false, "reimport.meta": false, "import.metadata": false, "import.meta$": false,
		"meta": false, ".meta": false, "": false, "a.meta; import.meta": true,
	}
	for src, want := range tests {
		if got := usesImportMeta(src); got != want {
			t.Errorf("usesImportMeta(%q) = %v, want %v", src, got, want)
		}
	}
}

func FuzzUsesImportMeta(f *testing.F) {
	for _, s := range []string{"import.meta", "import .meta", "x.meta", "importmeta"} {
		f.Add(s)
	}
	// Non-ASCII counts as part of a name: a conservative no.
	re := regexp.MustCompile(`(^|[^\w$\x{80}-\x{10FFFF}])import[ \t\n\r\f\v]*\.[ \t\n\r\f\v]*meta($|[^\w$\x{80}-\x{10FFFF}])`)
	f.Fuzz(func(t *testing.T, src string) {
		if !utf8.ValidString(src) {
			return
		}
		if got, want := usesImportMeta(src), re.MatchString(src); got != want {
			t.Fatalf("usesImportMeta(%q) = %v, the regexp says %v", src, got, want)
		}
	})
}

func TestPrologueEnd(t *testing.T) {
	tests := []struct {
		src  string
		at   int
		semi bool
	}{
		{"", 0, false},
		{"x = 1", 0, false},
		{"'use strict'; x", 13, false},
		{"'use strict'\nx", 12, true},
		{"\"use strict\" // c\n'b';\nx", 22, false},
		{"'use strict' /* c */ ;x", 22, false},
		{"'use strict' // c\n(f)()", 0, false},
		{"/* lic */ 'use strict';x", 23, false},
		{"'a'\n+ b", 0, false},
		{"'a'.length", 0, false},
		{"#!/bin/env node\nx", 16, false},
		{"#!/bin/env node\n'use strict';x", 29, false},
		{"#!/bin/env node", 15, true},
		{"\uFEFF'use strict';", 16, false},
		{"'unterminated\nx", 0, false},
		{`'a\'b';x`, 7, false},
	}
	for _, tc := range tests {
		at, semi := prologueEnd(tc.src)
		if at != tc.at || semi != tc.semi {
			t.Errorf("prologueEnd(%q) = %d %v, want %d %v", tc.src, at, semi, tc.at, tc.semi)
		}
	}
}

// FuzzPrologueEnd: module sources are untrusted; a source esbuild parses
// must still parse with the prefix put in, as the same kind of module.
func FuzzPrologueEnd(f *testing.F) {
	for _, s := range []string{"'use strict';x", "#!x\n'a'\n'b'\nc", "/* */ 'x' // y\n", "\"a\\\"\";", "'a'\n(b)", "''"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		src += "\n__dirname"
		at, _ := prologueEnd(src)
		if at < 0 || at > len(src) {
			t.Fatalf("prologueEnd(%q) = %d, out of the source", src, at)
		}
		out, _ := withMeta(src, "a.js")
		parse := func(s string) api.TransformResult {
			return api.Transform(s, api.TransformOptions{Loader: api.LoaderJS, Format: api.FormatCommonJS, LogLevel: api.LogLevelSilent})
		}
		before, after := parse(src), parse(out)
		if len(before.Errors) > 0 {
			return
		}
		if len(after.Errors) > 0 {
			t.Fatalf("%q parses, with the prefix %q does not: %s", src, out, after.Errors[0].Text)
		}
		strict := func(r api.TransformResult) bool { return strings.HasPrefix(string(r.Code), `"use strict";`) }
		if strict(before) != strict(after) {
			t.Fatalf("%q: strict %v, with the prefix %q: %v", src, strict(before), out, strict(after))
		}
	})
}
