package limits

import (
	"github.com/dop251/goja"
)

// typedArrays are the typed array constructors and their element sizes.
var typedArrays = []struct {
	name string
	size float64
}{
	{"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1}, {"Int16Array", 2}, {"Uint16Array", 2},
	{"Int32Array", 4}, {"Uint32Array", 4}, {"Float32Array", 4}, {"Float64Array", 8},
	{"BigInt64Array", 8}, {"BigUint64Array", 8},
}

// wrapBuffers guards new ArrayBuffer(n) and new XArray(n | arrayLike)
// (goja makes the bytes at once: past the machine's memory that ends the
// process) and XArray.from. The constructors are replaced by wrappers
// that are the same to JS: same prototype, statics, name and length;
// subclasses (class B extends Uint8Array) still get B's prototype. They
// are made on first read of the global (rt.LazyGlobal): wrapping all
// eleven at set-up cost more than the rest of the guards.
func (l *limiter) wrapBuffers() {
	l.lazyCtor("ArrayBuffer", func(c goja.ConstructorCall) {
		if len(c.Arguments) > 0 {
			l.alloc(c.Arguments[0].ToFloat())
		}
	}, nil)
	for _, ta := range typedArrays {
		l.lazyCtor(ta.name, func(c goja.ConstructorCall) {
			if len(c.Arguments) == 0 {
				return
			}
			switch v := c.Arguments[0].(type) {
			case *goja.Object:
				if cls := v.ClassName(); cls != "ArrayBuffer" && cls != "SharedArrayBuffer" {
					n := l.length(v)
					l.elements(n)
					l.alloc(n * ta.size)
				}
			default:
				if !goja.IsUndefined(v) && !goja.IsNull(v) {
					l.alloc(v.ToFloat() * ta.size)
				}
			}
		}, l.from(ta.size))
	}
}

// lazyCtor makes the global constructor name, on first read, one that
// runs check and then constructs with the original; from, when not nil,
// guards its static from.
func (l *limiter) lazyCtor(name string, check func(goja.ConstructorCall), from func(goja.FunctionCall) goja.FunctionCall) {
	orig, ok := l.vm.GlobalObject().Get(name).(*goja.Object) // not made yet: goja's builtins are lazy too
	if !ok {
		return
	}
	l.r.LazyGlobal(name, false, func() goja.Value {
		w := l.wrapCtor(name, orig, check)
		if from != nil {
			l.wrap(w, "from", from)
		}
		return w
	})
}

// wrapCtor makes the wrapper of constructor orig.
func (l *limiter) wrapCtor(name string, orig *goja.Object, check func(goja.ConstructorCall)) *goja.Object {
	vm := l.vm
	proto := orig.Get("prototype")
	wrapper := vm.ToValue(func(c goja.ConstructorCall) *goja.Object {
		check(c)
		o, err := vm.New(orig, c.Arguments...)
		if err != nil {
			panic(err)
		}
		if p := c.This.Prototype(); p != nil && p != proto {
			_ = o.SetPrototype(p) // a subclass's instance
		}
		return o
	}).(*goja.Object)
	l.describe(wrapper, name, orig.Get("length"))
	_ = wrapper.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = wrapper.SetPrototype(orig.Prototype()) // inherited statics: from, of, Symbol.species
	for _, k := range orig.GetOwnPropertyNames() {
		if k != "prototype" && k != "name" && k != "length" {
			_ = wrapper.DefineDataProperty(k, orig.Get(k), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
		}
	}
	if po, ok := proto.(*goja.Object); ok {
		_ = po.DefineDataProperty("constructor", wrapper, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return wrapper
}
