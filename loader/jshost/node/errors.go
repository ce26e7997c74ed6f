package node

import (
	"bytes"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installErrorStatics gives Error V8's statics that libraries call when
// they exist (custom errors call Error.captureStackTrace(this, Ctor)):
// captureStackTrace, stackTraceLimit, and a prepareStackTrace that
// formats as the default does (Bun has one). A prepareStackTrace of the
// tool's own gets call sites from captureStackTrace (goja's own error
// stacks stay strings).
func installErrorStatics(r *rt.Runtime) {
	vm := r.VM
	errCtor, ok := vm.Get("Error").(*goja.Object)
	if !ok {
		return
	}
	_ = errCtor.Set("stackTraceLimit", 10)
	defaultPrepare := vm.ToValue(func(c goja.FunctionCall) goja.Value {
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
		frames = frames[:min(limit, len(frames))]
		var stack goja.Value
		// A prepareStackTrace of the tool's own (depd, callsites) gets
		// call sites, as in V8, and makes the stack.
		if prep, ok := goja.AssertFunction(errCtor.Get("prepareStackTrace")); ok && !errCtor.Get("prepareStackTrace").SameAs(defaultPrepare) {
			sites := make([]any, len(frames))
			for i := range frames {
				sites[i] = callSite(vm, &frames[i])
			}
			v, err := prep(errCtor, obj, vm.ToValue(sites))
			if err != nil {
				panic(err)
			}
			stack = v
		} else {
			var b bytes.Buffer
			b.WriteString(errorHeader(obj))
			for i := range frames {
				b.WriteString("\n    at ")
				frames[i].Write(&b)
			}
			stack = vm.ToValue(b.String())
		}
		_ = obj.DefineDataProperty("stack", stack, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return goja.Undefined()
	})
	_ = errCtor.Set("prepareStackTrace", defaultPrepare)
}

// callSite is V8's CallSite of one frame, as much of it as goja knows.
func callSite(vm *goja.Runtime, f *goja.StackFrame) *goja.Object {
	o := vm.NewObject()
	pos := f.Position()
	var file, name goja.Value = goja.Null(), goja.Null()
	if pos.Filename != "" {
		file = vm.ToValue(pos.Filename)
	}
	if n := f.FuncName(); n != "" {
		name = vm.ToValue(n)
	}
	var b bytes.Buffer
	f.Write(&b)
	text := b.String()
	constant := func(v goja.Value) func() goja.Value { return func() goja.Value { return v } }
	for k, v := range map[string]goja.Value{
		"getFileName": file, "getScriptNameOrSourceURL": file, "getFunctionName": name,
		"getLineNumber": vm.ToValue(pos.Line), "getColumnNumber": vm.ToValue(pos.Column),
		"getMethodName": goja.Null(), "getTypeName": goja.Null(), "getThis": goja.Undefined(), "getFunction": goja.Undefined(),
		"getEvalOrigin": goja.Undefined(), "getPromiseIndex": goja.Null(),
		"isNative": vm.ToValue(pos.Filename == ""), "isEval": vm.ToValue(false), "isConstructor": vm.ToValue(false),
		"isToplevel": vm.ToValue(true), "isAsync": vm.ToValue(false), "isPromiseAll": vm.ToValue(false),
		"toString": vm.ToValue(text),
	} {
		_ = o.Set(k, constant(v))
	}
	return o
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
