package store_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni/store"
)

// BenchmarkUpdate: one state change, one fsynced transaction.
func BenchmarkUpdate(b *testing.B) {
	db := open(b, filepath.Join(b.TempDir(), "state.db"))
	for i := 0; b.Loop(); i++ {
		if err := db.Update(func(tx *store.Tx) error {
			return tx.Put("releases", fmt.Sprint(i), record{ID: "r", Status: "published", N: i})
		}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBundleCacheGet(b *testing.B) {
	db := open(b, filepath.Join(b.TempDir(), "state.db"))
	c := db.BundleCache("bundles")
	c.Put("k", make([]byte, 64<<10))
	for b.Loop() {
		if _, ok := c.Get("k"); !ok {
			b.Fatal("miss")
		}
	}
}
