// Package store is the bbolt state of the controller and of the executor: a
// small key-value layer with JSON values, one transaction per state change.
// It knows nothing of what it stores.
package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	bolt "go.etcd.io/bbolt"
	bolterrors "go.etcd.io/bbolt/errors"
)

// DefaultOpenTimeout is how long Open waits for another process's lock.
const DefaultOpenTimeout = time.Second

// ErrLocked: another process has the database open.
var ErrLocked = errors.New("database is locked by another process")

// ErrCorrupt: bbolt found the file damaged (or panicked reading it).
var ErrCorrupt = errors.New("state database is corrupt")

// DB is an open state database. It is safe for concurrent use; bbolt allows
// one writer and many readers at a time.
type DB struct {
	db        *bolt.DB
	path      string
	movedTo   string // where a corrupt file was moved aside at Open
	corruptBy error  // what was wrong with it
}

// Open opens (creating it and its folder if missing) the database at path.
//
// A damaged file never stops a start: one that bbolt refuses, panics on,
// or whose every page does not pass bbolt's consistency check is moved
// aside as <path>.corrupt-<unix time> and an empty database is made in its
// place. Recovered then names the moved file; the owner logs it and
// rebuilds its state (executors and controllers from NATS).
func Open(path string) (*DB, error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open state database: create folder %s: %w (pass a writable --data folder)", dir, err)
	}
	db, err := openChecked(path)
	if errors.Is(err, bolterrors.ErrTimeout) {
		return nil, fmt.Errorf("open state database %s: %w after %s (is another beeuni using %s? stop it or pass another --data)", path, ErrLocked, DefaultOpenTimeout, dir)
	}
	if !errors.Is(err, ErrCorrupt) {
		if err != nil {
			return nil, fmt.Errorf("open state database %s: %w", path, err)
		}
		return &DB{db: db, path: path}, nil
	}
	aside := fmt.Sprintf("%s.corrupt-%d", path, time.Now().Unix())
	if rerr := os.Rename(path, aside); rerr != nil {
		return nil, fmt.Errorf("open state database %s: %w; moving it aside failed: %w (move it away by hand)", path, err, rerr)
	}
	fresh, err2 := openChecked(path)
	if err2 != nil {
		return nil, fmt.Errorf("open state database %s: a new one after moving the corrupt one to %s: %w", path, aside, err2)
	}
	return &DB{db: fresh, path: path, movedTo: aside, corruptBy: err}, nil
}

// openChecked opens path with bbolt and checks every page; damage, bbolt's
// own refusals and panics come back as ErrCorrupt.
func openChecked(path string) (db *bolt.DB, err error) {
	defer func() {
		if r := recover(); r != nil {
			db, err = nil, fmt.Errorf("%w: bbolt panicked opening it: %v", ErrCorrupt, r)
		}
	}()
	db, err = bolt.Open(path, 0o600, &bolt.Options{Timeout: DefaultOpenTimeout})
	switch {
	case errors.Is(err, bolterrors.ErrInvalid), errors.Is(err, bolterrors.ErrChecksum), errors.Is(err, bolterrors.ErrVersionMismatch):
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	case err != nil:
		return nil, err
	}
	var problems []error
	err = db.View(func(tx *bolt.Tx) error {
		for e := range tx.Check() {
			if len(problems) < 3 {
				problems = append(problems, e)
			}
		}
		return nil
	})
	if err == nil && len(problems) > 0 {
		err = errors.Join(problems...)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%w: %w", ErrCorrupt, err)
	}
	return db, nil
}

// Recovered names the file Open moved aside because it was corrupt, and
// why; "" when the file was sound (or new).
func (d *DB) Recovered() (movedTo string, why error) { return d.movedTo, d.corruptBy }

// Path is the database file.
func (d *DB) Path() string { return d.path }

// Close closes the database, waiting for open transactions to end.
func (d *DB) Close() error {
	if err := d.db.Close(); err != nil {
		return fmt.Errorf("close state database %s: %w", d.path, err)
	}
	return nil
}

// Update runs fn in one read-write transaction, committed when fn returns
// nil and rolled back otherwise. Buckets are created as fn writes to them.
// A panic of bbolt's (a page damaged since Open) is an ErrCorrupt error.
func (d *DB) Update(fn func(tx *Tx) error) (err error) {
	defer d.recoverCorrupt(&err)
	return d.db.Update(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx}) })
}

// View runs fn in a read-only transaction that sees one consistent state.
// A panic of bbolt's is an ErrCorrupt error.
func (d *DB) View(fn func(tx *Tx) error) (err error) {
	defer d.recoverCorrupt(&err)
	return d.db.View(func(btx *bolt.Tx) error { return fn(&Tx{tx: btx}) })
}

