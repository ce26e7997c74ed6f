package executor

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// fetchWorkers bounds the content fetched from NATS at once.
const fetchWorkers = 8

// prefetch fetches the content rec needs that the cache lacks, a few at a
// time, so the layout finds it all in the cache.
func (e *Executor) prefetch(ctx context.Context, rec *release.Record) error {
	missing := MissingDigests(rec, func(d string) bool {
		_, err := os.Lstat(e.cachePath(d))
		return err == nil
	})
	if len(missing) == 0 {
		return nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	work := make(chan string)
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
	)
	workers := min(fetchWorkers, len(missing))
	if e.cfg.Failpoint != nil {
		// One at a time: a crash test holding the "fetch" step holds the
		// fetching, with the rest of the content not fetched yet.
		workers = 1
	}
	for range workers {
		wg.Go(func() {
			for d := range work {
				if err := e.fetch(ctx, d, e.cachePath(d)); err != nil {
					once.Do(func() { first = err; cancel() })
					continue
				}
				e.failpoint("fetch")
			}
		})
	}
feed:
	for _, d := range missing {
		select {
		case work <- d:
		case <-ctx.Done():
			break feed
		}
	}
	close(work)
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	if first != nil {
		return fmt.Errorf("lay out release %s: %w", rec.ID, first)
	}
	return nil
}

func (e *Executor) cachePath(digest string) string {
	return filepath.Join(casDir(e.cfg.DataDir), digest)
}

// cached names the cache file of digest for WriteTreeWith to hard-link: it
// was verified and fsynced by fetch, which made it read-only.
func (e *Executor) cached(digest string) (string, bool) {
	if events.CheckDigest(digest) != nil {
		return "", false
	}
	return e.cachePath(digest), true
}

// opener serves content from the local content-addressed cache, fetching
// only what it lacks from NATS; WriteTree verifies every file it copies.
func (e *Executor) opener(ctx context.Context) func(digest string) (io.ReadCloser, error) {
	return func(digest string) (io.ReadCloser, error) {
		if err := events.CheckDigest(digest); err != nil {
			return nil, err
		}
		p := e.cachePath(digest)
		if f, err := os.Open(p); err == nil {
			return f, nil
		}
		if err := e.fetch(ctx, digest, p); err != nil {
			return nil, err
		}
		e.failpoint("fetch")
		return os.Open(p)
	}
}

// fetch downloads one digest into the cache atomically, checking its hash.
// The file is read-only and fsynced before it gets its name: layouts
// hard-link it, trusting both.
func (e *Executor) fetch(ctx context.Context, digest, dst string) error {
	tmp, err := os.CreateTemp(filepath.Dir(dst), ".fetch-*")
	if err != nil {
		return fmt.Errorf("fetch %s: %w", digest, err)
	}
	defer os.Remove(tmp.Name())
	bus := e.bus.Load()
	if bus == nil {
		tmp.Close()
		return fmt.Errorf("fetch %s: %w", digest, errNoNATS)
	}
	err = FetchContent(ctx, bus, digest, tmp)
	if err == nil {
		err = tmp.Chmod(0o444)
	}
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("fetch %s: %w", digest, err)
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return err
	}
	if fi, err := os.Stat(dst); err == nil {
		e.cacheMetrics.bytes.Add(float64(fi.Size()))
	}
	return nil
}
