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
// shows for Buffer, process, AbortController, DOMException, Response). The
// globals that libraries read through their descriptor (core-js: fetch,
// Request, Headers, queueMicrotask) stay eager.
func (r *Runtime) LazyGlobal(name string, enumerable bool, make func() goja.Value) {
	vm := r.VM
	g := vm.GlobalObject()
	enum := goja.FLAG_FALSE
	if enumerable {
		enum = goja.FLAG_TRUE
	}
	var v goja.Value
	get := func(goja.FunctionCall) goja.Value {
		if v == nil {
			v = make()
			// Fails only on a frozen global: the getter keeps answering v.
			_ = g.DefineDataProperty(name, v, goja.FLAG_TRUE, goja.FLAG_TRUE, enum)
		}
		return v
	}
	set := func(c goja.FunctionCall) goja.Value {
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
	}
	if err := g.DefineAccessorProperty(name, vm.ToValue(get), vm.ToValue(set), goja.FLAG_TRUE, enum); err != nil {
		panic(err)
	}
}