func (d *DB) recoverCorrupt(err *error) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("%w: %s: a transaction panicked: %v (a restart moves a damaged file aside)", ErrCorrupt, d.path, r)
	}
}

// Tx is a transaction; use it only inside the function given it.
type Tx struct {
	tx *bolt.Tx
}

func (t *Tx) bucket(name string) *bolt.Bucket { return t.tx.Bucket([]byte(name)) }

func (t *Tx) writeBucket(name string) (*bolt.Bucket, error) {
	if !t.tx.Writable() {
		return nil, fmt.Errorf("write to bucket %s in a read-only transaction (use Update)", name)
	}
	b, err := t.tx.CreateBucketIfNotExists([]byte(name))
	if err != nil {
		return nil, fmt.Errorf("create bucket %q: %w", name, err)
	}
	return b, nil
}

// Put stores v as JSON under key in bucket.
func (t *Tx) Put(bucket, key string, v any) error {
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("store %s/%s: encode %T: %w", bucket, key, v, err)
	}
	return t.PutBytes(bucket, key, raw)
}

// Get decodes the JSON under key in bucket into v; found is false (and v
// untouched) when there is none.
func (t *Tx) Get(bucket, key string, v any) (found bool, err error) {
	raw, ok := t.get(bucket, key)
	if !ok {
		return false, nil
	}
	if err := json.Unmarshal(raw, v); err != nil {
		return true, fmt.Errorf("read %s/%s: decode into %T: %w", bucket, key, v, err)
	}
	return true, nil
}

// PutBytes stores raw under key in bucket.
func (t *Tx) PutBytes(bucket, key string, raw []byte) error {
	if key == "" {
		return fmt.Errorf("store in %s: empty key", bucket)
	}
	b, err := t.writeBucket(bucket)
	if err != nil {
		return err
	}
	if err := b.Put([]byte(key), raw); err != nil {
		return fmt.Errorf("store %s/%s: %w", bucket, key, err)
	}
	return nil
}

// GetBytes returns a copy of the value under key in bucket.
func (t *Tx) GetBytes(bucket, key string) ([]byte, bool) {
	raw, ok := t.get(bucket, key)
	if !ok {
		return nil, false
	}
	return append([]byte(nil), raw...), true
}

// get returns bbolt's own memory, valid until the transaction ends.
func (t *Tx) get(bucket, key string) ([]byte, bool) {
	b := t.bucket(bucket)
	if b == nil || key == "" {
		return nil, false
	}
	raw := b.Get([]byte(key))
	return raw, raw != nil
}

// Delete removes key from bucket; a missing key or bucket is no error.
func (t *Tx) Delete(bucket, key string) error {
	if !t.tx.Writable() {
		return fmt.Errorf("delete %s/%s in a read-only transaction (use Update)", bucket, key)
	}
	b := t.bucket(bucket)
	if b == nil || key == "" {
		return nil
	}
	if err := b.Delete([]byte(key)); err != nil {
		return fmt.Errorf("delete %s/%s: %w", bucket, key, err)
	}
	return nil
}

// List calls fn for each key of bucket in byte order. raw is valid only
// during the call (copy it to keep it). An error from fn stops the walk and
// is returned.
func (t *Tx) List(bucket string, fn func(key string, raw []byte) error) error {
	return t.ListPrefix(bucket, "", fn)
}

// ListPrefix is List restricted to the keys that start with prefix.
func (t *Tx) ListPrefix(bucket, prefix string, fn func(key string, raw []byte) error) error {
	b := t.bucket(bucket)
	if b == nil {
		return nil
	}
	c := b.Cursor()
	p := []byte(prefix)
	for k, v := c.Seek(p); k != nil && len(k) >= len(p) && string(k[:len(p)]) == prefix; k, v = c.Next() {
		if v == nil {
			continue // a nested bucket, which this layer never makes
		}
		if err := fn(string(k), v); err != nil {
			return err
		}
	}
	return nil
}

// NextSeq returns the next number of bucket's sequence (1, 2, ...). It is
// committed with the transaction, so a rolled-back one reuses the number.
func (t *Tx) NextSeq(bucket string) (uint64, error) {
	b, err := t.writeBucket(bucket)
	if err != nil {
		return 0, err
	}
	n, err := b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("next sequence of %s: %w", bucket, err)
	}
	return n, nil
}

// SeqKey formats n so that keys sort in numeric order (for List).
func SeqKey(n uint64) string {
	return fmt.Sprintf("%020d", n)
}
