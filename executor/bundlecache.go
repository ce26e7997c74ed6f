package executor

import (
	"bytes"
	"context"
	"maps"
	"sync"
	"time"

	"github.com/beeuni/beeuni/store"
)

// bundleCache keeps the bundler's results in bbolt across restarts, written
// behind: Put keeps the bundle in memory and run writes what is pending in
// one transaction, so a new module's bundle does not wait for bbolt's fsyncs
// on its way to the switch. The cache only spares work: a bundle a crash
// loses before it is written is bundled again.
type bundleCache struct {
	db     *store.DB
	bucket string
	onErr  func(error)
	kick   chan struct{}

	mu      sync.Mutex
	pending map[string][]byte // put, not yet written
}

func newBundleCache(db *store.DB, bucket string, onErr func(error)) *bundleCache {
	return &bundleCache{db: db, bucket: bucket, onErr: onErr, kick: make(chan struct{}, 1), pending: map[string][]byte{}}
}

// Get returns the code cached under key.
func (c *bundleCache) Get(key string) ([]byte, bool) {
	c.mu.Lock()
	v, ok := c.pending[key]
	c.mu.Unlock()
	if ok {
		return v, true
	}
	err := c.db.View(func(tx *store.Tx) error {
		v, ok = tx.GetBytes(c.bucket, key)
		return nil
	})
	if err != nil {
		c.onErr(err)
		return nil, false
	}
	return v, ok
}

// Put caches code under key; run writes it.
func (c *bundleCache) Put(key string, code []byte) {
	c.mu.Lock()
	c.pending[key] = code
	c.mu.Unlock()
	select {
	case c.kick <- struct{}{}:
	default:
	}
}

// writeBehind is how long a bundle may wait in memory: a converge writes
// it sooner, with its switch.
const writeBehind = time.Second

// run writes pending bundles at most writeBehind after they were put,
// until ctx ends, then writes the rest.
func (c *bundleCache) run(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	armed := false
	for {
		select {
		case <-ctx.Done():
			c.flush()
			return
		case <-c.kick:
			if !armed {
				timer.Reset(writeBehind)
				armed = true
			}
		case <-timer.C:
			armed = false
			c.flush()
		}
	}
}

// flush writes what is pending in one transaction.
func (c *bundleCache) flush() {
	if err := c.flushWith(nil); err != nil {
		c.onErr(err)
	}
}

// flushWith writes what is pending in one transaction with also, when set:
// a converge's persisted switch carries the bundles its load made, which
// spares a commit. If that transaction fails, also is tried alone, so a
// cache write never costs the state change.
func (c *bundleCache) flushWith(also func(tx *store.Tx) error) error {
	c.mu.Lock()
	batch := maps.Clone(c.pending)
	c.mu.Unlock()
	if len(batch) == 0 {
		if also == nil {
			return nil
		}
		return c.db.Update(also)
	}
	err := c.db.Update(func(tx *store.Tx) error {
		if also != nil {
			if err := also(tx); err != nil {
				return err
			}
		}
		for k, v := range batch {
			if err := tx.PutBytes(c.bucket, k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		if also == nil {
			return err
		}
		c.onErr(err)
		return c.db.Update(also)
	}
	c.mu.Lock()
	for k, v := range batch {
		if cur, ok := c.pending[k]; ok && bytes.Equal(cur, v) {
			delete(c.pending, k)
		}
	}
	c.mu.Unlock()
	return nil
}
