package node

import (
	"reflect"
	"strconv"

	"github.com/dop251/goja"
	_ "github.com/dop251/goja_nodejs/buffer" // registers the buffer module

	"github.com/beeuni/beeuni/loader/jshost/limits"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// bufferModule is node:buffer: goja_nodejs's module.
func bufferModule(r *rt.Runtime) goja.Value { return guardedBuffer(r, r.Native("buffer")) }

type guardedKey struct{}

var typeBytes = reflect.TypeFor[[]byte]()

// guardedBuffer guards, once per runtime, the Buffer functions that make
// a size a tool chooses (limits.Guard): Buffer.alloc(2**40) would end the
// process, and a string of a 256 MiB buffer in hex is 1 GiB.
func guardedBuffer(r *rt.Runtime, mod *goja.Object) *goja.Object {
	rt.Local(r, guardedKey{}, func() bool {
		b := completeBuffer(r, mod.Get("Buffer").ToObject(r.VM))
		_ = mod.Set("Buffer", b)
		size := func(c goja.FunctionCall) float64 { return c.Argument(0).ToFloat() }
		limits.Guard(r, b, "alloc", size)
		limits.Guard(r, b, "concat", func(c goja.FunctionCall) float64 {
			if t := c.Argument(1); !goja.IsUndefined(t) {
				return t.ToFloat()
			}
			list, ok := c.Argument(0).(*goja.Object)
			if !ok {
				return 0
			}
			n := limits.Length(r, list)
			total := 0.0
			for i := 0; i < int(min(n, 1<<24)); i++ {
				total += limits.Length(r, list.Get(strconv.Itoa(i)))
			}
			return total
		})
		// toString makes up to two bytes per byte (hex; UTF-16 text). On
		// an object that only inherits from Buffer.prototype, goja_nodejs's
		// toString reads the bytes by converting the object to a string,
		// which calls toString again: a Go recursion that ends the process.
		limits.Guard(r, b.Get("prototype").ToObject(r.VM), "toString", func(c goja.FunctionCall) float64 {
			if o, ok := c.This.(*goja.Object); !ok || o.ExportType() != typeBytes {
				panic(r.VM.NewTypeError(`The "this" argument must be an instance of Buffer or Uint8Array`))
			}
			return 2 * limits.Length(r, c.This)
		})
		return true
	})
	return mod
}

// installBuffer installs the Buffer global, node:buffer's Buffer. The
// buffer module reads the global Uint8Array when it is made: keep the
// original in case a module replaces it before it first uses Buffer.
func installBuffer(r *rt.Runtime) {
	u8, _ := r.VM.Get("Uint8Array").(*goja.Object)
	r.LazyGlobal("Buffer", true, func() goja.Value {
		return withGlobal(r.VM, "Uint8Array", u8, func() goja.Value { return guardedBuffer(r, r.Native("buffer")).Get("Buffer") })
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
