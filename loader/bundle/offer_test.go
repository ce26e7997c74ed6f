package bundle

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
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

// TestOriginal: a position in a bundle maps back to the file and line the
// user wrote, past the packages bundled before it and the types esbuild
// dropped, and past the import.meta prefix on its line.
func TestOriginal(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		"node_modules/dep/index.js": "exports.pad = function (s) {\n  return '  ' + s\n}\n",
		"tools/lib.ts":              "export const twice = (n: number): number => n * 2\n",
		"tools/boom.ts": "import { pad } from 'dep'\nimport { twice } from './lib'\n\ninterface T {\n  a: number\n}\n" +
			"const t: T = { a: twice(1) }\nthrow new Error(pad('boom ' + t.a))\n",
		"tools/meta.ts": "'use strict'; const u = import.meta.url; throw new Error(u)\n",
	})
	b := newBundler(nil)
	cases := []struct{ entry, token, want string }{
		{"tools/boom.ts", "throw new Error", "tools/boom.ts:8:1"},
		{"tools/boom.ts", "return \"  \"", "node_modules/dep/index.js:2:3"},
		{"tools/meta.ts", "throw new Error", "tools/meta.ts:1:42"},
	}
	for _, c := range cases {
		r, err := b.Bundle(root, c.entry)
		if err != nil {
			t.Fatal(err)
		}
		line, col := 0, 0
		for i, l := range strings.Split(string(r.Code), "\n") {
			if j := strings.Index(l, c.token); j >= 0 {
				line, col = i+1, j+1
				break
			}
		}
		if line == 0 {
			t.Fatalf("%s: no %q in the bundle:\n%s", c.entry, c.token, r.Code)
		}
		p, ok := b.Original(r.Key, line, col)
		if got := fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Column); !ok || got != c.want {
			t.Errorf("%s: %q at bundle %d:%d maps to %s (%v), want %s", c.entry, c.token, line, col, got, ok, c.want)
		}
		// Another bundler, without the map, cannot tell.
		if _, ok := newBundler(nil).Original(r.Key, line, col); ok {
			t.Errorf("%s: a bundler that never made the bundle maps it", c.entry)
		}
	}
	// The map keeps paths from the root and no source contents.
	r, _ := b.Bundle(root, "tools/boom.ts")
	raw, _ := b.get(b.maps, r.Key, "s:"+r.Key)
	var head struct {
		Sources        []string `json:"sources"`
		SourcesContent []string `json:"sourcesContent"`
	}
	if err := json.Unmarshal(raw, &head); err != nil {
		t.Fatal(err)
	}
	slices.Sort(head.Sources)
	if strings.Join(head.Sources, ",") != "node_modules/dep/index.js,tools/boom.ts,tools/lib.ts" || head.SourcesContent != nil {
		t.Fatalf("sources %q, %d contents", head.Sources, len(head.SourcesContent))
	}
}
