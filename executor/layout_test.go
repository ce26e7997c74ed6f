package executor

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// Releases are laid out read-only, hard-linked from the verified content
// cache, and a freed release folder is taken over by the next layout.
func TestConvergeLinksFromCacheAndReusesFolders(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	n := startNode(t, "e1", data, f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	n.waitConverged(f.first.ID)
	checkLinked(t, data, f.first)

	r2 := f.release("v2", cproject("v2"))
	n.waitConverged(r2.ID)
	checkLinked(t, data, r2)
	n.waitDirs(r2.ID)
	var spare os.FileInfo
	waitFor(t, convergeWait, func() error {
		var err error
		spare, err = os.Stat(spareDir(data)) // r1's folder, freed
		return err
	})

	r3 := f.release("v3", cproject("v3"))
	n.waitConverged(r3.ID)
	n.waitDirs(r3.ID)
	checkLinked(t, data, r3)
	got, err := os.Stat(filepath.Join(releasesDir(data), r3.ID))
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(spare, got) {
		t.Errorf("release %s was laid out in a new folder, not in the spare one", r3.ID)
	}
	n.expectAnswer("", "v3", r3.ID)
}

// checkLinked checks that every file of rec's folder is the cache's
// read-only file of its digest.
func checkLinked(tb testing.TB, data string, rec *release.Record) {
	tb.Helper()
	for _, e := range rec.Entries {
		if e.Mode != release.ModeFile {
			continue
		}
		laid, err := os.Lstat(filepath.Join(releasesDir(data), rec.ID, filepath.FromSlash(e.Path)))
		if err != nil {
			tb.Fatal(err)
		}
		cached, err := os.Lstat(filepath.Join(casDir(data), e.Digest))
		if err != nil {
			tb.Fatal(err)
		}
		if !os.SameFile(laid, cached) || laid.Mode().Perm() != 0o444 {
			tb.Errorf("%s of %s: mode %v, same file as the cache: %v; want a read-only link", e.Path, rec.ID, laid.Mode(), os.SameFile(laid, cached))
		}
	}
}

// The bundle cache answers from memory until its write lands, and writes
// what is pending when run ends.
func TestBundleCacheWritesBehind(t *testing.T) {
	t.Parallel()
	db, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var errs []error
	c := newBundleCache(db, bucketBundles, func(err error) { errs = append(errs, err) })
	inDB := func(key string) string {
		var v []byte
		db.View(func(tx *store.Tx) error { v, _ = tx.GetBytes(bucketBundles, key); return nil })
		return string(v)
	}

	c.Put("a", []byte("code a"))
	if v, ok := c.Get("a"); !ok || string(v) != "code a" {
		t.Fatalf("Get before the write = %q %v, want code a", v, ok)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { c.run(ctx); close(done) }()
	waitFor(t, convergeWait, func() error {
		if inDB("a") != "code a" {
			return errNotYet
		}
		return nil
	})
	c.Put("b", []byte("code b"))
	c.Put("a", []byte("code a2"))
	cancel()
	<-done
	c.flush() // as Run does after its goroutines ended
	for key, want := range map[string]string{"a": "code a2", "b": "code b"} {
		if got := inDB(key); got != want {
			t.Errorf("bbolt %s = %q, want %q", key, got, want)
		}
		if v, ok := c.Get(key); !ok || string(v) != want {
			t.Errorf("Get %s = %q %v, want %q", key, v, ok, want)
		}
	}
	if _, ok := c.Get("missing"); ok {
		t.Errorf("Get of a key never put found something")
	}
	if len(c.pending) != 0 || len(errs) != 0 {
		t.Errorf("pending %d, errors %v; want none", len(c.pending), errors.Join(errs...))
	}
}

// A converge's persisted switch carries the pending bundles; a state
// change that fails leaves them pending.
func TestBundleCacheFlushWith(t *testing.T) {
	t.Parallel()
	db, err := store.Open(filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	c := newBundleCache(db, bucketBundles, func(error) {})
	c.Put("c", []byte("code c"))
	boom := errors.New("boom")
	if err := c.flushWith(func(tx *store.Tx) error { return boom }); !errors.Is(err, boom) {
		t.Fatalf("flushWith of a failing change = %v, want boom", err)
	}
	if len(c.pending) != 1 {
		t.Fatalf("pending after a failed change: %d, want 1", len(c.pending))
	}
	if err := c.flushWith(func(tx *store.Tx) error { return tx.PutBytes(bucketActive, keyActive, []byte(`{}`)) }); err != nil {
		t.Fatal(err)
	}
	var code, act []byte
	db.View(func(tx *store.Tx) error {
		code, _ = tx.GetBytes(bucketBundles, "c")
		act, _ = tx.GetBytes(bucketActive, keyActive)
		return nil
	})
	if string(code) != "code c" || string(act) != "{}" || len(c.pending) != 0 {
		t.Errorf("after flushWith: bundle %q, active %q, pending %d; want both written, none pending", code, act, len(c.pending))
	}
}
