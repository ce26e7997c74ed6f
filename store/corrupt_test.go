package store

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// filled makes a database with enough keys to span many pages and
// returns its path, closed.
func filled(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "state.db")
	db, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	err = db.Update(func(tx *Tx) error {
		for i := range 2000 {
			if err := tx.PutBytes(fmt.Sprintf("b%d", i%7), fmt.Sprintf("key-%05d", i), []byte(strings.Repeat("v", 100+i%300))); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// scribble overwrites n bytes at off with random ones.
func scribble(t *testing.T, path string, off int64, n int, r *rand.Rand) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.IntN(256))
	}
	if _, err := f.WriteAt(b, off); err != nil {
		t.Fatal(err)
	}
}

// TestCorruptFileMovedAside: random bytes over the meta pages, or over
// data pages, never make Open panic or fail: a file bbolt or its check
// finds damaged is moved aside and a new, working database takes its
// place; an undamaged one keeps its data.
func TestCorruptFileMovedAside(t *testing.T) {
	page := int64(os.Getpagesize())
	moved := 0
	for seed := range uint64(24) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			path := filled(t)
			fi, _ := os.Stat(path)
			r := rand.New(rand.NewPCG(seed, 42))
			switch seed {
			case 0: // both meta pages
				scribble(t, path, 0, int(2*page), r)
			default: // a few data pages
				for range 3 {
					scribble(t, path, 2*page+r.Int64N(fi.Size()-3*page), int(page), r)
				}
			}
			db, err := Open(path)
			if err != nil {
				t.Fatalf("Open over a damaged file: %v", err)
			}
			defer db.Close()
			aside, why := db.Recovered()
			if aside == "" {
				// The damage hit free pages only: the data must be whole.
				n := 0
				if err := db.View(func(tx *Tx) error {
					for i := range 7 {
						if err := tx.List(fmt.Sprintf("b%d", i), func(string, []byte) error { n++; return nil }); err != nil {
							return err
						}
					}
					return nil
				}); err != nil || n != 2000 {
					t.Fatalf("Open said the file was sound, but it has %d keys (%v)", n, err)
				}
				return
			}
			moved++
			if !errors.Is(why, ErrCorrupt) || !strings.HasPrefix(aside, path+".corrupt-") {
				t.Fatalf("Recovered = %q, %v", aside, why)
			}
			if _, err := os.Stat(aside); err != nil {
				t.Fatalf("the corrupt file is not kept aside: %v", err)
			}
			if err := db.Update(func(tx *Tx) error { return tx.Put("b", "k", "v") }); err != nil {
				t.Fatalf("the new database does not work: %v", err)
			}
			var v string
			if found, err := getKey(db, "b", "k", &v); err != nil || !found || v != "v" {
				t.Fatalf("read back: %v %v %q", found, err, v)
			}
		})
	}
	if moved == 0 {
		t.Fatal("no damage was ever found: the test damages nothing that matters")
	}
}

func getKey(db *DB, bucket, key string, v any) (bool, error) {
	var found bool
	err := db.View(func(tx *Tx) error {
		var err error
		found, err = tx.Get(bucket, key, v)
		return err
	})
	return found, err
}
