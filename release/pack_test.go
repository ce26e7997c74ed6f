package release

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// writeSimilarFiles writes files that differ a little, so packers store
// most of them as deltas of each other.
func writeSimilarFiles(r *testRepo, round int) {
	for i := range 60 {
		body := strings.Repeat(fmt.Sprintf("line of file %d, round %d, some shared text\n", i%9, round), 40)
		r.write(fmt.Sprintf("d%d/f%02d.ts", i%4, i), body+fmt.Sprint(i), 0o644)
	}
	r.write("big.bin", strings.Repeat(fmt.Sprintf("%08d", round), 8<<10), 0o644)
	r.write("empty", "", 0o644)
	r.write("run.sh", "#!/bin/sh\n", 0o755)
	r.symlink("d0/link", "f00.ts")
}

func needGit(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		tb.Skip("git not installed: packs are written with git")
	}
}

// gitCmd runs git in the test repository, then reopens go-git's view of it
// (go-git keeps its pack list from before).
func gitCmd(tb testing.TB, r *testRepo, args ...string) {
	tb.Helper()
	if out, err := exec.Command("git", append([]string{"-C", r.dir}, args...)...).CombinedOutput(); err != nil {
		tb.Fatalf("git %v: %v\n%s", args, err, out)
	}
	g, err := git.PlainOpen(r.dir)
	if err != nil {
		tb.Fatal(err)
	}
	r.git = g
}

// TestPackReaderMatchesGoGit reads every object of packed repositories
// through the direct pack reader and through go-git: the bytes and types
// must match, and the pack reader must have read them (deltas included).
func TestPackReaderMatchesGoGit(t *testing.T) {
	needGit(t)
	cases := []struct {
		name string
		// pack packs the repository after round; loose objects may stay.
		pack func(tb testing.TB, r *testRepo, round int)
	}{
		{"git gc", func(tb testing.TB, r *testRepo, round int) {
			if round == 0 {
				gitCmd(tb, r, "gc", "--quiet")
			}
		}},
		{"git gc, a second pack, loose objects", func(tb testing.TB, r *testRepo, round int) {
			switch round {
			case 0:
				gitCmd(tb, r, "gc", "--quiet")
			case 1:
				gitCmd(tb, r, "repack", "--quiet", "-d")
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := newTestRepo(t)
			var commits []plumbing.Hash
			for round := range 3 {
				writeSimilarFiles(r, round)
				commits = append(commits, r.commitAll(fmt.Sprint("round ", round)))
				tc.pack(t, r, round)
			}
			repo, err := OpenRepo(r.dir)
			if err != nil {
				t.Fatal(err)
			}
			defer repo.Close()
			o, err := repo.acquire(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			defer repo.release(o)

			iter, err := r.git.Storer.IterEncodedObjects(plumbing.AnyObject)
			if err != nil {
				t.Fatal(err)
			}
			direct, deltas := 0, 0
			err = iter.ForEach(func(eo plumbing.EncodedObject) error {
				h := eo.Hash()
				want, err := readObject(o.s, eo.Type(), h)
				if err != nil {
					return err
				}
				p, _, off, ok := repo.packs.find(h)
				if !ok {
					return nil // loose: go-git's
				}
				raw, err := o.pr.raw(p, off)
				if err != nil {
					return fmt.Errorf("raw %s: %w", h, err)
				}
				if typ, _, _, err := parseObjectHeader(raw); err == nil && (typ == plumbing.OFSDeltaObject || typ == plumbing.REFDeltaObject) {
					deltas++
				}
				typ, got, err := o.pr.object(p, off, 0)
				if err != nil {
					return fmt.Errorf("pack reader on %s %s: %w", eo.Type(), h, err)
				}
				if typ != eo.Type() || !bytes.Equal(got, want) {
					return fmt.Errorf("%s: pack reader gave %s of %d bytes, go-git %s of %d bytes", h, typ, len(got), eo.Type(), len(want))
				}
				direct++
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if direct == 0 || deltas == 0 {
				t.Fatalf("read %d objects directly, %d of them deltas: the pack reader was not exercised", direct, deltas)
			}
			// Every entry's digest and size are those of go-git's bytes, and
			// incremental builds equal full ones.
			for _, c := range commits {
				snap, err := repo.Build(t.Context(), c, nil)
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range snap.Entries {
					content, err := readObject(o.s, plumbing.BlobObject, plumbing.NewHash(e.Blob))
					if err != nil {
						t.Fatal(err)
					}
					if err := VerifyContent(e, content); err != nil || e.Size != int64(len(content)) {
						t.Fatalf("%s: %v (size %d, go-git %d)", e.Path, err, e.Size, len(content))
					}
				}
			}
			prev := checkIncremental(t, r, commits[0], nil)
			for _, c := range commits[1:] {
				prev = checkIncremental(t, r, c, prev)
			}
		})
	}
}

// A pack written after the Repo was opened is read directly once an
// object is missed.
func TestPackWrittenAfterOpen(t *testing.T) {
	needGit(t)
	r := newTestRepo(t)
	writeSimilarFiles(r, 0)
	c1 := r.commitAll("one")
	repo := r.open()
	if n := len(repo.packs.packs); n != 0 {
		t.Fatalf("%d packs before any was written", n)
	}
	full1 := r.build(c1, nil)
	writeSimilarFiles(r, 1)
	c2 := r.commitAll("two")
	gitCmd(t, r, "repack", "--quiet", "-d")
	inc := r.build(c2, full1)
	if n := len(repo.packs.packs); n == 0 {
		t.Fatalf("the pack written after open was not picked up")
	}
	fresh, err := OpenRepo(r.dir)
	if err != nil {
		t.Fatal(err)
	}
	defer fresh.Close()
	full2, err := fresh.Build(t.Context(), c2, nil)
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, "fresh full and incremental snapshots", full2, inc)
}
