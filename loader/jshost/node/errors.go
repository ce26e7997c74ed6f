package node

import (
	"bytes"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installErrorStatics gives Error V8's statics that libraries call when
// they exist (custom errors call Error.captureStackTrace(this, Ctor)):
// captureStackTrace, stackTraceLimit, and a prepareStackTrace that
// formats as the default does (Bun has one; code that replaces it to get
// call sites still gets a string stack, as goja has no call sites).
func installErrorStatics(r *rt.Runtime) {
	vm := r.VM
	errCtor, ok := vm.Get("Error").(*goja.Object)
	if !ok {
		return
	}
	_ = errCtor.Set("stackTraceLimit", 10)
	_ = errCtor.Set("captureStackTrace", func(c goja.FunctionCall) goja.Value {
		obj, ok := c.Argument(0).(*goja.Object)
		if !ok {
			panic(vm.NewTypeError("Invalid argument"))
		}
		limit := 10
		if l := errCtor.Get("stackTraceLimit"); l != nil && goja.IsNumber(l) {
			limit = int(max(0, min(l.ToInteger(), 200)))
		}
		frames := vm.CaptureCallStack(0, nil)
		if len(frames) > 0 {
			frames = frames[1:] // this function
		}
		// Frames above the topmost call of fn (by its name) are left out,
		// as V8 does; none are left when fn is not on the stack.
		if fn, ok := c.Argument(1).(*goja.Object); ok {
			if _, isFn := goja.AssertFunction(fn); isFn {
				name := fn.Get("name").String()
				cut := len(frames)
				for i, f := range frames {
					if f.FuncName() == name {
						cut = i + 1
						break
					}
				}
				frames = frames[cut:]
			}
		}
		var b bytes.Buffer
		b.WriteString(errorHeader(obj))
		for i := range frames[:min(limit, len(frames))] {
			b.WriteString("\n    at ")
			frames[i].Write(&b)
		}
		_ = obj.DefineDataProperty("stack", vm.ToValue(b.String()), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return goja.Undefined()
	})
	_ = errCtor.Set("prepareStackTrace", func(c goja.FunctionCall) goja.Value {
		var b bytes.Buffer
		if o, ok := c.Argument(0).(*goja.Object); ok {
			b.WriteString(errorHeader(o))
		} else {
			b.WriteString(c.Argument(0).String())
		}
		if sites, ok := c.Argument(1).(*goja.Object); ok {
			vm.ForOf(sites, func(v goja.Value) bool {
				b.WriteString("\n    at " + v.String())
				return true
			})
		}
		return vm.ToValue(b.String())
	})
}

// errorHeader is Error.prototype.toString of o: the first line of a stack.
func errorHeader(o *goja.Object) string {
	name, msg := "Error", ""
	if v := o.Get("name"); v != nil && !goja.IsUndefined(v) {
		name = v.String()
	}
	if v := o.Get("message"); v != nil && !goja.IsUndefined(v) {
		msg = v.String()
	}
	switch {
	case msg == "":
		return name
	case name == "":
		return msg
	}
	return name + ": " + msg
}
