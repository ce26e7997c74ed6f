package bundle

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func write(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// symlink makes link point at target, making link's folder first.
func symlink(tb testing.TB, target, link string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		tb.Fatal(err)
	}
}

// memCache is a real in-memory Cache that counts its hits.
type memCache struct {
	mu   sync.Mutex
	m    map[string][]byte
	gets int
}

func (c *memCache) Get(k string) ([]byte, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	if ok {
		c.gets++
	}
	return v, ok
}

func (c *memCache) Put(k string, v []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m[k] = v
}

// testOffered is a host's list for these tests; jshost passes its own (its
// tests bundle a static import of every name it offers).
var testOffered = []string{"fs", "fs/promises", "path", "os", "crypto", "url", "buffer", "util", "events", "bun:sqlite"}

func newBundler(c Cache) *Bundler { return New(c).Offering(testOffered) }

func TestBundleErrors(t *testing.T) {
	parent := t.TempDir()
	root := filepath.Join(parent, "proj")
	write(t, parent, map[string]string{
		"outside.ts":                  "export const x = 1\n",
		"node_modules/above/index.js": "module.exports = 1\n",
	})
	write(t, root, map[string]string{
		"tools/syntax.ts":  "const a = 1\nfunction f() {\n  return a b\n}\n",
		"tools/pkg.ts":     "import { z } from 'zod/v4'\nexport default z\n",
		"tools/scoped.ts":  "import x from '@acme/kit/deep'\nexport default x\n",
		"tools/above.ts":   "import x from 'above'\nexport default x\n",
		"tools/escape.ts":  "import { x } from '../../outside'\nexport default x\n",
		"tools/node.ts":    "import cp from 'node:child_process'\nexport default cp\n",
		"tools/bare.ts":    "import zlib from 'zlib'\nexport default zlib\n",
		"tools/missing.ts": "import x from './nothere'\nexport default x\n",
		"tools/tla.ts":     "const x = await Promise.resolve(1)\nexport default { x }\n",
	})
	cases := []struct{ entry, want string }{
		{"tools/syntax.ts", `tools/syntax.ts:3:12: Expected ";" but found "b"`},
		{"tools/pkg.ts", "Cannot find package 'zod'"},
		{"tools/scoped.ts", "Cannot find package '@acme/kit'"},
		{"tools/above.ts", "Cannot find package 'above'"},
		{"tools/escape.ts", `tools/escape.ts:1:19: "../../outside" resolves outside the project root: keep imported files inside the repository`},
		{"tools/node.ts", "tools/node.ts:1:16: node:child_process is not available to tools (they may import node:buffer, node:crypto, node:events, node:fs, node:fs/promises, node:os, node:path, node:url, node:util)"},
		{"tools/bare.ts", "tools/bare.ts:1:18: node:zlib is not available to tools"},
		{"tools/missing.ts", `tools/missing.ts:1:15: Could not resolve "./nothere"`},
		{"tools/tla.ts", "tools/tla.ts:1:11: Top-level await is not supported in tool modules: move the awaited work into execute(), or into a promise created at import and awaited in execute()"},
		{"tools/absent.ts", "tools/absent.ts: file not found"},
		{"../x.ts", "../x.ts: the path leaves the project root"},
		{"tools/abs.ts", `tools/abs.ts:1:19: "` + parent + `/outside.ts" resolves outside the project root`},
		{"tools/filelink.ts", `tools/filelink.ts:1:19: "` + parent + `/outside.ts" is outside the project root (symlinks followed)`},
		{"tools/dirlink.ts", `tools/dirlink.ts:1:19: "` + parent + `/elsewhere/dir/x.ts" is outside the project root`},
		{"tools/entrylink.ts", `"` + parent + `/outside.ts" is outside the project root`},
		{"tools/pkglink.ts", "Cannot find package 'linked'"},
		{"sub/nmlink.ts", "Cannot find package 'viaLinkedFolder'"},
		{"tools/lazylink.ts", `tools/lazylink.ts:1:25: "` + parent + `/outside.ts" is outside the project root`},
	}
	// Symlinks out of the root: a file, a folder, the entry itself, a
	// package folder, a whole node_modules; each is refused before esbuild
	// reads what it points at.
	write(t, parent, map[string]string{
		"elsewhere/linked/package.json":             `{"name":"linked","main":"index.js"}`,
		"elsewhere/linked/index.js":                 "module.exports = 'outside'\n",
		"elsewhere/dir/x.ts":                        "export const x = 'outside'\n",
		"elsewhere/nm/viaLinkedFolder/index.js":     "module.exports = 'outside'\n",
		"elsewhere/nm/viaLinkedFolder/package.json": `{"name":"viaLinkedFolder"}`,
	})
	write(t, root, map[string]string{
		"tools/abs.ts":      "import { x } from '" + parent + "/outside.ts'\nexport default x\n",
		"tools/filelink.ts": "import { x } from './link'\nexport default x\n",
		"tools/dirlink.ts":  "import { x } from './dir/x'\nexport default x\n",
		"tools/pkglink.ts":  "import x from 'linked'\nexport default x\n",
		"sub/nmlink.ts":     "import x from 'viaLinkedFolder'\nexport default x\n",
		"tools/lazylink.ts": "const f = () => require('./link')\nexport default f\n",
		"tools/inlink.ts":   "import { n } from './alias'\nexport default n\n",
		"tools/real.ts":     "export const n = 1\n",
	})
	symlink(t, filepath.Join(parent, "outside.ts"), filepath.Join(root, "tools/link.ts"))
	symlink(t, filepath.Join(parent, "elsewhere/dir"), filepath.Join(root, "tools/dir"))
	symlink(t, filepath.Join(parent, "outside.ts"), filepath.Join(root, "tools/entrylink.ts"))
	symlink(t, filepath.Join(parent, "elsewhere/linked"), filepath.Join(root, "node_modules/linked"))
	symlink(t, filepath.Join(parent, "elsewhere/nm"), filepath.Join(root, "sub/node_modules"))
	symlink(t, filepath.Join(root, "tools/real.ts"), filepath.Join(root, "tools/alias.ts"))
	b := newBundler(nil)
	// A symlink that stays inside the root is followed.
	if r, err := b.Bundle(root, "tools/inlink.ts"); err != nil || !strings.Contains(string(r.Code), "n = 1") {
		t.Fatalf("symlink inside the root: %v", err)
	}
	for _, c := range cases {
		t.Run(c.entry, func(t *testing.T) {
			_, err := b.Bundle(root, c.entry)
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("err = %v, want one line starting %q", err, c.want)
			}

		})
	}
}

