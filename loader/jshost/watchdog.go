package jshost

import (
	"fmt"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Sampling: often enough that a loop that grows memory is stopped within
// a step or two of its limit (a sample costs about a microsecond), more
// often once a call is past half its limit (a string that doubles takes
// a few milliseconds a step there), and a forced collection at most this
// often while over a limit.
const (
	watchEvery = 10 * time.Millisecond
	watchHot   = 2 * time.Millisecond
	gcEvery    = 50 * time.Millisecond
)

// watchdog holds the calls under the memory limits. goja keeps no account
// per runtime, so it attributes the Go heap's growth by a heuristic:
//
//   - each call's base is the heap when it started (garbage included, so
//     the estimate errs on the lenient side by the garbage of that moment);
//   - a call whose growth (heap - base) is over the call limit is a
//     candidate; when the heap is over the global limit, every call is;
//   - before deciding, a collection drops garbage, unless a call over
//     its limit is running JS right now: a string that doubles would be
//     two steps further by the end of a collection (the price: a call
//     that is running and whose garbage alone passes its limit before the
//     collector runs is stopped too); then of the candidates the one
//     that has run JS the longest is stopped (a runaway allocation runs without pause; a call waiting
//     on fetch or a timer allocates nothing), ties to the oldest;
//   - it waits for that call to end, and only then picks another; once
//     the stopped runtime is thrown away its memory goes back to the OS
//     (freeMemory).
//
// Its limits: calls that run at once share the growth, so two calls that
// each stay under the call limit but together pass it can see the busier
// of them stopped; memory held by Go work a call started (a response body
// being read) counts for the calls running while it grows. Builtins that
// allocate in one Go step are refused before they start (package limits),
// since no interrupt reaches them. Its goroutine runs only while calls do.
type watchdog struct {
	global, call uint64 // heap limits: all calls together, one call's growth
	logger       *slog.Logger

	lastHeap atomic.Uint64 // the last sample, while the goroutine runs

	mu      sync.Mutex
	calls   map[*guard]struct{}
	victim  *guard    // being stopped: no other is picked until it has left
	killed  time.Time // when victim was stopped
	running bool
	wg      sync.WaitGroup
}

// newWatchdog: max bounds the heap of all calls (less one call's room, so
// one more allocation that the call limit allows still fits), call one
// call's growth.
func newWatchdog(max, call uint64, logger *slog.Logger) *watchdog {
	global := max - min(call, max/4)
	return &watchdog{global: global, call: call, logger: logger, calls: map[*guard]struct{}{}}
}

// enter starts watching g. Its base is the watchdog's last sample while
// it runs (a sample per call would cost a trivial call a tenth of its
// time; one at most watchHot..watchEvery old errs by what others
// allocated meanwhile).
func (w *watchdog) enter(g *guard) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.running {
		g.base.Store(w.lastHeap.Load())
	} else {
		h := heapBytes()
		g.base.Store(h)
		w.lastHeap.Store(h)
		w.running = true
		w.wg.Add(1)
		go w.run()
	}
	w.calls[g] = struct{}{}
}

func (w *watchdog) leave(g *guard) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.calls, g)
}

// wait returns once the goroutine has ended (no call runs).
func (w *watchdog) wait() { w.wg.Wait() }

var heapSample = sync.Pool{New: func() any {
	return &[]metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
}}

// heapBytes is the Go heap's objects, live and not yet collected.
func heapBytes() uint64 {
	s := heapSample.Get().(*[]metrics.Sample)
	metrics.Read(*s)
	v := (*s)[0].Value.Uint64()
	heapSample.Put(s)
	return v
}

