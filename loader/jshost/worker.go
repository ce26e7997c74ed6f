package jshost

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// worker is one goja runtime with a tool's module evaluated in it. It is
// used by one goroutine at a time (the pool hands it out) and thrown away
// once interrupted.
type worker struct {
	h                        *host
	tool                     string
	vm                       *goja.Runtime
	rt                       *rt.Runtime // the platforms' bindings and the event loop
	export                   *goja.Object
	named                    *goja.Object // module.exports: the named exports (export itself when there is no default)
	execute                  goja.Callable
	parseArgs                goja.Callable // the module's parseArgs, nil when it exports none
	jsonParse, jsonStringify goja.Callable
	abortCtor                goja.Value    // the web platform's AbortController, once a call needs it
	lazySet                  [2]goja.Value // setters of context.env and context.signal
}

// guard ends one piece of JS work from outside: kill interrupts the
// runtime and wakes a loop waiting for a promise. Once finished, kill is a
// no-op, so an interrupt never leaks into the runtime's next call.
type guard struct {
	vm      *goja.Runtime
	started time.Time
	dead    chan struct{}

	mu     sync.Mutex
	done   bool
	killed error
}

func newGuard(vm *goja.Runtime) *guard {
	return &guard{vm: vm, started: time.Now(), dead: make(chan struct{})}
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

// finish ends the guard and returns why it was killed, if it was.
func (g *guard) finish() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.done = true
	return g.killed
}

func (g *guard) isKilled() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.killed != nil
}

// newWorker makes a runtime and evaluates the module in it, bounded by the
// default timeout and ctx (an import that never ends is interrupted).
func newWorker(ctx context.Context, h *host, tool string, prog *goja.Program, watch *watchdog) (*worker, error) {
	vm := goja.New()
	vm.SetMaxCallStackSize(maxCallDepth)
	w := &worker{h: h, tool: tool, vm: vm}
	if err := w.setup(); err != nil {
		return nil, fmt.Errorf("set up the JS host: %w", err)
	}
	ictx, cancel := context.WithTimeout(ctx, h.opts.DefaultTimeout)
	defer cancel()
	g := newGuard(vm)
	watch.enter(g)
	stop := context.AfterFunc(ictx, func() { g.kill(errImportTimeout) })
	err := w.evaluate(prog)
	stop()
	watch.leave(g)
	if why := g.finish(); why != nil {
		w.discard()
		if errors.Is(why, errImportTimeout) {
			why = fmt.Errorf("the module did not finish evaluating within %s", human(h.opts.DefaultTimeout))
		}
		return nil, &stoppedError{why}
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
type stoppedError struct{ err error }

func (e *stoppedError) Error() string { return "error at import: " + e.err.Error() }

// evaluate runs the bundle and finds the default export.
func (w *worker) evaluate(prog *goja.Program) error {
	vm := w.vm
	fnv, err := vm.RunProgram(prog)
	if err != nil {
		return fmt.Errorf("error at import: %s", errorText(vm, err))
	}
	fn, ok := goja.AssertFunction(fnv)
	if !ok {
		return errors.New("the bundle is not a function")
	}
	module := vm.NewObject()
	exports := vm.NewObject()
	_ = module.Set("exports", exports)
	if _, err := fn(goja.Undefined(), module, exports, vm.Get("require")); err != nil {
		return fmt.Errorf("error at import: %s", errorText(vm, err))
	}
	m, _ := module.Get("exports").(*goja.Object)
	if m == nil {
		return errors.New("no default export: write `export default { description, parameters, execute }`")
	}
	d := m.Get("default")
	if esm := m.Get("__esModule"); (esm != nil && esm.ToBoolean()) || (d != nil && !goja.IsUndefined(d)) {
		obj, ok := d.(*goja.Object)
		if !ok {
			return errors.New("no default export: write `export default { description, parameters, execute }`")
		}
		m = obj
	}
	w.export = m
	w.named, _ = module.Get("exports").(*goja.Object)
	exec, _ := goja.AssertFunction(m.Get("execute"))
	w.execute = exec
	w.parseArgs, _ = goja.AssertFunction(w.optionalExport("parseArgs"))
	return nil
}

// discard drops the runtime's timers; the runtime is garbage after this.
func (w *worker) discard() { w.rt.Loop.Reset() }

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
