package jshost

import (
	"reflect"

	"github.com/dop251/goja"
)

// callContext is execute's context object. Its env and signal are built on
// first read: most calls read neither, and building them (an object of the
// whole environment, an AbortController) was a fifth of a trivial call's
// CPU. Once read, each is an ordinary data property of the context object.
type callContext struct {
	w    *worker
	obj  *goja.Object
	env  map[string]string
	envV *goja.Object // context.env once read
	ctrl *goja.Object // the AbortController once context.signal is read (or aborted)
}

// newCallContext makes the context object of one call.
func (w *worker) newCallContext(cc CallContext) *callContext {
	vm := w.vm
	c := &callContext{w: w, obj: vm.NewObject(), env: cc.Env}
	o := c.obj
	_ = o.Set("sessionId", w.lastStr.value(vm, 0, cc.SessionID))
	_ = o.Set("agent", w.lastStr.value(vm, 1, cc.Agent))
	_ = o.Set("directory", w.lastStr.value(vm, 2, w.h.opts.Directory))
	// Getters per call (they know their context, even after the call has
	// ended); setters are shared: assigning makes a plain data property.
	_ = o.DefineAccessorProperty("env", vm.ToValue(c.getEnv), w.lazySet[0], goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = o.DefineAccessorProperty("signal", vm.ToValue(c.getSignal), w.lazySet[1], goja.FLAG_TRUE, goja.FLAG_TRUE)
	if w.oc != nil {
		c.opencodeContext(cc.SessionID)
	}
	return c
}

// lastStrings keeps the JS strings of the context's last session, agent
// and directory: calls on a runtime repeat them, and a JS string is a
// value (sharing one is not seen).
type lastStrings [3]struct {
	s string
	v goja.Value
}

func (l *lastStrings) value(vm *goja.Runtime, i int, s string) goja.Value {
	e := &l[i]
	if e.v == nil || e.s != s {
		e.s, e.v = s, vm.ToValue(s)
	}
	return e.v
}

// installLazySetters makes the shared setters of context.env and
// context.signal: assignment replaces the accessor with a data property.
func (w *worker) installLazySetters() {
	vm := w.vm
	for i, name := range [2]string{"env", "signal"} {
		w.lazySet[i] = vm.ToValue(func(call goja.FunctionCall) goja.Value {
			o := call.This.ToObject(vm)
			if err := o.DefineDataProperty(name, call.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				panic(err)
			}
			return goja.Undefined()
		})
	}
}

// getEnv builds context.env: a plain object of the call's environment,
// this call's own (writes to it are not seen by other calls).
func (c *callContext) getEnv(goja.FunctionCall) goja.Value {
	if c.envV == nil {
		vm := c.w.vm
		env := vm.NewObject()
		pol := c.w.h.policy
		for k, v := range c.env {
			if pol.EnvVisible(k, v) {
				_ = env.Set(k, v)
			}
		}
		c.envV = env
		c.settle("env", env)
	}
	return c.envV
}

// getSignal makes the call's AbortController and answers its signal.
func (c *callContext) getSignal(goja.FunctionCall) goja.Value {
	ctrl, err := c.controller()
	if err != nil {
		panic(err)
	}
	sig := ctrl.Get("signal")
	c.settle("signal", sig)
	return sig
}

// controller returns the call's AbortController, made on first use.
func (c *callContext) controller() (*goja.Object, error) {
	if c.ctrl == nil {
		ctrl, err := c.w.vm.New(c.w.abortController())
		if err != nil {
			return nil, err
		}
		c.ctrl = ctrl
	}
	return c.ctrl, nil
}

// settle turns the accessor into a data property holding v, as if it had
// always been one. It fails harmlessly on a frozen context: the getter
// keeps answering the same value.
func (c *callContext) settle(name string, v goja.Value) {
	_ = c.obj.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

var (
	typePromise = reflect.TypeFor[*goja.Promise]()
	typeString  = reflect.TypeFor[string]()
)

// asPromise returns v's promise. It asks the export type first: Export of
// a plain object copies it whole into Go maps (a large result twice per
// call, for nothing).
func asPromise(v goja.Value) (*goja.Promise, bool) {
	o, ok := v.(*goja.Object)
	if !ok || o.ExportType() != typePromise {
		return nil, false
	}
	pr, ok := o.Export().(*goja.Promise)
	return pr, ok
}

// asString returns v as a Go string when it is a string (or String object).
func asString(v goja.Value) (string, bool) {
	if o, ok := v.(*goja.Object); ok && o.ExportType() != typeString {
		return "", false
	}
	s, ok := v.Export().(string)
	return s, ok
}
