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
	// objectCacheSize is each go-git reader's cache of decoded objects; the
	// pack reader has its own (packCacheSize).
	objectCacheSize = 8 * cache.MiByte
)

// Repo reads the objects of one Git repository for builds and content access.
// It is safe for concurrent use: go-git's object storage is not, so Repo
// holds one independent storage per worker and lends them out.
//
// Objects a concurrent `git fetch` adds in a new pack are found: a miss
// re-reads the pack list once before it is reported.
type Repo struct {
	pool     chan *objReader
	storages []*filesystem.Storage
	packs    *packSet
}

// objReader is one worker's readers: the direct pack reader first, go-git's
// storage for everything else.
type objReader struct {
	s  *filesystem.Storage
	pr packReader
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
	repo := &Repo{pool: make(chan *objReader, workers), packs: openPackSet(fsStorage.Filesystem().Root())}
	for range workers {
		s := filesystem.NewStorageWithOptions(fsStorage.Filesystem(), cache.NewObjectLRU(objectCacheSize),
			filesystem.Options{KeepDescriptors: true})
		repo.storages = append(repo.storages, s)
		repo.pool <- &objReader{s: s, pr: packReader{ps: repo.packs}}
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
	errs = append(errs, r.packs.close())
	return errors.Join(errs...)
}

// acquire lends one storage; release must give it back.
func (r *Repo) acquire(ctx context.Context) (*objReader, error) {
	select {
	case s := <-r.pool:
		return s, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (r *Repo) release(o *objReader) { r.pool <- o }

// read returns the bytes of object h of type t, never to be modified: from
// the pack reader when h is in a pack it reads, else (or when the pack
// reader fails on it) through go-git, which also gives the errors.
func (o *objReader) read(t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	p, _, off, ok := o.pr.ps.find(h)
	if !ok {
		// A pack written since the last scan is read directly next time.
		o.pr.ps.refresh()
		p, _, off, ok = o.pr.ps.find(h)
	}
	if ok {
		typ, data, err := o.pr.object(p, off, 0)
		if err == nil && typ == t {
			return data, nil
		}
	}
	return readObject(o.s, t, h)
}

// decoded wraps object bytes for go-git's decoders with the hash already
// known, which spares them hashing the bytes again.
func decoded(t plumbing.ObjectType, h plumbing.Hash, data []byte) plumbing.EncodedObject {
	o := &knownObject{h: h}
	o.SetType(t)
	o.SetSize(int64(len(data)))
	o.Write(data)
	return o
}

type knownObject struct {
	plumbing.MemoryObject
	h plumbing.Hash
}

func (o *knownObject) Hash() plumbing.Hash { return o.h }

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

// readObject returns an object's bytes through go-git.
func readObject(s *filesystem.Storage, t plumbing.ObjectType, h plumbing.Hash) ([]byte, error) {
	o, err := getObject(s, t, h)
	if err != nil {
		return nil, err
	}
	rc, err := o.Reader()
	if err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	defer rc.Close()
	buf := bytes.NewBuffer(make([]byte, 0, o.Size()))
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, fmt.Errorf("read %s %s: %w", t, h, err)
	}
	return buf.Bytes(), nil
}

// OpenBlob returns the content of the blob with Git hash blob (hex).
func (r *Repo) OpenBlob(ctx context.Context, blob string) (io.ReadCloser, error) {
	if !plumbing.IsHash(blob) {
		return nil, fmt.Errorf("open blob %q: not a Git object hash", blob)
	}
	o, err := r.acquire(ctx)
	if err != nil {
		return nil, err
	}
	b, err := o.read(plumbing.BlobObject, plumbing.NewHash(blob))
	r.release(o)
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
