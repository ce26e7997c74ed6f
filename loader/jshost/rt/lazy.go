package rt

import (
	"fmt"

	"github.com/dop251/goja"
)

// LazyGlobal installs name on the global object as an accessor that makes
// the value on first read and then turns into the data property it would
// have been if made at set-up: same value (made once), same place among
// the global's keys, writable and configurable, enumerable as given.
// Assigning before any read makes that data property with the assigned
// value. A runtime is set up for every module load and every pool
// growth; most modules touch few of these globals.
//
// What differs from an eager data property: until the first read,
// Object.getOwnPropertyDescriptor shows get/set instead of value (as Node
// shows for Buffer, process, AbortController, DOMException, Response), and
// its get and set are the same function. The globals that libraries read
// through their descriptor (core-js: fetch, Request, Headers,
// queueMicrotask) stay eager.
func (r *Runtime) LazyGlobal(name string, enumerable bool, make func() goja.Value) {
	vm := r.VM
	g := vm.GlobalObject()
	enum := goja.FLAG_FALSE
	if enumerable {
		enum = goja.FLAG_TRUE
	}
	var v goja.Value
	// One native function is both getter and setter (a getter is called
	// with no argument, a setter with one): a runtime has about 60 of
	// these, and each function object is ~0.8 KB and 10 allocations.
	acc := vm.ToValue(func(c goja.FunctionCall) goja.Value {
		if len(c.Arguments) == 0 {
			if v == nil {
				v = make()
				// Fails only on a frozen global: the getter keeps answering v.
				_ = g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, enum)
			}
			return v
		}
		o := c.This.ToObject(vm)
		flags := enum
		if o != g {
			flags = goja.FLAG_TRUE // an object inheriting from the global gets an ordinary own property
		}
		if err := o.DefineDataProperty(name, c.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, flags); err != nil {
			// Frozen: module code is strict, where assigning a read-only property throws.
			panic(vm.NewTypeError(fmt.Sprintf("Cannot assign to read only property '%s'", name)))
		}
		return goja.Undefined()
	})
	if err := g.DefineAccessorProperty(name, acc, acc, goja.FLAG_TRUE, enum); err != nil {
		panic(err)
	}
}
