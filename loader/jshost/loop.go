package jshost

import (
	"context"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// loop is a runtime's event loop. JS runs only on the goroutine that holds
// the worker; timers and Go work (fetch) post jobs that this goroutine runs
// while it awaits a promise. Jobs of an ended call are dropped (gen).
type loop struct {
	vm *goja.Runtime

	mu   sync.Mutex
	jobs []func() error
	gen  uint64
	wake chan struct{}

	// Owned by the goroutine running JS.
	timers map[int64]*time.Timer
	nextID int64
	ctx    context.Context // the current call; Go work started by JS ends with it
	cancel context.CancelFunc
}

func newLoop(vm *goja.Runtime) *loop {
	l := &loop{vm: vm, wake: make(chan struct{}, 1), timers: map[int64]*time.Timer{}}
	l.ctx, l.cancel = context.WithCancel(context.Background())
	return l
}

// post queues fn for the call of generation gen; false if that call ended.
func (l *loop) post(gen uint64, fn func() error) bool {
	l.mu.Lock()
	if gen != l.gen {
		l.mu.Unlock()
		return false
	}
	l.jobs = append(l.jobs, fn)
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return true
}

func (l *loop) generation() uint64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.gen
}

// run runs the queued jobs; an uncatchable error (interrupt) ends it.
func (l *loop) run() error {
	for {
		l.mu.Lock()
		jobs := l.jobs
		l.jobs = nil
		l.mu.Unlock()
		if len(jobs) == 0 {
			return nil
		}
		for _, j := range jobs {
			if err := j(); err != nil {
				return err
			}
		}
	}
}

// reset ends the current call's async work: timers stop, queued and late
// jobs are dropped, and Go work started by JS is canceled.
func (l *loop) reset() {
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
}

// setTimer schedules fn; repeat makes it an interval.
func (l *loop) setTimer(fn goja.Callable, delay time.Duration, repeat bool, args []goja.Value) int64 {
	l.nextID++
	id := l.nextID
	gen := l.generation()
	var fire func()
	fire = func() {
		l.post(gen, func() error {
			if _, ok := l.timers[id]; !ok {
				return nil
			}
			if repeat {
				l.timers[id] = time.AfterFunc(max(delay, time.Millisecond), fire)
			} else {
				delete(l.timers, id)
			}
			_, err := fn(goja.Undefined(), args...)
			return uncatchable(err)
		})
	}
	if delay <= 0 && !repeat {
		l.timers[id] = nil // due now: no Go timer, just a job
		fire()
		return id
	}
	l.timers[id] = time.AfterFunc(max(delay, time.Millisecond), fire)
	return id
}

func (l *loop) clearTimer(id int64) {
	if t, ok := l.timers[id]; ok {
		if t != nil {
			t.Stop()
		}
		delete(l.timers, id)
	}
}

// uncatchable keeps the errors that must end the call (interrupts, stack
// overflow); an exception thrown in a callback is the callback's business.
func uncatchable(err error) error {
	switch err.(type) {
	case nil, *goja.Exception:
		return nil
	}
	return err
}

// timers installs setTimeout, setInterval, setImmediate and their clears.
func (w *worker) installTimers() {
	vm, l := w.vm, w.loop
	set := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(c.Argument(0))
			if !ok {
				panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
			}
			ms := c.Argument(1).ToFloat()
			if ms != ms || ms < 0 {
				ms = 0
			}
			var args []goja.Value
			if len(c.Arguments) > 2 {
				args = append(args, c.Arguments[2:]...)
			}
			return vm.ToValue(l.setTimer(fn, time.Duration(ms*float64(time.Millisecond)), repeat, args))
		}
	}
	clearT := func(c goja.FunctionCall) goja.Value {
		if v := c.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
			l.clearTimer(v.ToInteger())
		}
		return goja.Undefined()
	}
	_ = vm.Set("setTimeout", set(false))
	_ = vm.Set("setInterval", set(true))
	_ = vm.Set("setImmediate", func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
		}
		var args []goja.Value
		if len(c.Arguments) > 1 {
			args = append(args, c.Arguments[1:]...)
		}
		return vm.ToValue(l.setTimer(fn, 0, false, args))
	})
	_ = vm.Set("clearTimeout", clearT)
	_ = vm.Set("clearInterval", clearT)
	_ = vm.Set("clearImmediate", clearT)
}
