package jshost

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/ecma"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// worker is one goja runtime with a tool's module evaluated in it. It is
// used by one goroutine at a time (the pool hands it out) and thrown away
// once interrupted.
type worker struct {
	h             *host
	tool          string
	mod           *module
	vm            *goja.Runtime
	rt            *rt.Runtime   // the platforms' bindings and the event loop
	ns, def       goja.Value    // the module namespace (module.exports) and its default export
	export        *goja.Object  // def when it is an object
	execute       goja.Callable // export.execute when it is a function
	oc            *opencodeTool // the opencode form (legacy folder only), else nil
	ocJS          *goja.Object  // js/opencode.js's helpers, once a legacy module needs them
	parseArgs     goja.Callable // the module's parseArgs, nil when it exports none
	json          *ecma.Parser  // the host parses arguments with it, outside the limits
	jsonStringify goja.Callable
	abortCtor     goja.Value    // the web platform's AbortController, once a call needs it
	lazySet       [2]goja.Value // setters of context.env and context.signal
	lastStr       lastStrings   // the context's strings of the last call

	// JS runs on the worker's own goroutine, handed work through jobs:
	// the caller can answer without it when it is stuck in a builtin, and
	// its stack grows to what goja needs once (a goroutine per call grew
	// it at every call: half a trivial call's time).
	jobs      chan func()
	discarded sync.Once
}

// guard ends one piece of JS work from outside: kill interrupts the
// runtime and wakes a loop waiting for a promise. Once finished, kill is a
// no-op, so an interrupt never leaks into the runtime's next call. It
// keeps what the watchdog attributes memory by: the heap the work started
// at and how long its JS has run.
type guard struct {
	vm      *goja.Runtime
	tool    string
	started time.Time
	dead    chan struct{}

	base      atomic.Uint64 // the heap when the work started (watchdog)
	busyNanos atomic.Int64  // JS run time before busySince
	busySince atomic.Int64  // when JS started running (unix ns), 0 while waiting
	memory    atomic.Bool   // the watchdog stopped it for memory

	mu     sync.Mutex
	done   bool
	killed error
}

func newGuard(vm *goja.Runtime, tool string) *guard {
	return &guard{vm: vm, tool: tool, started: time.Now(), dead: make(chan struct{})}
}

// busy marks the start (true) or end (false) of a stretch of JS.
func (g *guard) busy(on bool) {
	now := time.Now().UnixNano()
	if on {
		g.busySince.Store(now)
	} else if s := g.busySince.Swap(0); s != 0 {
		g.busyNanos.Add(now - s)
	}
}

// busyFor is how long the work's JS has run so far.
func (g *guard) busyFor() time.Duration {
	d := g.busyNanos.Load()
	if s := g.busySince.Load(); s != 0 {
		d += time.Now().UnixNano() - s
	}
	return time.Duration(d)
}

func (g *guard) kill(err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.done || g.killed != nil {
		return
	}
	g.killed = err
	close(g.dead)
	g.vm.Interrupt(err)
}

// reason is why the guard was killed (nil if it was not).
func (g *guard) reason() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.killed
}

// finish ends the guard and returns why it was killed, if it was. The
// guard lets go of the runtime: the watchdog may hold a guard a little
// longer, and must not keep a stopped runtime's heap alive.
func (g *guard) finish() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	g.vm = nil
	return g.killed
}

func (g *guard) isKilled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.killed != nil
}

