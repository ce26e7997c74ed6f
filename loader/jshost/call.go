package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

var errTimedOut = errors.New("deadline")

// call runs one call on a runtime of the pool.
func (p *pool) call(ctx context.Context, args json.RawMessage, cc CallContext, opts CallOptions) (Result, error) {
	limit := p.tool.Timeout
	if dl, ok := ctx.Deadline(); ok && time.Until(dl) < limit {
		limit = max(time.Until(dl).Round(time.Millisecond), time.Millisecond)
	}
	cctx, cancel := context.WithTimeoutCause(ctx, limit, errTimedOut)
	defer cancel()
	stopped := func() string {
		if errors.Is(context.Cause(cctx), context.Canceled) {
			return fmt.Sprintf("tool %s was canceled before it finished", p.tool.Name)
		}
		return fmt.Sprintf("tool %s timed out after %s: make it faster, or export a larger `timeout` (in milliseconds)", p.tool.Name, human(limit))
	}
	st := &argsStep{hooks: opts.Args}
	args, ok := st.prepare(cctx, args, p.tool.HasParseArgs)
	if st.rejected != nil {
		return rejected(st.rejected), nil
	}
	if !ok {
		return Result{Output: stopped(), IsError: true, Kind: errorKindOf(cctx)}, nil
	}
	w, err := p.get(cctx)
	if err != nil {
		if cctx.Err() != nil {
			return Result{Output: stopped(), IsError: true, Kind: errorKindOf(cctx)}, nil
		}
		return Result{Output: err.Error(), IsError: true, Kind: Thrown}, nil
	}
	// JS runs on the worker's goroutine, so the call answers within
	// killGrace of a stop even when the runtime is stuck in a builtin's
	// Go loop, which no interrupt reaches.
	g := newGuard(w.vm, p.tool.Name)
	done := make(chan outcome, 1)
	w.jobs <- func() { done <- w.call(cctx, g, args, cc, p.watch, stopped, st) }
	o, ok := awaitGuarded(g, done, cctx.Done(), func() error { return errors.New(stopped()) })
	if !ok {
		// Thrown away when it returns; it keeps its pool slot till then,
		// so stuck runtimes cannot pile up beyond the pool's size.
		p.discarded.Add(1)
		go func() {
			<-done
			w.discard()
			p.release()
			if g.memory.Load() {
				freeMemory()
			}
		}()
		return Result{Output: g.reason().Error(), IsError: true, Kind: errorKindOf(cctx)}, nil
	}
	// Back in the pool before the slot is free: a caller that takes the slot
	// then finds this runtime instead of making a new one.
	if o.healthy {
		p.put(w)
	} else {
		p.discarded.Add(1)
		w.discard()
	}
	p.release()
	if g.memory.Load() {
		w = nil
		freeMemory()
	}
	if st.rejected != nil {
		return rejected(st.rejected), nil
	}
	if o.isErr {
		return Result{Output: o.out, IsError: true, Kind: errorKindOf(cctx)}, nil
	}
	return spill(p.h.opts.TempDir, p.tool.Name, o.out, p.tool.MaxResultChars), nil
}

// killGrace is how long a stopped runtime has to give control back before
// its call is answered without it: an interrupt reaches JS at its next
// instruction, a builtin running in Go only when it returns.
const killGrace = 500 * time.Millisecond

// awaitGuarded waits for done. Once stop is closed (the call's deadline,
// or its caller gone), the work has abortGrace to end by itself (it sees
// its signal abort), then g is killed with why. Once g is killed, it waits
// killGrace at most (false: the work is still running and must be
// abandoned). The grace is timed here, on the waiting goroutine, rather
// than by a callback on the call's context: one context child and one
// lock fewer per call.
func awaitGuarded[T any](g *guard, done <-chan T, stop <-chan struct{}, why func() error) (T, bool) {
	var grace <-chan time.Time
wait:
	for {
		select {
		case v := <-done:
			return v, true
		case <-stop:
			stop = nil
			t := time.NewTimer(abortGrace)
			defer t.Stop()
			grace = t.C
		case <-grace:
			grace = nil
			g.kill(why())
		case <-g.dead:
			break wait
		}
	}
	t := time.NewTimer(killGrace)
	defer t.Stop()
	select {
	case v := <-done:
		return v, true
	case <-t.C:
		var zero T
		return zero, false
	}
}

// outcome is what a call on a runtime answered; healthy is false when the
// runtime must not be reused.
type outcome struct {
	out            string
	isErr, healthy bool
}