func TestBundleCache(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"tools/a.ts":      "import { n } from './lib/n'\nimport fs from 'node:fs'\nexport default { n, fs }\n",
		"tools/lib/n.mts": "export const n: number = 1\n",
	})
	ext := &memCache{m: map[string][]byte{}}
	b := newBundler(ext)
	r1, err := b.Bundle(root, "tools/a.ts")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(r1.Code), `require("node:fs")`) || len(r1.Key) != 64 {
		t.Fatalf("code = %s", r1.Code)
	}
	r2, err := b.Bundle(root, "tools/a.ts")
	if err != nil || r2.Key != r1.Key {
		t.Fatalf("cached: %v %s", err, r2.Key)
	}
	// Changing an imported file changes the bundle.
	write(t, root, map[string]string{"tools/lib/n.mts": "export const n: number = 22\n"})
	r3, err := b.Bundle(root, "tools/a.ts")
	if err != nil || r3.Key == r1.Key || !strings.Contains(string(r3.Code), "22") {
		t.Fatalf("after change: %v %s", err, r3.Code)
	}
	// Same contents under another root: found by content, in a new Bundler
	// through the external cache, without running esbuild.
	other := t.TempDir()
	write(t, other, map[string]string{
		"tools/a.ts":      "import { n } from './lib/n'\nimport fs from 'node:fs'\nexport default { n, fs }\n",
		"tools/lib/n.mts": "export const n: number = 22\n",
	})
	before := ext.gets
	r4, err := newBundler(ext).Bundle(other, "tools/a.ts")
	if err != nil || r4.Key != r3.Key || string(r4.Code) != string(r3.Code) || ext.gets != before+2 {
		t.Fatalf("external cache: %v key %s gets %d->%d", err, r4.Key, before, ext.gets)
	}
}

