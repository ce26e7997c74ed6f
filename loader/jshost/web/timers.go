package web

import (
	"fmt"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installTimers installs setTimeout, setInterval, setImmediate and their
// clears, on the runtime's loop.
func installTimers(r *rt.Runtime) {
	vm, l := r.VM, r.Loop
	room := func() {
		if l.Pending() >= rt.MaxTimers {
			panic(r.RangeError(fmt.Sprintf("this call has %d timers pending, the most a tool call may have: clear the ones it no longer needs", rt.MaxTimers)))
		}
	}
	set := func(repeat bool) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(c.Argument(0))
			if !ok {
				panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
			}
			room()
			ms := c.Argument(1).ToFloat()
			if ms != ms || ms < 0 {
				ms = 0
			}
			var args []goja.Value
			if len(c.Arguments) > 2 {
				args = append(args, c.Arguments[2:]...)
			}
			return vm.ToValue(l.SetTimer(fn, time.Duration(ms*float64(time.Millisecond)), repeat, args))
		}
	}
	clearT := func(c goja.FunctionCall) goja.Value {
		if v := c.Argument(0); !goja.IsUndefined(v) && !goja.IsNull(v) {
			l.ClearTimer(v.ToInteger())
		}
		return goja.Undefined()
	}
	_ = vm.Set("setTimeout", set(false))
	_ = vm.Set("setInterval", set(true))
	_ = vm.Set("setImmediate", func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
		}
		room()
		var args []goja.Value
		if len(c.Arguments) > 1 {
			args = append(args, c.Arguments[1:]...)
		}
		return vm.ToValue(l.SetTimer(fn, 0, false, args))
	})
	_ = vm.Set("clearTimeout", clearT)
	_ = vm.Set("clearInterval", clearT)
	_ = vm.Set("clearImmediate", clearT)
}
