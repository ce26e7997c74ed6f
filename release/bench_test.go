package release

import (
	"fmt"
	"os/exec"
	"sort"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// benchRepo makes a repository of n files (about 600 bytes each, 25 per
// folder, two folder levels) and two commits: the second changes one file.
// With git installed the objects are packed by `git gc`, as in a clone.
func benchRepo(b *testing.B, n int) (r *testRepo, c1, c2 plumbing.Hash, packed bool) {
	b.Helper()
	r = newTestRepo(b)
	const perDir, dirsPerTop = 25, 20
	type dirKey struct{ top, sub int }
	files := map[dirKey][]object.TreeEntry{}
	for i := range n {
		k := dirKey{i / (perDir * dirsPerTop), (i / perDir) % dirsPerTop}
		body := strings.Repeat(fmt.Sprintf("line %d of file %d: some configuration text\n", i%7, i), 12)
		files[k] = append(files[k], regular(fmt.Sprintf("f%05d.ts", i), r.blob(body)))
	}
	commitWith := func(changed plumbing.Hash) plumbing.Hash {
		tops := map[int][]object.TreeEntry{}
		for k, es := range files {
			if changed != plumbing.ZeroHash && k.top == 0 && k.sub == 0 {
				es = append([]object.TreeEntry{regular(es[0].Name, changed)}, es[1:]...)
			}
			tops[k.top] = append(tops[k.top], object.TreeEntry{Name: fmt.Sprintf("s%02d", k.sub), Mode: filemode.Dir, Hash: r.tree(es...)})
		}
		var root []object.TreeEntry
		for top, es := range tops {
			sort.Slice(es, func(i, j int) bool { return es[i].Name < es[j].Name })
			root = append(root, object.TreeEntry{Name: fmt.Sprintf("d%03d", top), Mode: filemode.Dir, Hash: r.tree(es...)})
		}
		sort.Slice(root, func(i, j int) bool { return root[i].Name < root[j].Name })
		root = append(root, regular("zz-beeuni.yaml", r.blob("tools: []\n")))
		return r.tree(root...)
	}
	c1 = r.commitTree(commitWith(plumbing.ZeroHash), "one")
	c2 = r.commitTree(commitWith(r.blob("changed content\n")), "two", c1)
	if err := r.git.Storer.SetReference(plumbing.NewHashReference("refs/heads/master", c2)); err != nil {
		b.Fatal(err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		if out, err := exec.Command("git", "-C", r.dir, "gc", "--quiet").CombinedOutput(); err != nil {
			b.Fatalf("git gc: %v\n%s", err, out)
		}
		packed = true
	}
	return r, c1, c2, packed
}

// BenchmarkBuild profiles Repo.Build; `beeuni bench release` measures the
// same builds beside their git baseline (bench/release.go).
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{2000, 10000} {
		r, c1, c2, packed := benchRepo(b, n)
		if !packed {
			b.Logf("git not installed: objects stay loose (no git gc)")
		}
		prev := r.build(c1, nil)
		fromRecord := prev.Record("bench", 1, prev.Time).Snapshot()
		if got := len(prev.Entries); got != n+1 {
			b.Fatalf("built %d entries, want %d", got, n+1)
		}
		repo := r.open()
		b.Run(fmt.Sprintf("files=%d/full", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.Build(b.Context(), c2, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
		// A fresh Repo per build: no object cached from an earlier run.
		b.Run(fmt.Sprintf("files=%d/full-cold", n), func(b *testing.B) {
			for b.Loop() {
				cold, err := OpenRepo(r.dir)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := cold.Build(b.Context(), c2, nil); err != nil {
					b.Fatal(err)
				}
				cold.Close()
			}
		})
		b.Run(fmt.Sprintf("files=%d/incremental-one-file", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.Build(b.Context(), c2, prev); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(fmt.Sprintf("files=%d/incremental-from-record", n), func(b *testing.B) {
			for b.Loop() {
				if _, err := repo.Build(b.Context(), c2, fromRecord); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