// newWorker makes a runtime and evaluates the module in it, bounded by the
// default timeout and ctx (an import that never ends is interrupted).
func newWorker(ctx context.Context, h *host, tool string, mod *module, watch *watchdog) (*worker, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallDepth)
	w := &worker{h: h, tool: tool, mod: mod, vm: vm, jobs: make(chan func())}
	if err := w.setup(); err != nil {
		return nil, fmt.Errorf("set up the JS host: %w", err)
	}
	go func() {
		for f := range w.jobs {
			f()
		}
		w.rt.Close() // discarded: after its last job, on its own goroutine
	}()
	ictx, cancel := context.WithTimeout(ctx, h.opts.DefaultTimeout)
	defer cancel()
	g := newGuard(vm, tool)
	watch.enter(g)
	stop := context.AfterFunc(ictx, func() { g.kill(errImportTimeout) })
	done := make(chan error, 1)
	w.jobs <- func() {
		w.rt.Loop.SetStopped(g.dead)
		g.busy(true)
		err := w.evaluate()
		g.busy(false)
		done <- err
	}
	err, ok := awaitGuarded(g, done, nil, nil)
	stop()
	if !ok { // stuck in a builtin's Go loop: thrown away when it returns
		go func() {
			<-done
			watch.leave(g)
			w.discard()
		}()
	} else {
		watch.leave(g)
	}
	if why := g.finish(); why != nil {
		if ok {
			w.discard()
		}
		if errors.Is(why, errImportTimeout) {
			why = fmt.Errorf("the module did not finish evaluating within %s", human(h.opts.DefaultTimeout))
		}
		return nil, &stoppedError{err: why, memory: g.memory.Load()}
	}
	w.rt.Loop.Reset()
	if err != nil {
		w.discard()
		return nil, err
	}
	return w, nil
}

var errImportTimeout = errors.New("import timed out")

// stoppedError is an evaluation the host stopped (deadline, memory), as
// opposed to one the module failed by itself.
type stoppedError struct {
	err    error
	memory bool // the memory limit stopped it
}

func (e *stoppedError) Error() string { return "error at import: " + e.err.Error() }

// evaluate runs the bundle as Node runs a CommonJS module and finds its
// exports; describe judges them.
func (w *worker) evaluate() error {
	vm := w.vm
	prog, err := w.mod.program()
	if err != nil {
		return err
	}
	fnv, err := vm.RunProgram(prog)
	if err != nil {
		return w.importError(err)
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return errors.New("the bundle is not a function")
	}
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	filename, dirname := goja.Undefined(), goja.Undefined()
	if f := w.mod.filename; f != "" {
		filename, dirname = vm.ToValue(f), vm.ToValue(f[:strings.LastIndexByte(f, '/')])
	}
	var zods *goja.Object
	restore := func() {}
	if w.mod.legacy {
		if zods, restore, err = w.watchToolSchema(); err != nil {
			return err
		}
	}
	_, err = fn(goja.Undefined(), module, exports, vm.Get("require"), filename, dirname)
	restore()
	if err != nil {
		return w.importError(err)
	}
	w.ns = module.Get("exports")
	w.def = w.ns
	if o, ok := w.ns.(*goja.Object); ok {
		switch {
		case isESModule(o):
			w.def = o.Get("default")
		case o == exports && len(o.Keys()) == 0:
			w.def = goja.Undefined() // a script that exports nothing
		}
	}
	if o, ok := w.def.(*goja.Object); ok && isPlainObject(o) {
		w.export = o
		w.execute, _ = goja.AssertFunction(o.Get("execute"))
		if w.mod.legacy && isOpencodeForm(o) {
			if w.oc, err = w.opencode(zods); err != nil {
				return err
			}
		}
	}
	if w.export != nil {
		w.parseArgs, _ = goja.AssertFunction(w.givenExport("parseArgs"))
	}
	return nil
}

// importError is an error the module threw at import, with where it was
// thrown in the file the user wrote.
func (w *worker) importError(err error) error {
	if at := w.thrownAt(err); at != "" {
		return fmt.Errorf("error at import: %s: %s", at, errorText(w.vm, err))
	}
	return fmt.Errorf("error at import: %s", errorText(w.vm, err))
}

// discard drops the runtime's timers and ends its goroutine (once the
// job it runs, if any, returns), which then closes what the runtime's
// bindings hold (rt.Runtime.Close); the runtime is garbage after this.
func (w *worker) discard() {
	w.discarded.Do(func() {
		w.rt.Loop.Reset()
		if w.jobs != nil {
			close(w.jobs)
		}
	})
}

// errorText is the message of a JS error (rt.ErrorText), or of the value
// a promise rejected with.
func errorText(vm *goja.Runtime, err error) string {
	var rej *rejection
	if errors.As(err, &rej) {
		return rt.ValueText(vm, rej.v)
	}
	return rt.ErrorText(vm, err)
}

// human prints a duration as users write it: 60s, 250ms, 1.5s.
func human(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return d.String()
}
