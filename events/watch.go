package events

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// stopDrainTimeout bounds how long a stopped watch is drained; see stopWatch.
const stopDrainTimeout = 2 * time.Second

var errWatchEnded = errors.New("KV watch ended")

// kvWatch describes one resilient watch of a KV bucket.
type kvWatch struct {
	bucket string
	key    string // a key or a pattern such as "proj.*"
	opts   []jetstream.WatchOpt
	// begin runs before each (re)started watch delivers its initial values.
	begin func()
	// entry receives each entry; nil marks the end of the initial values.
	entry func(jetstream.KeyValueEntry)
	// stale reports whether the watch missed an update and must restart; it
	// is the safety net behind restarting on reconnect.
	stale func(ctx context.Context, kv jetstream.KeyValue) bool
}

// runWatch keeps w running until ctx ends. A watch restarts when the
// connection reconnects (the server may have restarted and lost the
// ephemeral consumer), when it ends, and when stale says so. Callbacks run on
// the caller's goroutine, one at a time.
func (b *Bus) runWatch(ctx context.Context, w kvWatch) error {
	// Stopping a watch deletes its consumer, which waits out a request
	// timeout when that consumer's server is gone; the next watch need not
	// wait for it, but runWatch does before it returns.
	var stops sync.WaitGroup
	defer stops.Wait()
	failures := 0
	for {
		if ctx.Err() != nil {
			return nil
		}
		err := b.watchOnce(ctx, w, &stops)
		if ctx.Err() != nil {
			return nil
		}
		if err == nil {
			failures = 0
			continue
		}
		failures++
		wait := backoff(failures, DefaultReconnectWait, DefaultMaxReconnect)
		b.log.Warn("kv watch failed, retrying", "bucket", w.bucket, "key", w.key, "err", err.Error()+hint(err), "retry_in", wait)
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil
		case <-t.C:
		}
	}
}

// watchOnce runs one watch; nil means "restart now".
func (b *Bus) watchOnce(ctx context.Context, w kvWatch, stops *sync.WaitGroup) error {
	kv, err := b.kv(ctx, w.bucket)
	if err != nil {
		return err
	}
	reconn := b.reconnected() // taken before the watch starts so no reconnect is missed
	kw, err := kv.Watch(ctx, w.key, w.opts...)
	if err != nil {
		return err
	}
	defer stops.Go(func() { stopWatch(kw) })
	if w.begin != nil {
		w.begin()
	}
	tick := time.NewTicker(b.resync)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-reconn:
			return nil
		case e, ok := <-kw.Updates():
			if !ok {
				return errWatchEnded
			}
			w.entry(e)
		case <-tick.C:
			if w.stale != nil && b.checkStale(ctx, kv, w.stale) {
				b.log.Info("kv watch missed an update, restarting", "bucket", w.bucket, "key", w.key)
				return nil
			}
		}
	}
}

// stopWatch unsubscribes and drains the updates channel: the library's
// message callback blocks on a full channel, and its subscription only
// finishes (closing the channel) once that send returns.
func stopWatch(kw jetstream.KeyWatcher) {
	_ = kw.Stop()
	t := time.NewTimer(stopDrainTimeout)
	defer t.Stop()
	for {
		select {
		case _, ok := <-kw.Updates():
			if !ok {
				return
			}
		case <-t.C:
			return
		}
	}
}

// checkStale runs stale with a deadline, so a check sent while a stream
// elects a leader cannot hold up the updates behind it.
func (b *Bus) checkStale(ctx context.Context, kv jetstream.KeyValue, stale func(context.Context, jetstream.KeyValue) bool) bool {
	ctx, cancel := context.WithTimeout(ctx, min(b.resync, b.js.Options().DefaultTimeout))
	defer cancel()
	return stale(ctx, kv)
}
