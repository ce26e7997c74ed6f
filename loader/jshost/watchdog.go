package jshost

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

const watchEvery = 50 * time.Millisecond

// watchdog samples the heap while JS runs; past the limit it interrupts
// the call that has run longest (the likeliest runaway), waits for it to
// end and the heap to shrink, and only then picks another. Its goroutine
// runs only while calls do.
type watchdog struct {
	limit  uint64
	logger *slog.Logger

	mu      sync.Mutex
	calls   map[*guard]struct{}
	running bool
	wg      sync.WaitGroup
}

func newWatchdog(limit uint64, logger *slog.Logger) *watchdog {
	return &watchdog{limit: limit, logger: logger, calls: map[*guard]struct{}{}}
}

func (w *watchdog) enter(g *guard) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls[g] = struct{}{}
	if !w.running {
		w.running = true
		w.wg.Add(1)
		go w.run()
	}
}

func (w *watchdog) leave(g *guard) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.calls, g)
}

// wait returns once the goroutine has ended (no call runs).
func (w *watchdog) wait() { w.wg.Wait() }

func (w *watchdog) run() {
	defer w.wg.Done()
	t := time.NewTicker(watchEvery)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	heap := func() uint64 {
		metrics.Read(sample)
		return sample[0].Value.Uint64()
	}
	for range t.C {
		w.mu.Lock()
		if len(w.calls) == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		var oldest *guard
		busy := false
		for g := range w.calls {
			if g.isKilled() {
				busy = true
			} else if oldest == nil || g.started.Before(oldest.started) {
				oldest = g
			}
		}
		w.mu.Unlock()
		if busy || oldest == nil || heap() <= w.limit {
			continue
		}
		runtime.GC() // what is left may be garbage of a call already stopped
		if h := heap(); h > w.limit {
			w.logger.Warn("tool call stopped: heap over the limit", slog.Uint64("heap_bytes", h), slog.Uint64("limit_bytes", w.limit))
			oldest.kill(fmt.Errorf("the tool was stopped: the tool host ran out of memory (heap over %d MiB); return less data or process it in parts", w.limit>>20))
		}
	}
}
