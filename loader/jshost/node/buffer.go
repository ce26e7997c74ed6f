package node

import (
	"github.com/dop251/goja"
	_ "github.com/dop251/goja_nodejs/buffer" // registers the buffer module

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// bufferModule is node:buffer: goja_nodejs's module.
func bufferModule(r *rt.Runtime) goja.Value { return r.Native("buffer") }

// installBuffer installs the Buffer global, node:buffer's Buffer. The
// buffer module reads the global Uint8Array when it is made: keep the
// original in case a module replaces it before it first uses Buffer.
func installBuffer(r *rt.Runtime) {
	u8, _ := r.VM.Get("Uint8Array").(*goja.Object)
	r.LazyGlobal("Buffer", true, func() goja.Value {
		return withGlobal(r.VM, "Uint8Array", u8, func() goja.Value { return r.Native("buffer").Get("Buffer") })
	})
}

// withGlobal runs make with the global name holding orig, as it did at
// set-up, when a module has assigned another value to it since.
func withGlobal(vm *goja.Runtime, name string, orig *goja.Object, make func() goja.Value) goja.Value {
	g := vm.GlobalObject()
	cur := g.Get(name)
	if orig == nil || cur == orig || g.DefineDataProperty(name, orig, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE) != nil {
		return make()
	}
	defer func() { _ = g.Set(name, cur) }()
	return make()
}
