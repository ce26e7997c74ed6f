package bench

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/executor"
)

// subscriber is a light executor: its own NATS connection doing what an
// executor does with a new desired release before the layout, with the
// executor's own functions: verify the signed pointer and record, fetch the
// content it lacks and check each object's SHA-256. It keeps only the
// digests of the release it holds, not the bytes.
type subscriber struct {
	bus  *events.Bus
	have map[string]bool // touched only by its watch
}

// arrival is one subscriber holding one release, or failing to.
type arrival struct {
	sub     int
	release string
	took    time.Duration // from the pointer's signing (its At) to verified
	err     error
}

// subscribers are the light subscribers of one fleet, spread round-robin
// over the NATS nodes' URLs.
type subscribers struct {
	project  string
	trust    ed25519.PublicKey
	urls     []string
	subs     []*subscriber
	arrivals chan arrival
	retries  atomic.Int64 // tries again after a failure that may pass
	ctx      context.Context
	cancel   context.CancelFunc
	wg       sync.WaitGroup
}

// maxSubscribers sizes the arrivals buffer: no watch blocks on a slow reader.
func newSubscribers(ctx context.Context, project string, trust ed25519.PublicKey, urls []string, maxSubscribers int) *subscribers {
	s := &subscribers{project: project, trust: trust, urls: urls, arrivals: make(chan arrival, 2*maxSubscribers+16)}
	s.ctx, s.cancel = context.WithCancel(ctx)
	return s
}

// add connects n more subscribers and starts their watches; each takes the
// current release at once.
func (s *subscribers) add(n int) error {
	for range n {
		i := len(s.subs)
		bus, err := events.Connect(s.ctx, s.urls[i%len(s.urls)], events.Options{Name: fmt.Sprintf("bench-subscriber %04d", i)})
		if err != nil {
			return fmt.Errorf("connect subscriber %d: %w", i, err)
		}
		sub := &subscriber{bus: bus, have: map[string]bool{}}
		s.subs = append(s.subs, sub)
		s.wg.Go(func() {
			defer bus.Close()
			err := bus.WatchDesired(s.ctx, s.project, func(value []byte, rev uint64) {
				a := s.takeRetrying(sub, value, rev)
				a.sub = i
				select {
				case s.arrivals <- a:
				case <-s.ctx.Done():
				}
			})
			if err != nil && s.ctx.Err() == nil {
				select {
				case s.arrivals <- arrival{sub: i, err: fmt.Errorf("watch: %w", err)}:
				case <-s.ctx.Done():
				}
			}
		})
	}
	return nil
}

// maxTries bounds how often a subscriber tries one release, tryTimeout
// one try: a fetch that hangs is reported, not waited for.
const (
	maxTries   = 8
	tryTimeout = 20 * time.Second
)

// takeRetrying takes a release as converging does: a failure that may pass
// is tried again after the executor's own delays. A damaged content object
// fails at once: in a bench nothing damages the store, so it is a
// verification the run must not pass.
func (s *subscribers) takeRetrying(sub *subscriber, value []byte, rev uint64) arrival {
	var wait time.Duration
	for try := 1; ; try++ {
		ctx, cancel := context.WithTimeout(s.ctx, tryTimeout)
		a := sub.take(ctx, s.trust, s.project, value, rev)
		cancel()
		if a.err == nil || try == maxTries || errors.Is(a.err, executor.ErrDamagedContent) || !executor.Retryable(a.err) {
			return a
		}
		s.retries.Add(1)
		wait = executor.RetryDelay(wait)
		select {
		case <-time.After(wait):
		case <-s.ctx.Done():
			return a
		}
	}
}

// take verifies the release value points at and fetches what it lacks.
func (sub *subscriber) take(ctx context.Context, trust ed25519.PublicKey, project string, value []byte, rev uint64) arrival {
	ptr, rec, _, err := executor.VerifyDesired(ctx, sub.bus, trust, project, value, rev)
	if err != nil {
		return arrival{release: ptr.Release, err: err}
	}
	have := make(map[string]bool, len(rec.Entries))
	for _, d := range executor.MissingDigests(rec, func(d string) bool { return sub.have[d] }) {
		if err := executor.FetchContent(ctx, sub.bus, d, io.Discard); err != nil {
			return arrival{release: rec.ID, err: fmt.Errorf("fetch content %s of release %s: %w", d, rec.ID, err)}
		}
		have[d] = true
	}
	for _, en := range rec.Entries {
		if sub.have[en.Digest] {
			have[en.Digest] = true
		}
	}
	sub.have = have // only the held release's digests: its state stays small
	return arrival{release: rec.ID, took: time.Since(ptr.At)}
}

// wait collects, for each subscriber from index from on, how long after the
// pointer's signing it held release id; a subscriber that failed to verify
// fails the wait. Other arrivals are dropped.
func (s *subscribers) wait(ctx context.Context, id string, from int, timeout time.Duration) ([]time.Duration, error) {
	took := make([]time.Duration, len(s.subs)-from)
	left := len(took)
	deadline := time.After(timeout)
	for left > 0 {
		select {
		case a := <-s.arrivals:
			if a.err != nil {
				return nil, fmt.Errorf("subscriber %d failed on release %s: %w", a.sub, a.release, a.err)
			}
			if a.release == id && a.sub >= from && took[a.sub-from] == 0 {
				took[a.sub-from] = max(a.took, time.Nanosecond)
				left--
			}
		case <-deadline:
			return nil, fmt.Errorf("%d of %d subscribers did not hold release %s within %s", left, len(took), id, timeout)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return took, nil
}

// objectReads sums how the subscribers' connections read objects.
func (s *subscribers) objectReads() events.ObjectReads {
	var r events.ObjectReads
	for _, sub := range s.subs {
		n := sub.bus.ObjectReads()
		r.Direct += n.Direct
		r.Consumer += n.Consumer
	}
	return r
}

// close stops every watch and closes the connections.
func (s *subscribers) close() {
	s.cancel()
	s.wg.Wait()
}
