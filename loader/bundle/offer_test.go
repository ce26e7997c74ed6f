package bundle

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/go-sourcemap/sourcemap"
)

// TestOffering: what a host offers decides which imports stay external;
// the refusal names exactly what that host offers.
func TestOffering(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"tools/fs.ts":   "import fs from 'node:fs'\nexport default fs\n",
		"tools/bare.ts": "import fs from 'fs'\nexport default fs\n",
		"tools/bun.ts":  "import { Database } from 'bun:sqlite'\nexport default Database\n",
		"tools/zlib.ts": "import z from 'node:zlib'\nexport default z\n",
	})
	cases := []struct {
		offered []string
		entry   string
		want    string // a require the bundle keeps, or the error's start
		fails   bool
	}{
		{nil, "tools/fs.ts", "tools/fs.ts:1:16: node:fs is not available to tools (they may import no node: module)", true},
		{[]string{"fs"}, "tools/fs.ts", `require("node:fs")`, false},
		{[]string{"fs"}, "tools/bare.ts", `require("node:fs")`, false},
		{[]string{"path"}, "tools/bare.ts", "tools/bare.ts:1:16: node:fs is not available to tools (they may import node:path)", true},
		{[]string{"bun:sqlite"}, "tools/bun.ts", `require("bun:sqlite")`, false},
		{nil, "tools/bun.ts", "Cannot find package 'bun:sqlite'", true},
		{[]string{"zlib", "fs", "bun:sqlite"}, "tools/zlib.ts", `require("node:zlib")`, false},
		{[]string{"util", "fs", "bun:sqlite", "fs"}, "tools/zlib.ts", "tools/zlib.ts:1:15: node:zlib is not available to tools (they may import node:fs, node:util)", true},
	}
	base := New(nil)
	for _, c := range cases {
		r, err := base.Offering(c.offered).Bundle(root, c.entry)
		switch {
		case c.fails && (err == nil || err.Error() != c.want):
			t.Errorf("offering %q, %s: %v, want %q", c.offered, c.entry, err, c.want)
		case !c.fails && (err != nil || !strings.Contains(string(r.Code), c.want)):
			t.Errorf("offering %q, %s: %v, want the bundle to keep %s", c.offered, c.entry, err, c.want)
		}
	}
}

// TestSourceMap: the map kept beside a bundle points a position in the
// bundle back at the file and line the user wrote, past the packages
// bundled before it.
func TestSourceMap(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"node_modules/dep/index.js": "exports.pad = function (s) {\n  return '  ' + s\n}\n",
		"tools/lib.ts":              "export const twice = (n: number): number => n * 2\n",
		"tools/boom.ts": "import { pad } from 'dep'\nimport { twice } from './lib'\n\ntype T = { a: number }\n" +
			"const t: T = { a: twice(1) }\nthrow new Error(pad('boom ' + t.a))\n",
	})
	b := newBundler(nil)
	r, err := b.Bundle(root, "tools/boom.ts")
	if err != nil {
		t.Fatal(err)
	}
	raw := b.SourceMap(r.Key)
	var head struct {
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatalf("source map %q: %v", raw, err)
	}
	slices.Sort(head.Sources)
	if strings.Join(head.Sources, ",") != "node_modules/dep/index.js,tools/boom.ts,tools/lib.ts" || head.SourcesContent != nil {
		t.Fatalf("sources %q, contents %d: want paths from the root and no contents", head.Sources, len(head.SourcesContent))
	}
	sm, err := sourcemap.Parse("", raw)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(r.Code), "\n")
	for i, l := range lines {
		col := strings.Index(l, "throw new Error")
		if col < 0 {
			continue
		}
		file, _, line, c, ok := sm.Source(i+1, col)
		if !ok || file != "tools/boom.ts" || line != 6 || c != 0 {
			t.Fatalf("throw at bundle %d:%d maps to %s:%d:%d (%v), want tools/boom.ts:6:0", i+1, col, file, line, c, ok)
		}
		// The map survives a bundler that finds the bundle in its cache.
		if b2 := newBundler(nil); b2.SourceMap(r.Key) != nil {
			t.Fatal("a fresh bundler without a cache has a map it never made")
		}
		return
	}
	t.Fatalf("no throw in the bundle:\n%s", r.Code)
}
