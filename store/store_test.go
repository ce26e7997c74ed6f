package store_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/beeuni/beeuni/store"
)

type record struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	N      int    `json:"n"`
}

func open(tb testing.TB, path string) *store.DB {
	tb.Helper()
	db, err := store.Open(path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func TestRoundTrip(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "nested", "state.db"))

	err := db.Update(func(tx *store.Tx) error {
		for _, r := range []record{{"b", "published", 2}, {"a", "rejected", 1}, {"c", "replayed", 3}} {
			if err := tx.Put("releases", r.ID, r); err != nil {
				return err
			}
		}
		return tx.PutBytes("meta", "last_commit", []byte("abc123"))
	})
	if err != nil {
		t.Fatal(err)
	}

	err = db.View(func(tx *store.Tx) error {
		for _, tc := range []struct {
			bucket, key string
			want        record
			found       bool
		}{
			{"releases", "a", record{"a", "rejected", 1}, true},
			{"releases", "c", record{"c", "replayed", 3}, true},
			{"releases", "zz", record{}, false},
			{"no-such-bucket", "a", record{}, false},
			{"releases", "", record{}, false},
		} {
			var got record
			found, err := tx.Get(tc.bucket, tc.key, &got)
			if err != nil || found != tc.found || got != tc.want {
				t.Errorf("Get(%s, %s) = %+v, %v, %v; want %+v, %v", tc.bucket, tc.key, got, found, err, tc.want, tc.found)
			}
		}
		if raw, ok := tx.GetBytes("meta", "last_commit"); !ok || string(raw) != "abc123" {
			t.Errorf("GetBytes = %q, %v", raw, ok)
		}
		var keys []string
		if err := tx.List("releases", func(k string, raw []byte) error {
			keys = append(keys, k)
			return nil
		}); err != nil {
			return err
		}
		if strings.Join(keys, ",") != "a,b,c" {
			t.Errorf("List keys = %v, want a,b,c", keys)
		}
		if err := tx.Put("releases", "x", record{}); err == nil {
			t.Error("Put in a View succeeded")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}

	// A failing Update rolls back everything it did.
	boom := errors.New("boom")
	err = db.Update(func(tx *store.Tx) error {
		if err := tx.Delete("releases", "a"); err != nil {
			return err
		}
		if err := tx.Put("releases", "d", record{ID: "d"}); err != nil {
			return err
		}
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("Update = %v, want boom", err)
	}
	if n := count(t, db, "releases"); n != 3 {
		t.Fatalf("after rollback %d releases, want 3", n)
	}

	if err := db.Update(func(tx *store.Tx) error {
		if err := tx.Delete("releases", "a"); err != nil {
			return err
		}
		return tx.Delete("nothing-here", "a")
	}); err != nil {
		t.Fatal(err)
	}
	if n := count(t, db, "releases"); n != 2 {
		t.Fatalf("after delete %d releases, want 2", n)
	}

	// A value that is not the JSON the caller expects is an error, not zero.
	if err := db.Update(func(tx *store.Tx) error { return tx.PutBytes("releases", "bad", []byte("{")) }); err != nil {
		t.Fatal(err)
	}
	db.View(func(tx *store.Tx) error {
		var r record
		if found, err := tx.Get("releases", "bad", &r); !found || err == nil {
			t.Errorf("Get of corrupt JSON = %v, %v", found, err)
		}
		return nil
	})
}

func count(tb testing.TB, db *store.DB, bucket string) int {
	tb.Helper()
	n := 0
	if err := db.View(func(tx *store.Tx) error {
		return tx.List(bucket, func(string, []byte) error { n++; return nil })
	}); err != nil {
		tb.Fatal(err)
	}
	return n
}

func TestListPrefixAndSeq(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "state.db"))
	var seqs []uint64
	for range 12 {
		if err := db.Update(func(tx *store.Tx) error {
			n, err := tx.NextSeq("releases")
			if err != nil {
				return err
			}
			seqs = append(seqs, n)
			if err := tx.PutBytes("releases", store.SeqKey(n), []byte(fmt.Sprint(n))); err != nil {
				return err
			}
			return tx.PutBytes("by-project", fmt.Sprintf("p%d/%s", n%2, store.SeqKey(n)), nil)
		}); err != nil {
			t.Fatal(err)
		}
	}
	// A rolled-back transaction does not consume a number.
	db.Update(func(tx *store.Tx) error {
		tx.NextSeq("releases")
		return errors.New("rollback")
	})
	var order []string
	var odd int
	db.View(func(tx *store.Tx) error {
		tx.List("releases", func(_ string, raw []byte) error { order = append(order, string(raw)); return nil })
		return tx.ListPrefix("by-project", "p1/", func(string, []byte) error { odd++; return nil })
	})
	if strings.Join(order, ",") != "1,2,3,4,5,6,7,8,9,10,11,12" {
		t.Fatalf("List by SeqKey = %v, want numeric order", order)
	}
	if odd != 6 {
		t.Fatalf("ListPrefix p1/ = %d keys, want 6", odd)
	}
	var n uint64
	db.Update(func(tx *store.Tx) (err error) { n, err = tx.NextSeq("releases"); return err })
	if n != 13 {
		t.Fatalf("NextSeq after rollback = %d, want 13", n)
	}
}

func TestReopenKeepsState(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Update(func(tx *store.Tx) error { return tx.Put("pin", "release", record{ID: "r7"}) }); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t, path)
	var r record
	if err := db.View(func(tx *store.Tx) error {
		found, err := tx.Get("pin", "release", &r)
		if !found {
			return errors.New("pin lost across reopen")
		}
		return err
	}); err != nil || r.ID != "r7" {
		t.Fatalf("after reopen: %+v, %v", r, err)
	}
}

