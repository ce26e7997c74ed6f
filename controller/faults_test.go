package controller

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/release"
)

// A corrupt commit object, at the head or inside a burst of commits: the
// controller says so (naming the commit it could not read past), the fleet
// keeps its release, and once the object is whole again the head is
// published with every commit of the burst.
func TestCorruptCommitObject(t *testing.T) {
	for _, tc := range []struct {
		name    string
		corrupt int // which of the new commits to break, 0 = the first
		named   int // which commit the error names
	}{
		{"head", 0, 0},
		{"inside a burst", 0, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
			c := f.start(nil)
			r1 := f.WaitDesiredCommit(first, waitFor)

			news := []string{f.Commit("two", map[string]string{"f.txt": "f"})}
			if tc.named > 0 {
				news = append(news, f.Commit("three", map[string]string{"g.txt": "g"}))
			}
			restore := corruptObject(t, f.RepoDir, news[tc.corrupt])
			c.Nudge()
			natstest.WaitFor(t, waitFor, func() error {
				if st := c.Status(); st.Healthy || !strings.Contains(st.Error, news[tc.named]) {
					return fmt.Errorf("status %+v, want an error naming %s", st, news[tc.named])
				}
				return nil
			})
			if p, err := f.Desired(); err != nil || p.Release != r1.ID {
				t.Fatalf("desired = %+v, %v; the fleet must keep %s", p, err, r1.ID)
			}
			restore()
			// No nudge: the backoff retry picks it up.
			head := news[len(news)-1]
			rec := f.WaitDesiredCommit(head, waitFor)
			if want := slices.Clone(news); len(want) > 1 {
				slices.Reverse(want)
				if !slices.Equal(rec.Covers, want) {
					t.Fatalf("covers = %v, want %v", rec.Covers, want)
				}
			}
		})
	}
}

// corruptObject overwrites a loose object of the repository with bytes that
// are not a zlib stream; the returned function puts the object back.
func corruptObject(tb testing.TB, repoDir, sha string) (restore func()) {
	tb.Helper()
	obj := filepath.Join(repoDir, ".git", "objects", sha[:2], sha[2:])
	good, err := os.ReadFile(obj)
	if err != nil {
		tb.Fatalf("%s is not a loose object: %v", sha, err)
	}
	if err := os.Chmod(obj, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(obj, []byte("this is not a zlib stream"), 0o644); err != nil {
		tb.Fatal(err)
	}
	return func() {
		tb.Helper()
		if err := os.WriteFile(obj, good, 0o444); err != nil {
			tb.Fatal(err)
		}
	}
}

// Malformed manifests (the loader's bad-input corpus) committed one after
// another: each is rejected with findings that name file and line, never
// reaches the fleet, and the last good release stays desired.
func TestMalformedManifestsAreRejected(t *testing.T) {
	corpus, err := filepath.Glob("../loader/testdata/manifests/*.yaml")
	if err != nil || len(corpus) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	extra := map[string]string{
		"binary":      "\x00\x01\x02\xff\xfe",
		"tab indent":  "tools:\n\tshow: beeuni:show\n",
		"anchor loop": "a: &a [*a]\ntools: *a\n",
		"not a map":   "- just\n- a list\n",
		"bad import":  "imports: [../../etc/passwd.yaml]\n",
		"cycle":       "imports: [beeuni.yaml]\ntools: {}\n",
	}
	f := newFixture(t)
	first := f.Commit("good", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	good := f.WaitDesiredCommit(first, waitFor)

	type bad struct{ name, content string }
	var cases []bad
	for _, p := range corpus {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		cases = append(cases, bad{filepath.Base(p), string(b)})
	}
	for name, content := range extra {
		cases = append(cases, bad{name, content})
	}
	rejected := 0
	for _, bc := range cases {
		commit := f.Commit("manifest "+bc.name, map[string]string{"beeuni.yaml": bc.content})
		c.Nudge()
		var rec *release.Record
		natstest.WaitFor(t, waitFor, func() error {
			st := c.Status()
			if st.LastCommit != commit || !st.Healthy || st.LastRelease == "" {
				return fmt.Errorf("%s: status %+v", bc.name, st)
			}
			rec = f.record(st.LastRelease)
			if rec.Commit != commit {
				return fmt.Errorf("%s: last release is of %s", bc.name, rec.Commit)
			}
			return nil
		})
		if rec.Status == release.StatusRejected {
			rejected++
			for _, fd := range rec.Findings {
				if fd.File == "" || fd.Message == "" {
					t.Errorf("%s: finding without a file or a message: %+v", bc.name, fd)
				}
			}
		}
		p, err := f.Desired()
		if err != nil {
			t.Fatal(err)
		}
		if rec.Status == release.StatusRejected && p.Release == rec.ID {
			t.Fatalf("%s: a rejected release became desired", bc.name)
		}
		if rec.Status == release.StatusPublished {
			good = rec
		} else if p.Release != good.ID {
			t.Fatalf("%s: desired %s, want the last good %s", bc.name, p.Release, good.ID)
		}
	}
	if rejected < len(cases)-2 {
		t.Fatalf("only %d of %d malformed manifests were rejected", rejected, len(cases))
	}
}