func (w *watchdog) run() {
	defer w.wg.Done()
	t := time.NewTimer(watchEvery)
	defer t.Stop()
	var lastGC time.Time
	afterStop := false // a call was stopped: its heap may still be in the next samples
	hot := false
	for {
		if hot {
			t.Reset(watchHot)
		} else {
			t.Reset(watchEvery)
		}
		<-t.C
		w.mu.Lock()
		if len(w.calls) == 0 && w.victim == nil {
			w.running = false
			w.mu.Unlock()
			return
		}
		if v := w.victim; v != nil {
			// A victim stuck in a builtin's Go loop is abandoned by its
			// call; others may be picked after a while.
			if _, still := w.calls[v]; still && time.Since(w.killed) < 2*killGrace {
				w.mu.Unlock()
				continue
			}
			w.victim = nil
			w.mu.Unlock()
			afterStop = true
			continue
		}
		calls := make([]*guard, 0, len(w.calls))
		for g := range w.calls {
			calls = append(calls, g)
		}
		w.mu.Unlock()

		h := heapBytes()
		w.lastHeap.Store(h)
		hot = w.hot(calls, h)
		if !w.over(calls, h) {
			continue
		}
		// What is over may be garbage: collect first, unless the growth is
		// so far over that stopping at once matters more (a string that
		// doubles gets there in a few steps).
		if afterStop || !w.far(calls, h) {
			if time.Since(lastGC) < gcEvery {
				continue
			}
			runtime.GC()
			lastGC = time.Now()
			afterStop = false
			h = heapBytes()
		}
		if victim, why := w.pick(calls, h); victim != nil {
			w.mu.Lock()
			if _, still := w.calls[victim]; still {
				w.victim, w.killed = victim, time.Now()
			}
			w.mu.Unlock()
			w.logger.Warn("tool call stopped: memory over the limit", slog.String("tool", victim.tool),
				slog.Uint64("heap_bytes", h), slog.Uint64("call_limit_bytes", w.call), slog.Uint64("limit_bytes", w.global))
			victim.memory.Store(true)
			victim.kill(why)
		}
	}
}

// freeMemory gives a runtime stopped for memory back to the OS, once the
// caller has let go of it: the heap it held is garbage, and the scavenger
// alone would take minutes to return it.
func freeMemory() { go debug.FreeOSMemory() }

// over reports whether a limit is passed at heap h.
func (w *watchdog) over(calls []*guard, h uint64) bool {
	if h > w.global {
		return true
	}
	for _, g := range calls {
		if b := g.base.Load(); h > b && h-b > w.call {
			return true
		}
	}
	return false
}

// far reports whether a call over the call limit is running JS now.
func (w *watchdog) far(calls []*guard, h uint64) bool {
	for _, g := range calls {
		if b := g.base.Load(); h > b && h-b > w.call && g.busySince.Load() != 0 {
			return true
		}
	}
	return false
}

// hot reports whether a call has grown past half the call limit, or the
// heap past half the global one: sample faster.
func (w *watchdog) hot(calls []*guard, h uint64) bool {
	if h > w.global/2 {
		return true
	}
	for _, g := range calls {
		if b := g.base.Load(); h > b && h-b > w.call/2 {
			return true
		}
	}
	return false
}

// pick chooses the call to stop, and why, at heap h (after a collection).
func (w *watchdog) pick(calls []*guard, h uint64) (*guard, error) {
	var cands []*guard
	for _, g := range calls {
		if b := g.base.Load(); h > b && h-b > w.call && !g.isKilled() {
			cands = append(cands, g)
		}
	}
	why := fmt.Errorf("the tool was stopped: it used more than its memory limit of %s; return less data or process it in parts", rt.Bytes(w.call))
	if len(cands) == 0 && h > w.global {
		why = fmt.Errorf("the tool was stopped: the tool host's calls together used more than %s of memory; return less data or process it in parts", rt.Bytes(w.global))
		for _, g := range calls {
			if !g.isKilled() {
				cands = append(cands, g)
			}
		}
	}
	var best *guard
	var bestBusy time.Duration
	for _, g := range cands {
		b := g.busyFor()
		if best == nil || b > bestBusy || (b == bestBusy && g.started.Before(best.started)) {
			best, bestBusy = g, b
		}
	}
	return best, why
}
