package release

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

// Sizes of the object reader pool.
const (
	// DefaultWorkers caps how many blobs a full build reads and hashes at once.
	DefaultWorkers = 2
	// objectCacheSize is each reader's cache of decoded objects (delta bases).
	objectCacheSize = 32 * cache.MiByte
)

// Repo reads the objects of one Git repository for builds and content access.
// It is safe for concurrent use: go-git's object storage is not, so Repo
// holds one independent storage per worker and lends them out.
//
// Objects a concurrent `git fetch` adds in a new pack are found: a miss
// re-reads the pack list once before it is reported.
type Repo struct {
	pool     chan *filesystem.Storage
	storages []*filesystem.Storage
}

// OpenRepo opens the repository at dir (a work tree with .git, or a bare
// repository) for reading.
func OpenRepo(dir string) (*Repo, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return nil, fmt.Errorf("open repository %s: %w (give the folder that holds .git, or a bare repository)", dir, err)
	}
	fsStorage, ok := r.Storer.(*filesystem.Storage)
	if !ok {
		return nil, fmt.Errorf("open repository %s: storage %T is not on disk", dir, r.Storer)
	}
	workers := min(DefaultWorkers, runtime.GOMAXPROCS(0))
	repo := &Repo{pool: make(chan *filesystem.Storage, workers)}
	for range workers {
		s := filesystem.NewStorageWithOptions(fsStorage.Filesystem(), cache.NewObjectLRU(objectCacheSize),
			filesystem.Options{KeepDescriptors: true})
		repo.storages = append(repo.storages, s)
		repo.pool <- s
	}
	return repo, nil
}

// Close releases the pack files the readers hold open. Nothing may use the
// Repo afterwards.
func (r *Repo) Close() error {
	var errs []error
	for _, s := range r.storages {
		errs = append(errs, s.Close())
	}
	return errors.Join(errs...)
}

// acquire lends one storage; release must give it back.
func (r *Repo) acquire(ctx context.Context) (*filesystem.Storage, error) {
	select {
	case s := <-r.pool:
		return s, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *Repo) release(s *filesystem.Storage) { r.pool <- s }

// getObject reads one object, re-reading the pack list once on a miss so
// packs fetched after the Repo was opened are seen.
func getObject(s *filesystem.Storage, t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	o, err := s.EncodedObject(t, h)
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		s.Reindex()
		o, err = s.EncodedObject(t, h)
	}
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	return o, nil
}

// readBlob returns a blob's bytes.
func readBlob(s *filesystem.Storage, h plumbing.Hash) ([]byte, error) {
	o, err := getObject(s, plumbing.BlobObject, h)
	if err != nil {
		return nil, err
	}
	rc, err := o.Reader()
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, o.Size()))
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, fmt.Errorf("read blob %s: %w", h, err)
	}
	return buf.Bytes(), nil
}

// OpenBlob returns the content of the blob with Git hash blob (hex).
func (r *Repo) OpenBlob(ctx context.Context, blob string) (io.ReadCloser, error) {
	if !plumbing.IsHash(blob) {
		return nil, fmt.Errorf("open blob %q: not a Git object hash", blob)
	}
	s, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	b, err := readBlob(s, plumbing.NewHash(blob))
	r.release(s)
	if err != nil {
		return nil, err
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// ContentOpener returns a function that opens the content of a content
// digest (sha256 hex) among entries, reading the blob from the repository.
// Its signature is WriteTree's; the controller uses it to upload the digests
// the object store lacks.
func (r *Repo) ContentOpener(ctx context.Context, entries []Entry) func(digest string) (io.ReadCloser, error) {
	blobs := make(map[string]string, len(entries))
	for _, e := range entries {
		blobs[e.Digest] = e.Blob
	}
	return func(digest string) (io.ReadCloser, error) {
		blob, ok := blobs[digest]
		if !ok {
			return nil, fmt.Errorf("open content %s: no entry of this release has that digest", digest)
		}
		return r.OpenBlob(ctx, blob)
	}
}
