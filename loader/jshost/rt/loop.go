package rt

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// Loop is a runtime's event loop. JS runs only on the goroutine that holds
// the runtime; timers and Go work (fetch) post jobs that this goroutine
// runs while it awaits a promise. Jobs of an ended call are dropped (gen).
//
// Bindings use Generation, Post, Context, SetTimer and ClearTimer; Wake,
// Run and Reset are the core's, which drives the loop through a call.
type Loop struct {
	mu   sync.Mutex
	jobs []job
	gen  uint64
	wake chan struct{}

	// Owned by the goroutine running JS.
	timers  map[int64]*time.Timer
	nextID  int64
	ctx     context.Context // the current call; Go work started by JS ends with it
	cancel  context.CancelFunc
	stopped <-chan struct{} // closed when the host stops the current work (SetStopped)
	// uncaught reports an exception a timer's callback threw (set by
	// NewRuntime: it logs, with the tool's name).
	uncaught func(where string, err *goja.Exception)
}

// job is queued work; a timer's carries the time it was due.
type job struct {
	fn  func() error
	due time.Time // zero for work that is not a timer
}

func newLoop() *Loop {
	l := &Loop{wake: make(chan struct{}, 1), timers: map[int64]*time.Timer{}}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// Post queues fn for the call of generation gen (Generation, read on the
// loop's goroutine when the work started); false if that call ended and fn
// was dropped. Safe from any goroutine.
func (l *Loop) Post(gen uint64, fn func() error) bool {
	return l.post(gen, job{fn: fn})
}

func (l *Loop) post(gen uint64, j job) bool {
	l.mu.Lock()
	if gen != l.gen {
		l.mu.Unlock()
		return false
	}
	l.jobs = append(l.jobs, j)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

// Generation identifies the current call; Post drops jobs of another one.
func (l *Loop) Generation() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// Context is the current call's: Go work started by JS ends with it (it
// is canceled when the call ends, whatever the reason). Read it on the
// loop's goroutine.
func (l *Loop) Context() context.Context { return l.ctx }

// SetStopped is the core's: ch closes when the host stops the work now
// running (its deadline, the memory limit), before it interrupts the VM.
func (l *Loop) SetStopped(ch <-chan struct{}) { l.stopped = ch }

// Stopped closes when the host stops the current load or call; a binding
// that must block (Bun.sleepSync) returns when it does, and the pending
// interrupt then ends the work. nil when no work is guarded. Read it on
// the loop's goroutine.
func (l *Loop) Stopped() <-chan struct{} { return l.stopped }

// Wake receives when jobs are queued.
func (l *Loop) Wake() <-chan struct{} { return l.wake }

// Run runs the queued jobs; an uncatchable error (interrupt) ends it.
func (l *Loop) Run() error {
	for {
		l.mu.Lock()
		jobs := l.jobs
		l.jobs = nil
		l.mu.Unlock()
		if len(jobs) == 0 {
			return nil
		}
		byDue(jobs)
		for _, j := range jobs {
			if err := j.fn(); err != nil {
				return err
			}
		}
	}
}

// Reset ends the current call's async work: timers stop, queued and late
// jobs are dropped, and Go work started by JS is canceled.
func (l *Loop) Reset() {
	l.mu.Lock()
	l.gen++
	l.jobs = nil
	l.mu.Unlock()
	for id, t := range l.timers {
		if t != nil {
			t.Stop()
		}
		delete(l.timers, id)
	}
	l.cancel()
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.stopped = nil
}

// MaxTimers is how many timers one call may have pending: each is a Go
// timer and a job, and 100,000 of them firing would keep the loop busy
// past any deadline.
const MaxTimers = 10000

// Pending is the number of timers pending (set and not yet fired or
// cleared).
func (l *Loop) Pending() int { return len(l.timers) }

// SetTimer schedules fn(args...) on the loop after delay; repeat makes it
// an interval. It answers the timer's id for ClearTimer.
func (l *Loop) SetTimer(fn goja.Callable, delay time.Duration, repeat bool, args []goja.Value) int64 {
	l.nextID++
	id := l.nextID
	gen := l.Generation()
	due := time.Now().Add(max(delay, time.Millisecond))
	var fire func()
	fire = func() {
		l.post(gen, job{due: due, fn: func() error {
			if _, ok := l.timers[id]; !ok {
				return nil
			}
			if repeat {
				due = time.Now().Add(max(delay, time.Millisecond))
				l.timers[id] = time.AfterFunc(max(delay, time.Millisecond), fire)
			} else {
				delete(l.timers, id)
			}
			_, err := fn(goja.Undefined(), args...)
			if ex, ok := err.(*goja.Exception); ok && l.uncaught != nil {
				l.uncaught("a timer's callback", ex)
			}
			return Uncatchable(err)
		}})
	}
	if delay <= 0 && !repeat {
		l.timers[id] = nil // due now: no Go timer, just a job
		fire()
		return id
	}
	l.timers[id] = time.AfterFunc(max(delay, time.Millisecond), fire)
	return id
}

// ClearTimer stops the timer id; an unknown id is ignored.
func (l *Loop) ClearTimer(id int64) {
	if t, ok := l.timers[id]; ok {
		if t != nil {
			t.Stop()
		}
		delete(l.timers, id)
	}
}

// Uncatchable keeps the errors that must end the call (interrupts, stack
// overflow); an exception thrown in a callback is the callback's business.
// A job that calls JS returns Uncatchable of that call's error.
func Uncatchable(err error) error {
	switch err.(type) {
	case nil, *goja.Exception:
		return nil
	}
	return err
}

// byDue orders the timers of one batch of jobs by the time each was due,
// in the slots timers hold (other jobs keep their places): timers whose Go
// timers fired out of order (a 2 ms one that fired while a 0 ms one was
// being set, on a loaded machine) run as Node runs them, earliest due
// first, in the order they were set when due together.
func byDue(jobs []job) {
	var slots []int
	for i, j := range jobs {
		if !j.due.IsZero() {
			slots = append(slots, i)
		}
	}
	if len(slots) < 2 {
		return
	}
	timers := make([]job, len(slots))
	for k, i := range slots {
		timers[k] = jobs[i]
	}
	slices.SortStableFunc(timers, func(a, b job) int { return a.due.Compare(b.due) })
	for k, i := range slots {
		jobs[i] = timers[k]
	}
}