func TestSecondOpenFails(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "state.db")
	open(t, path)
	_, err := store.Open(path)
	if !errors.Is(err, store.ErrLocked) || !strings.Contains(err.Error(), "is another beeuni using "+dir+"?") {
		t.Fatalf("second Open = %v, want ErrLocked asking about another beeuni", err)
	}
}

func TestConcurrentUpdates(t *testing.T) {
	db := open(t, filepath.Join(t.TempDir(), "state.db"))
	const workers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			for i := range each {
				err := db.Update(func(tx *store.Tx) error {
					var c record
					if _, err := tx.Get("counters", "total", &c); err != nil {
						return err
					}
					c.N++
					if err := tx.Put("counters", "total", c); err != nil {
						return err
					}
					return tx.PutBytes("log", fmt.Sprintf("w%d-%03d", w, i), nil)
				})
				if err != nil {
					errs <- err
					return
				}
				// Readers run alongside the writer.
				db.View(func(tx *store.Tx) error {
					var c record
					_, err := tx.Get("counters", "total", &c)
					return err
				})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var c record
	db.View(func(tx *store.Tx) error { _, err := tx.Get("counters", "total", &c); return err })
	if c.N != workers*each || count(t, db, "log") != workers*each {
		t.Fatalf("counter %d, log %d; want %d each (lost updates)", c.N, count(t, db, "log"), workers*each)
	}
}

func TestBundleCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := store.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	var errs []error
	c := db.BundleCache("bundles").OnError(func(err error) { errs = append(errs, err) })
	if _, ok := c.Get("k1"); ok {
		t.Fatal("hit on an empty cache")
	}
	c.Put("k1", []byte("code one"))
	if code, ok := c.Get("k1"); !ok || string(code) != "code one" {
		t.Fatalf("Get = %q, %v", code, ok)
	}
	db.Close()

	// Kept across a restart.
	db = open(t, path)
	c = db.BundleCache("bundles")
	if code, ok := c.Get("k1"); !ok || string(code) != "code one" {
		t.Fatalf("after reopen Get = %q, %v", code, ok)
	}
	if len(errs) != 0 {
		t.Fatalf("cache errors: %v", errs)
	}
	// An empty key cannot be stored; the failure is reported, not fatal.
	c.OnError(func(err error) { errs = append(errs, err) }).Put("", []byte("x"))
	if len(errs) != 1 {
		t.Fatalf("errors after bad Put = %v, want one", errs)
	}
}
