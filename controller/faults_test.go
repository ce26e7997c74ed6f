package controller

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
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

// TestCredentialsNeverShown: a repository URL with credentials that
// answers 401 (a loopback HTTP server): the controller retries, and
// neither its status nor any log line shows the password.
func TestCredentialsNeverShown(t *testing.T) {
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer srv.Close()
	repo := strings.Replace(srv.URL, "http://", "http://alice:hunter2@", 1) + "/r.git"
	var logs syncBuffer
	f := newFixture(t)
	c := f.start(func(cfg *Config) {
		cfg.Repo = repo
		cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	})
	natstest.WaitFor(t, waitFor, func() error {
		if hits.Load() < 3 {
			return fmt.Errorf("%d fetches so far", hits.Load())
		}
		if c.Status().Error == "" {
			return errors.New("no error in the status yet")
		}
		return nil
	})
	st := c.Status()
	b, _ := json.Marshal(st)
	want := strings.Replace(repo, "alice:hunter2", "***", 1)
	if strings.Contains(string(b), "hunter2") || st.Repo != want {
		t.Fatalf("status shows the password or not the redacted URL %s: %s", want, b)
	}
	if !strings.Contains(logs.String(), "look at the branch failed") || strings.Contains(logs.String(), "hunter2") {
		t.Fatalf("the logs:\n%s", logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a logger and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestLostContentRestored: content objects of a published release are
// deleted and damaged in NATS; the next commit, which changes neither
// file, puts both back from Git before it is published.
func TestLostContentRestored(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool, "data.txt": "data\n"})
	var logs syncBuffer
	c := f.start(func(cfg *Config) { cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	r1 := f.WaitDesiredCommit(first, waitFor)
	byPath := map[string]string{}
	var all []string
	for _, e := range r1.Entries {
		byPath[e.Path] = e.Digest
		all = append(all, e.Digest)
	}
	natstest.DamageContent(t, f.NATS.ClientURL(), byPath["tools/greet.ts"], nil)
	natstest.DamageContent(t, f.NATS.ClientURL(), byPath["data.txt"], []byte("DATA\n"))
	if missing, err := f.Bus.MissingContent(t.Context(), all); err != nil || len(missing) != 2 {
		t.Fatalf("after the damage MissingContent = %v, %v; want the two damaged", missing, err)
	}
	second := f.Commit("two", map[string]string{"other.txt": "x\n"})
	c.Nudge()
	f.WaitDesiredCommit(second, waitFor)
	if missing, err := f.Bus.MissingContent(t.Context(), all); err != nil || len(missing) != 0 {
		t.Fatalf("after the next publish MissingContent = %v, %v; want none", missing, err)
	}
	var got bytes.Buffer
	if err := f.Bus.GetContent(t.Context(), byPath["data.txt"], &got); err != nil || got.String() != "data\n" {
		t.Fatalf("data.txt in NATS: %q, %v", got.String(), err)
	}
	if !strings.Contains(logs.String(), "put back from Git") {
		t.Errorf("the restore was not logged:\n%s", logs.String())
	}
}

// TestRebuildFromNATS: the state database is found corrupt at a restart;
// it is moved aside and the state rebuilt from the records in NATS: the
// head is not built again, and the next commit continues the sequence.
func TestRebuildFromNATS(t *testing.T) {
	f := newFixture(t)
	c1 := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	f.WaitDesiredCommit(c1, waitFor)
	c2 := f.Commit("two", map[string]string{"a.txt": "a\n"})
	c.Nudge()
	r2 := f.WaitDesiredCommit(c2, waitFor)
	c.stop()
	dbPath := filepath.Join(f.dataDir, "controller.db")
	if err := os.WriteFile(dbPath, bytes.Repeat([]byte{0xa5}, 64<<10), 0o600); err != nil {
		t.Fatal(err)
	}

	var logs syncBuffer
	c = f.start(func(cfg *Config) { cfg.Logger = slog.New(slog.NewTextHandler(&logs, nil)) })
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); !st.Healthy || st.LastCommit != c2 || st.Desired != r2.ID {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
	if matches, _ := filepath.Glob(dbPath + ".corrupt-*"); len(matches) != 1 {
		t.Errorf("corrupt files kept aside: %v", matches)
	}
	if n := strings.Count(logs.String(), "state database was corrupt"); n != 1 {
		t.Errorf("%d log lines about the corrupt database, want one:\n%s", n, logs.String())
	}
	if got := f.EventTypes(); !slices.Equal(got, []string{"release.built", "release.built"}) {
		t.Fatalf("events after the rebuild: %v (the head was built again?)", got)
	}
	c3 := f.Commit("three", map[string]string{"b.txt": "b\n"})
	c.Nudge()
	r3 := f.WaitDesiredCommit(c3, waitFor)
	if r3.Seq != 3 || r3.Previous != r2.ID {
		t.Fatalf("after the rebuild: seq %d previous %q, want 3 and %s", r3.Seq, r3.Previous, r2.ID)
	}
}
