package bundle

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

var packFiles = map[string]string{
	"tools/a.ts":    "import { greet } from '../lib/greet'\nexport default { description: 'a', execute: () => greet('a') }\n",
	"tools/b.ts":    "export default { description: 'b', execute: () => 'b' }\n",
	"tools/bad.ts":  "import x from 'nowhere'\nexport default x\n",
	"lib/greet.ts":  "export const greet = (n: string): string => 'hi ' + n\n",
	"unrelated.txt": "not a module\n",
}

// TestPackSeed: a pack made in one folder lets another Bundler, offering
// the same modules, find the bundles in another folder of the same files
// without esbuild; a file that differs from what the pack's manifest names
// is bundled anew, and a module that did not bundle is not in the pack.
func TestPackSeed(t *testing.T) {
	rootA, rootB := t.TempDir(), t.TempDir()
	write(t, rootA, packFiles)
	write(t, rootB, packFiles)
	maker := newBundler(nil)
	pack, err := maker.Pack(rootA, []string{"tools/a.ts", "tools/b.ts", "tools/bad.ts"}, nil)
	if err != nil || pack == nil {
		t.Fatalf("Pack = %d bytes, %v", len(pack), err)
	}
	again, _ := newBundler(nil).Pack(rootB, []string{"tools/a.ts", "tools/b.ts", "tools/bad.ts"}, nil)
	if !bytes.Equal(pack, again) {
		t.Error("two packs of the same files differ: their content digests would too")
	}
	var p packJSON
	if err := json.Unmarshal(pack, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Entries) != 6 {
		t.Errorf("%d entries, want a manifest, code and source map for each of a and b", len(p.Entries))
	}

	reader := newBundler(&memCache{m: map[string][]byte{}})
	if err := reader.Seed(pack); err != nil {
		t.Fatal(err)
	}
	for _, e := range []string{"tools/a.ts", "tools/b.ts"} {
		want, _ := maker.Bundle(rootA, e)
		got, err := reader.Bundle(rootB, e)
		if err != nil || !bytes.Equal(got.Code, want.Code) {
			t.Errorf("%s seeded: %v, code equal %v", e, err, bytes.Equal(got.Code, want.Code))
		}
	}
	if n := reader.Built(); n != 0 {
		t.Errorf("the seeded reader ran esbuild %d times, want 0", n)
	}

	// An input the manifest names differently: bundled anew.
	write(t, rootB, map[string]string{"lib/greet.ts": "export const greet = (n: string): string => 'hello ' + n\n"})
	got, err := reader.Bundle(rootB, "tools/a.ts")
	if err != nil || !strings.Contains(string(got.Code), "hello ") || reader.Built() != 1 {
		t.Errorf("changed input: built %d, err %v, code has the new text: %v", reader.Built(), err, strings.Contains(string(got.Code), "hello "))
	}

	// Another host (other modules offered): the pack's keys are not its.
	other := New(nil).Offering([]string{"fs"})
	if err := other.Seed(pack); err != nil {
		t.Fatal(err)
	}
	if _, err := other.Bundle(rootA, "tools/b.ts"); err != nil || other.Built() != 1 {
		t.Errorf("a host offering other modules used the pack (built %d, %v)", other.Built(), err)
	}
}

func TestSeedRefuses(t *testing.T) {
	for _, pack := range []string{"", "{", `{"v":2,"entries":{}}`, `{"v":1,"entries":{"k":"not base64!"}}`} {
		if err := newBundler(nil).Seed([]byte(pack)); err == nil {
			t.Errorf("Seed(%q) accepted", pack)
		}
	}
	if p, err := newBundler(nil).Pack(t.TempDir(), []string{"tools/none.ts"}, nil); p != nil || err != nil {
		t.Errorf("Pack of nothing that bundles = %q, %v; want nil, nil", p, err)
	}
}

// TestPackMetas: the descriptions given to Pack travel with their bundles
// to a seeded reader, under the bundle's key; a later Pack of the same
// bundle ships the description again without being given it; a
// description of a bundle the pack does not hold is not taken.
func TestPackMetas(t *testing.T) {
	root := t.TempDir()
	write(t, root, packFiles)
	maker := newBundler(nil)
	metas := map[string][]byte{"tools/a.ts": []byte(`{"description":"a"}`), "tools/bad.ts": []byte(`{"description":"bad"}`),
		"tools/b.ts": []byte(`not json`)}
	pack, err := maker.Pack(root, []string{"tools/a.ts", "tools/b.ts", "tools/bad.ts"}, metas)
	if err != nil {
		t.Fatal(err)
	}
	ext := &memCache{m: map[string][]byte{}}
	reader := newBundler(ext)
	if err := reader.Seed(pack); err != nil {
		t.Fatal(err)
	}
	a, _ := reader.Bundle(root, "tools/a.ts")
	// Kept with the bundles: a reader restarted on the same cache has it.
	if got, ok := newBundler(ext).Meta(a.Key); !ok || string(got) != `{"description":"a"}` {
		t.Errorf("a's description after a restart = %q, %v", got, ok)
	}
	b, _ := reader.Bundle(root, "tools/b.ts")
	if got, ok := reader.Meta(a.Key); !ok || string(got) != `{"description":"a"}` {
		t.Errorf("a's description after Seed = %q, %v", got, ok)
	}
	if got, ok := reader.Meta(b.Key); ok {
		t.Errorf("b's invalid description was shipped: %q", got)
	}

	again, err := maker.Pack(root, []string{"tools/a.ts", "tools/b.ts"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var p packJSON
	if err := json.Unmarshal(again, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.Metas) != 1 || string(p.Metas[a.Key]) != `{"description":"a"}` {
		t.Errorf("the next pack's metas = %q, want a's kept", p.Metas)
	}

	// A meta under a key whose bundle the pack does not hold.
	forged, _ := json.Marshal(packJSON{V: packVersion, Entries: map[string][]byte{}, Metas: map[string]json.RawMessage{"k": []byte(`{}`)}})
	other := newBundler(nil)
	if err := other.Seed(forged); err != nil {
		t.Fatal(err)
	}
	if _, ok := other.Meta("k"); ok {
		t.Error("a description without its bundle was taken")
	}
}
