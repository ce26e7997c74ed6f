package release

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// checkIncremental builds commit fully and against prev, and fails unless
// the two snapshots encode to the same bytes.
func checkIncremental(tb testing.TB, r *testRepo, commit plumbing.Hash, prev *Snapshot) *Snapshot {
	tb.Helper()
	full := r.build(commit, nil)
	inc := r.build(commit, prev)
	sameJSON(tb, "full and incremental snapshots", full, inc)
	if Digest(inc.Entries) != inc.Digest {
		tb.Fatalf("incremental digest does not match its entries")
	}
	return inc
}

func TestIncrementalEqualsFull(t *testing.T) {
	r := newTestRepo(t)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("a/x.ts", "x1", 0o644)
	r.write("a/y.ts", "y1", 0o644)
	r.write("a-b/z.ts", "z1", 0o644)
	r.write("a.b", "dot", 0o644)
	r.write("deep/1/2/3/f", "deep", 0o644)
	r.write("keep/k", "k", 0o644)
	r.symlink("keep/bad", "../../out")
	prev := checkIncremental(t, r, r.commitAll("start"), nil)
	if prev.Valid() {
		t.Fatalf("the escaping symlink keep/bad should be a finding")
	}

	steps := []struct {
		name   string
		change func()
	}{
		{"edit", func() { r.write("a/x.ts", "x2", 0o644) }},
		{"add", func() { r.write("a/w.ts", "w", 0o644) }},
		{"delete", func() { r.remove("a/y.ts") }},
		{"rename", func() { r.remove("a-b/z.ts"); r.write("a-b/z2.ts", "z1", 0o644) }},
		{"mode change", func() { r.write("a/x.ts", "x2", 0o755) }},
		{"new dir", func() { r.write("new/dir/n.ts", "n", 0o644) }},
		{"deleted dir", func() { r.remove("deep") }},
		{"file becomes symlink with the same bytes", func() { r.remove("a.b"); r.symlink("a.b", "../x") }},
		{"symlink fixed", func() { r.symlink("a.b", "a/x.ts") }},
		{"deep edit next to an unchanged invalid folder", func() { r.write("new/dir/n.ts", "n2", 0o644) }},
		{"invalid folder repaired", func() { r.symlink("keep/bad", "k") }},
		{"copy of an existing blob", func() { r.write("copy/k", "k", 0o644) }},
		{"no change", func() {}},
	}
	for _, st := range steps {
		st.change()
		c := r.commitAll(st.name)
		t.Run(st.name, func(t *testing.T) { prev = checkIncremental(t, r, c, prev) })
	}
	if !prev.Valid() {
		t.Fatalf("findings after repair: %v", prev.Findings)
	}
}

// TestIncrementalRandom applies random edits to a tree with names that sort
// close together ("a", "a-b", "a.b", "a/b") and checks every step.
func TestIncrementalRandom(t *testing.T) {
	r := newTestRepo(t)
	rng := rand.New(rand.NewPCG(1, 2))
	names := []string{"a", "a-b", "a.b", "b", "a0"}
	randPath := func() string {
		depth := 1 + rng.IntN(3)
		p := ""
		for i := range depth {
			if i > 0 {
				p += "/"
			}
			p += names[rng.IntN(len(names))]
		}
		return p + ".f"
	}
	for range 40 {
		r.write(randPath(), fmt.Sprint(rng.IntN(5)), 0o644)
	}
	prev := checkIncremental(t, r, r.commitAll("start"), nil)
	for step := range 25 {
		for range 1 + rng.IntN(4) {
			p := randPath()
			switch rng.IntN(4) {
			case 0:
				r.remove(p)
			case 1:
				if d := filepath.Dir(p); d != "." {
					r.remove(d)
				}
			case 2:
				r.write(p, fmt.Sprint(rng.IntN(5)), 0o755)
			default:
				r.write(p, fmt.Sprint(rng.IntN(5)), 0o644)
			}
		}
		c := r.commitAll(fmt.Sprint("step ", step))
		prev = checkIncremental(t, r, c, prev)
		// From a record (no tree hashes) the result is the same too.
		rec := prev.Record("p", uint64(step), prev.Time)
		if s := r.build(c, rec.Snapshot()); s.Digest != prev.Digest || len(s.Entries) != len(prev.Entries) {
			t.Fatalf("step %d: build from a record's snapshot differs", step)
		}
	}
}

// An incremental build reads nothing of an unchanged folder: with the
// folder's objects deleted from the repository it still succeeds (and a
// full build fails), so the test fails if the folder is walked or hashed.
func TestIncrementalSkipsUnchangedFolders(t *testing.T) {
	r := newTestRepo(t)
	r.write("stable/s.txt", "stable content", 0o644)
	r.write("moving/m.txt", "v1", 0o644)
	prev := r.build(r.commitAll("one"), nil)
	r.write("moving/m.txt", "v2", 0o644)
	c := r.commitAll("two")

	var stableTree string
	for _, tr := range prev.Trees {
		if tr.Path == "stable" {
			stableTree = tr.Hash
		}
	}
	for _, h := range []string{stableTree, prev.Entries[len(prev.Entries)-1].Blob} {
		loose := filepath.Join(r.dir, ".git", "objects", h[:2], h[2:])
		if err := os.Remove(loose); err != nil {
			t.Fatalf("remove loose object of stable/: %v", err)
		}
	}
	if prev.Entries[len(prev.Entries)-1].Path != "stable/s.txt" {
		t.Fatalf("expected stable/s.txt last, got %q", paths(prev))
	}
	inc := r.build(c, prev)
	if len(inc.Entries) != 2 || inc.Entries[0].Digest != sha("v2") {
		t.Fatalf("incremental entries = %+v", inc.Entries)
	}
	if _, err := r.open().Build(t.Context(), c, nil); err == nil {
		t.Fatalf("full build succeeded without stable/'s objects: the test no longer shows what it should")
	}
}
