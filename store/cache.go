package store

// BundleCache keeps bundled modules in a bucket across restarts. It is the
// bundle cache interface of loader/bundle: Get(key) ([]byte, bool) and
// Put(key, code).
type BundleCache struct {
	db     *DB
	bucket string
	onErr  func(error)
}

// BundleCache returns a cache on bucket. Failed reads and writes are not
// fatal (a miss only costs a rebundle); OnError reports them.
func (d *DB) BundleCache(bucket string) *BundleCache {
	return &BundleCache{db: d, bucket: bucket, onErr: func(error) {}}
}

// OnError sets the function told of failed cache reads and writes (to log
// them) and returns c. Call it before the cache is shared.
func (c *BundleCache) OnError(fn func(error)) *BundleCache {
	if fn != nil {
		c.onErr = fn
	}
	return c
}

// Get returns the code cached under key.
func (c *BundleCache) Get(key string) ([]byte, bool) {
	var code []byte
	var ok bool
	if err := c.db.View(func(tx *Tx) error {
		code, ok = tx.GetBytes(c.bucket, key)
		return nil
	}); err != nil {
		c.onErr(err)
		return nil, false
	}
	return code, ok
}

// Put caches code under key, in a transaction of its own.
func (c *BundleCache) Put(key string, code []byte) {
	if err := c.db.Update(func(tx *Tx) error { return tx.PutBytes(c.bucket, key, code) }); err != nil {
		c.onErr(err)
	}
}
