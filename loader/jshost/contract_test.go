package jshost

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/bundle"
)

// The bundler's contract (loader/bundle: meta.go, lazy_test.go) run end to
// end: Node's module wrapper with __filename, require throwing Node's
// MODULE_NOT_FOUND, and one list of what tools may import.

// lazyProject copies loader/bundle/testdata/lazy (vendored packages that
// require lazily or optionally) into a temp folder, with extra files.
func lazyProject(tb testing.TB, extra map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	if err := os.CopyFS(root, os.DirFS(filepath.Join("..", "bundle", "testdata", "lazy"))); err != nil {
		tb.Fatal(err)
	}
	for p, c := range extra {
		if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(p)), []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

func TestLazyRequiresEndToEnd(t *testing.T) {
	root := lazyProject(t, map[string]string{
		"tools/code.ts": tool(`execute(a) {
			try { require(a.name) } catch (e) { return [e instanceof Error, e.code, e.message].join(' | ') }
			return 'found'
		}`),
	})
	s, _ := loadTools(t, root, Options{}, "tools/lazy.ts", "tools/toplevel.ts", "tools/static.ts", "tools/code.ts")
	fails := map[string]string{}
	for _, f := range s.Failures() {
		fails[f.Name] = f.Reason
	}
	// A require at the top level throws at load, where the file says; a
	// static import of a missing package fails the bundle.
	want := map[string]string{
		"toplevel": "error at import: tools/toplevel.ts:1:11: Cannot find module 'nope'",
		"static":   "Cannot find package 'gone'",
	}
	if !reflect.DeepEqual(fails, want) {
		t.Fatalf("failures = %q, want %q", fails, want)
	}
	// Loading ran the optional require in try/catch; nothing else ran.
	var got map[string]any
	if r := call(t, s, "lazy", "{}"); r.IsError || json.Unmarshal([]byte(r.Output), &got) != nil ||
		!reflect.DeepEqual(got, map[string]any{"canvas": false, "parsed": []any{"a", "b"}, "ok": 1.0}) {
		t.Fatalf("lazy = %+v", r)
	}
	// Each lazy require throws when it runs, naming the module as required.
	cases := map[string]string{
		"pkg":   "Cannot find module 'not-installed'",
		"file":  "Cannot find module './not-here'",
		"local": "Cannot find module './nothing-here'",
		// import(): a rejected promise, in Node's words for import()
		"dyn": "Cannot find package 'also-missing' imported from " + filepath.ToSlash(root) + "/tools/lazy.ts",
	}
	if offers(t, "stream") {
		t.Log("the host offers node:stream: the lazy stream case runs for real, not checked here")
	} else {
		cases["stream"] = "Cannot find module 'node:stream': tools may import " + mayImport(t)
	}
	for run, want := range cases {
		if r := call(t, s, "lazy", `{"run":"`+run+`"}`); !r.IsError || r.Output != want {
			t.Errorf("run %s = %+v, want the error %q", run, r, want)
		}
	}
	// Node's error: an Error with code MODULE_NOT_FOUND; the message names
	// the module as passed, and for node: what tools may import.
	for name, want := range map[string]string{
		"left-pad":       "true | MODULE_NOT_FOUND | Cannot find module 'left-pad'",
		"./x.js":         "true | MODULE_NOT_FOUND | Cannot find module './x.js'",
		"node:inspector": "true | MODULE_NOT_FOUND | Cannot find module 'node:inspector': tools may import " + mayImport(t),
		"node:fs":        "found",
	} {
		if r := call(t, s, "code", `{"name":"`+name+`"}`); r.Output != want {
			t.Errorf("require(%q) = %q, want %q", name, r.Output, want)
		}
	}
}

// metaFiles use import.meta, __dirname and __filename as modules do: ESM
// with a hashbang and a directive, CommonJS, a package locating its data.
var metaFiles = map[string]string{
	"tools/meta.ts": `import { here } from '../lib/where.mjs'
import data from 'assets'
const old = require('../lib/old.cjs')
export default {
  description: 'where am I', parameters: { type: 'object' },
  execute() {
    return {
      url: import.meta.url, dirname: import.meta.dirname, filename: import.meta.filename,
      dir: import.meta.dir, file: import.meta.file, path: import.meta.path,
      here, old, data, own: __dirname, ownFile: __filename,
      resolved: [import.meta.resolve('../lib/old.cjs'), import.meta.resolve('node:fs')],
      bare: (() => { try { return import.meta.resolve('assets') } catch (e) { return e.code } })(),
    }
  },
}
`,
	"lib/where.mjs":                    "#!/usr/bin/env node\n'use strict'\nexport const here = import . meta.url\n",
	"lib/old.cjs":                      "\"use strict\"\nmodule.exports = { d: __dirname, f: __filename }\n",
	"node_modules/assets/package.json": `{"name":"assets","main":"index.js"}`,
	"node_modules/assets/index.js":     "module.exports = __filename.replace(/index\\.js$/, 'data.txt')\n",
}

// TestImportMetaEndToEnd: each file sees its own place in the root it is
// loaded from, even when the program is shared with another root.
func TestImportMetaEndToEnd(t *testing.T) {
	b := bundle.New(nil)
	for _, dir := range []string{"my proj#1", "other ü"} {
		root := filepath.Join(t.TempDir(), dir)
		for p, c := range metaFiles {
			full := filepath.Join(root, filepath.FromSlash(p))
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		s, _ := loadTools(t, root, Options{Bundler: b}, "tools/meta.ts")
		mustLoad(t, s)
		var got map[string]any
		if r := call(t, s, "meta", "{}"); r.IsError || json.Unmarshal([]byte(r.Output), &got) != nil {
			t.Fatalf("%s: meta = %+v", dir, r)
		}
		at := filepath.ToSlash(root)
		url := "file://" + strings.NewReplacer(" ", "%20", "#", "%23", "ü", "%C3%BC").Replace(at)
		want := map[string]any{
			"url": url + "/tools/meta.ts", "dirname": at + "/tools", "filename": at + "/tools/meta.ts",
			"dir": at + "/tools", "file": "meta.ts", "path": at + "/tools/meta.ts",
			"here": url + "/lib/where.mjs", "old": map[string]any{"d": at + "/lib", "f": at + "/lib/old.cjs"},
			"data": at + "/node_modules/assets/data.txt", "own": at + "/tools", "ownFile": at + "/tools/meta.ts",
			// resolve answers paths and node: modules; a package it refuses
			// rather than guess where Node would find it.
			"resolved": []any{url + "/lib/old.cjs", "node:fs"}, "bare": "ERR_UNSUPPORTED_RESOLVE_REQUEST",
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %v\nwant %v", dir, got, want)
		}
	}
}

// TestOfferedModulesBundle: what require answers is what the bundler lets
// a module import, and both refuse the rest in the same words.
func TestOfferedModulesBundle(t *testing.T) {
	names := newHost(withDefaults(Options{Root: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})).rt.ModuleNames()
	files := map[string]string{
		"tools/refused.ts": "import x from 'node:inspector'\n" + tool("execute() { return typeof x }"),
	}
	var paths []string
	for i, name := range names {
		spec := name
		if !strings.Contains(name, ":") {
			spec = "node:" + name
		}
		p := "tools/m" + strconv.Itoa(100+i) + ".ts"
		files[p] = "import * as m from '" + spec + "'\n" + tool("execute() { return typeof m }")
		paths = append(paths, p)
	}
	paths = append(paths, "tools/refused.ts")
	s, _ := loadTools(t, project(t, files), Options{}, paths...)
	fails := s.Failures()
	if len(fails) != 1 || fails[0].Name != "refused" ||
		fails[0].Reason != "tools/refused.ts:1:15: node:inspector is not available to tools (they may import "+mayImport(t)+")" {
		t.Fatalf("failures = %+v", fails)
	}
	for i := range names {
		name := "m" + strconv.Itoa(100+i)
		if r := call(t, s, name, "{}"); r.IsError || r.Output != "object" {
			t.Errorf("%s (%s) = %+v", name, names[i], r)
		}
	}
}

// offers reports whether the host's require answers name.
func offers(tb testing.TB, name string) bool {
	tb.Helper()
	return slices.Contains(newHost(withDefaults(Options{Root: tb.TempDir()})).rt.ModuleNames(), name)
}

// mayImport is the host's list of what tools may import, as messages say it.
func mayImport(tb testing.TB) string {
	tb.Helper()
	h := newHost(withDefaults(Options{Root: tb.TempDir()}))
	if !strings.HasPrefix(h.mayImport, "node:assert, node:assert/strict, node:async_hooks, node:buffer, ") {
		tb.Fatalf("mayImport = %q", h.mayImport)
	}
	return h.mayImport
}