// call runs execute(args, context), awaiting a promise on the event loop.
func (w *worker) call(cctx context.Context, g *guard, args json.RawMessage, cc CallContext, watch *watchdog, stopped func() string, st *argsStep) outcome {
	vm := w.vm
	watch.enter(g)
	defer watch.leave(g)
	// At the deadline the signal aborts (below, on the loop); a call still
	// running after the grace is interrupted (awaitGuarded, on the caller).

	w.rt.Loop.SetStopped(g.dead)
	g.busy(true)
	v, c, err := w.begin(cctx, g, args, cc, st)
	g.busy(false)
	if err == nil {
		if pr, ok := asPromise(v); ok {
			v, err = w.await(cctx, g, pr, c)
		}
	}
	why := g.finish()
	w.rt.Loop.Reset()
	if why != nil {
		return outcome{why.Error(), true, false}
	}
	var ex *goja.Exception
	var rej *rejection
	var ne *notExecuted
	healthy := err == nil || errors.As(err, &ex) || errors.As(err, &rej) || errors.As(err, &ne)
	// Past the deadline, or with the caller gone, that is the answer,
	// whatever the module made of its aborted signal (returned, threw).
	if cctx.Err() != nil {
		return outcome{stopped(), true, healthy}
	}
	if err != nil {
		return outcome{errorText(vm, err), true, healthy}
	}
	if w.oc != nil {
		if v, err = w.oc.result(goja.Undefined(), v); err != nil {
			return outcome{errorText(vm, err), true, true}
		}
	}
	s, err := w.output(v)
	if err != nil {
		return outcome{errorText(vm, err), true, true}
	}
	return outcome{s, false, true}
}

// start calls execute with the parsed args and a fresh context object.
func (w *worker) start(args json.RawMessage, cc CallContext) (goja.Value, *callContext, error) {
	argv, err := w.parseArgsJSON(args)
	if err != nil {
		return nil, nil, err
	}
	if w.oc != nil { // opencode parses the arguments through the args' zod first
		if argv, err = w.oc.parse(goja.Undefined(), argv); err != nil {
			return nil, nil, err
		}
	}
	if w.execute == nil {
		return nil, nil, errNoExecute
	}
	c := w.newCallContext(cc)
	v, err := w.execute(w.export, argv, c.obj)
	return v, c, err
}

// await runs the loop until the promise settles or the guard kills the call.
func (w *worker) await(cctx context.Context, g *guard, pr *goja.Promise, c *callContext) (goja.Value, error) {
	done := cctx.Done()
	for pr.State() == goja.PromiseStatePending {
		select {
		case <-w.rt.Loop.Wake():
			g.busy(true)
			err := w.rt.Loop.Run()
			g.busy(false)
			if err != nil {
				return nil, err
			}
		case <-done:
			done = nil // abort once; the guard ends the call after the grace
			if err := w.abort(cctx, c); err != nil {
				return nil, err
			}
		case <-g.dead:
			return nil, errors.New("stopped")
		}
	}
	if pr.State() == goja.PromiseStateRejected {
		return nil, &rejection{v: pr.Result()}
	}
	return pr.Result(), nil
}

// abort aborts context.signal with a TimeoutError or an AbortError. The
// controller is made now if the module has not read the signal yet, so a
// later read sees it aborted.
func (w *worker) abort(cctx context.Context, c *callContext) error {
	ctrl, err := c.controller()
	if err != nil {
		return rt.Uncatchable(err)
	}
	reason := w.rt.DOMError("The operation was aborted: the caller went away", "AbortError")
	if errors.Is(context.Cause(cctx), errTimedOut) || errors.Is(context.Cause(cctx), context.DeadlineExceeded) {
		reason = w.rt.DOMError("The operation timed out", "TimeoutError")
	}
	fn, _ := goja.AssertFunction(ctrl.Get("abort"))
	_, err = fn(ctrl, reason)
	return rt.Uncatchable(err)
}

// rejected is the answer of a call whose arguments were rejected.
func rejected(err error) Result {
	return Result{Output: err.Error(), IsError: true, Kind: InvalidArgs, Rejected: err}
}

// rejection is a rejected promise: its value is what was thrown.
type rejection struct{ v goja.Value }

func (r *rejection) Error() string { return "rejected" }

// output turns execute's value into text: a string as is, undefined as
// nothing, anything else as JSON.stringify(value, null, 2).
func (w *worker) output(v goja.Value) (string, error) {
	if v == nil || goja.IsUndefined(v) {
		return "", nil
	}
	if s, ok := asString(v); ok {
		return s, nil
	}
	r, err := w.jsonStringify(goja.Undefined(), v, goja.Null(), w.vm.ToValue(2))
	if err != nil {
		return "", err
	}
	if goja.IsUndefined(r) {
		return "", nil
	}
	return r.String(), nil
}

// parseArgsJSON makes the arguments' value, as JSON.parse would. (The
// executor has checked they are JSON: a failure is what JSON.parse threw.)
func (w *worker) parseArgsJSON(args json.RawMessage) (goja.Value, error) {
	v, e := w.json.Parse(string(args))
	if e != nil {
		return nil, &rejection{v: e}
	}
	return v, nil
}
