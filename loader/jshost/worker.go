package jshost

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"
)

// worker is one goja runtime with a tool's module evaluated in it. It is
// used by one goroutine at a time (the pool hands it out) and thrown away
// once interrupted.
type worker struct {
	h                        *host
	tool                     string
	vm                       *goja.Runtime
	loop                     *loop
	export                   *goja.Object
	execute                  goja.Callable
	mods                     map[string]goja.Value // required modules
	jsonParse, jsonStringify goja.Callable
	abortCtor                goja.Value    // js/web.js's AbortController, once a call needs it
	lazySet                  [2]goja.Value // setters of context.env and context.signal
	natives                  *goja.Object  // Go bindings of js/web.js and js/node.js
	webGet                   goja.Callable // js/web.js: a web global by name
	factories                *goja.Object  // node: modules written in JS, once one is required
	req                      *require.RequireModule
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
	w := &worker{h: h, tool: tool, vm: vm, mods: map[string]goja.Value{}}
	w.loop = newLoop(vm)
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
	w.loop.reset()
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
	exec, _ := goja.AssertFunction(m.Get("execute"))
	w.execute = exec
	return nil
}

// discard drops the runtime's timers; the runtime is garbage after this.
func (w *worker) discard() { w.loop.reset() }

// errorText is the message of a JS error: an Error's message, a thrown
// string as is, another value's string form (JSON for plain objects).
func errorText(vm *goja.Runtime, err error) string {
	var rej *rejection
	if errors.As(err, &rej) {
		return valueText(vm, rej.v)
	}
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return valueText(vm, ex.Value())
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return "RangeError: Maximum call stack size exceeded"
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			return e.Error()
		}
		return fmt.Sprint(ie.Value())
	}
	return firstLine(err.Error())
}

func valueText(vm *goja.Runtime, v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return v.String()
	}
	if isError(vm, o) {
		msg := o.Get("message")
		if msg != nil && !goja.IsUndefined(msg) && msg.String() != "" {
			return msg.String()
		}
		return o.String()
	}
	if ts := o.Get("toString"); ts != nil && ts != vm.Get("Object").ToObject(vm).Get("prototype").ToObject(vm).Get("toString") {
		if s := o.String(); s != "[object Object]" {
			return s
		}
	}
	if b, err := o.MarshalJSON(); err == nil {
		return string(b)
	}
	return o.String()
}

func isError(vm *goja.Runtime, o *goja.Object) bool {
	ctor, _ := vm.Get("Error").(*goja.Object)
	if ctor != nil && vm.InstanceOf(o, ctor) {
		return true
	}
	msg := o.Get("message")
	if msg == nil {
		return false
	}
	_, hasMsg := msg.Export().(string)
	return hasMsg
}

// human prints a duration as users write it: 60s, 250ms, 1.5s.
func human(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprintf("%ds", int64(d/time.Second))
	}
	return d.String()
}
