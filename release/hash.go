package release

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"sync"

	"github.com/go-git/go-git/v5/plumbing"
)

// A read job covers at most this many objects and bytes of one pack: small
// enough to share the work evenly between the workers, large enough that
// one read serves many objects.
const (
	maxJobObjects = 64
	maxJobBytes   = 256 << 10
)

// readJob is a run of blobs read together: [from, to) of pack p holds all
// of them. A job without a pack reads its blobs one by one.
type readJob struct {
	p        *packFile
	from, to int64
	items    []blobRead
}

type blobRead struct {
	h   plumbing.Hash
	p   *packFile // nil when not in a pack the pack reader knows
	pi  int
	off int64
}

// planReads orders the blobs by pack and offset, so each job reads one
// stretch of a pack, and a delta's base (stored before it) was usually
// decoded just before it and is in the cache.
func planReads(ps *packSet, pending map[plumbing.Hash][]int) []readJob {
	items := make([]blobRead, 0, len(pending))
	var jobs []readJob
	for h := range pending {
		p, pi, off, ok := ps.find(h)
		if !ok {
			jobs = append(jobs, readJob{items: []blobRead{{h: h}}})
			continue
		}
		items = append(items, blobRead{h: h, p: p, pi: pi, off: off})
	}
	slices.SortFunc(items, func(a, b blobRead) int { return cmp.Or(cmp.Compare(a.pi, b.pi), cmp.Compare(a.off, b.off)) })
	for len(items) > 0 {
		first := items[0]
		end, ok := first.p.end(first.off)
		if !ok || end-first.off > maxJobBytes {
			jobs = append(jobs, readJob{items: items[:1:1]})
			items = items[1:]
			continue
		}
		n := 1
		for n < len(items) && n < maxJobObjects && items[n].p == first.p {
			e, ok := first.p.end(items[n].off)
			if !ok || e-first.off > maxJobBytes {
				break
			}
			end = e
			n++
		}
		jobs = append(jobs, readJob{p: first.p, from: first.off, to: end, items: items[:n:n]})
		items = items[n:]
	}
	return jobs
}

// blob returns a planned blob's bytes (never to be modified).
func (o *objReader) blob(it blobRead) ([]byte, error) {
	if it.p == nil {
		return o.read(plumbing.BlobObject, it.h)
	}
	typ, data, err := o.pr.object(it.p, it.off, 0)
	if err == nil && typ == plumbing.BlobObject {
		return data, nil
	}
	return readObject(o.s, plumbing.BlobObject, it.h)
}

// hashPending reads and hashes the queued blobs on the Repo's workers.
func (r *Repo) hashPending(ctx context.Context, b *builder) error {
	if len(b.pending) == 0 {
		return nil
	}
	plan := planReads(r.packs, b.pending)
	jobs := make(chan readJob)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex // guards firstErr and symlink findings
		firstErr error
	)
	fail := func(err error) {
		mu.Lock()
		if firstErr == nil {
			firstErr = err
		}
		mu.Unlock()
		cancel()
	}
	for range cap(r.pool) {
		wg.Go(func() {
			o, err := r.acquire(ctx)
			if err != nil {
				fail(err)
				return
			}
			defer r.release(o)
			defer o.pr.dropChunk()
			for j := range jobs {
				if j.p != nil {
					// On a failed read each blob is read on its own.
					_ = o.pr.loadChunk(j.p, j.from, j.to)
				}
				for _, it := range j.items {
					content, err := o.blob(it)
					if err != nil {
						fail(err)
						return
					}
					b.hashed(it.h, content, &mu)
				}
			}
		})
	}
feed:
	for _, j := range plan {
		select {
		case jobs <- j:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	if firstErr != nil {
		return firstErr
	}
	return ctx.Err()
}

// hashed fills in the entries of blob h. Each blob's slots are written by
// one worker only; mu guards the findings.
func (b *builder) hashed(h plumbing.Hash, content []byte, mu *sync.Mutex) {
	sum := sha256.Sum256(content)
	digest := hex.EncodeToString(sum[:])
	for _, i := range b.pending[h] {
		e := &b.entries[i]
		e.Size, e.Digest = int64(len(content)), digest
		if e.Mode == ModeSymlink {
			if f, bad := linkFinding(e.Path, content); bad {
				mu.Lock()
				b.findings = append(b.findings, f)
				mu.Unlock()
				e.Mode = "" // dropped in finish
			}
		}
	}
}

// linkFinding is the error of a symlink whose target leaves the tree; a
// build and a work tree's check (OpenWorktree) both judge links by it.
func linkFinding(linkPath string, target []byte) (Finding, bool) {
	if err := CheckLinkTarget(linkPath, string(target)); err != nil {
		return Finding{File: linkPath, Severity: SeverityError, Message: err.Error()}, true
	}
	return Finding{}, false
}