// TestBundleKeyNamesEntry: two modules that import each other bundle from
// the same files, into different scripts with different keys.
func TestBundleKeyNamesEntry(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"tools/a.ts": "import { b } from './b'\nexport const a = 'A'\nexport default { b }\n",
		"tools/b.ts": "import { a } from './a'\nexport const b = 'B'\nexport default { a }\n",
	})
	b := newBundler(&memCache{m: map[string][]byte{}})
	ra, err := b.Bundle(root, "tools/a.ts")
	if err != nil {
		t.Fatal(err)
	}
	rb, err := b.Bundle(root, "tools/b.ts")
	if err != nil {
		t.Fatal(err)
	}
	if ra.Key == rb.Key || string(ra.Code) == string(rb.Code) {
		t.Fatalf("a and b share key %s", ra.Key)
	}
}

func TestBundleSource(t *testing.T) {
	b := newBundler(nil)
	r, err := b.BundleSource("beeuni/tools/show.ts", []byte("import { join } from 'node:path'\nconst x: string = join('a')\nexport default { x }\n"))
	if err != nil || !strings.Contains(string(r.Code), `require("node:path")`) {
		t.Fatalf("%v %s", err, r.Code)
	}
	r2, _ := b.BundleSource("beeuni/tools/show.ts", []byte("import { join } from 'node:path'\nconst x: string = join('a')\nexport default { x }\n"))
	if r2.Key != r.Key {
		t.Fatal("key changed")
	}
	if _, err := b.BundleSource("beeuni/tools/x.ts", []byte("import y from './y'\nexport default y\n")); err == nil || !strings.Contains(err.Error(), "node: modules only") {
		t.Fatalf("relative import: %v", err)
	}
	if _, err := b.BundleSource("beeuni/tools/x.ts", []byte("let = ;\n")); err == nil || !strings.HasPrefix(err.Error(), "beeuni/tools/x.ts:1:") {
		t.Fatalf("syntax: %v", err)
	}
}

func TestMemo(t *testing.T) {
	b := newBundler(nil)
	n := 0
	for range 3 {
		if v := b.Memo("k", "key", func() any { n++; return n }); v != 1 {
			t.Fatalf("memo = %v", v)
		}
	}
}

func FuzzPackageName(f *testing.F) {
	for _, s := range []string{"zod", "zod/v4", "@a/b/c", "@a", "./x", "../y", "/abs", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		name := packageName(p)
		if !strings.HasPrefix(p, name) {
			t.Fatalf("packageName(%q) = %q is not a prefix", p, name)
		}
		if isBare(p) && strings.HasPrefix(p, "@") && strings.Count(name, "/") > 1 {
			t.Fatalf("scoped name %q", name)
		}
	})
}

func BenchmarkBundleCold(b *testing.B) {
	root := b.TempDir()
	write(b, root, map[string]string{
		"tools/a.ts":   "import { helper } from './lib'\nimport path from 'node:path'\nexport default { description: 'a', parameters: { type: 'object' }, execute(x: { n: number }) { return helper(x.n) + path.sep } }\n",
		"tools/lib.ts": "export function helper(n: number): string { return 'n=' + n }\n",
	})
	for b.Loop() {
		if _, err := newBundler(nil).Bundle(root, "tools/a.ts"); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBundleCached(b *testing.B) {
	root := b.TempDir()
	write(b, root, map[string]string{
		"tools/a.ts":   "import { helper } from './lib'\nimport path from 'node:path'\nexport default { description: 'a', parameters: { type: 'object' }, execute(x: { n: number }) { return helper(x.n) + path.sep } }\n",
		"tools/lib.ts": "export function helper(n: number): string { return 'n=' + n }\n",
	})
	bu := newBundler(nil)
	if _, err := bu.Bundle(root, "tools/a.ts"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := bu.Bundle(root, "tools/a.ts"); err != nil {
			b.Fatal(err)
		}
	}
}
