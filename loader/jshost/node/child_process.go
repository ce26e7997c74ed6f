package node

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/child_process.js
var childProcessJS string

var childProcessProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("beeuni:child_process.js", childProcessJS, true)
})

// childProcessModule is node:child_process: js/child_process.js over the
// host's process core (rt.ProcessNatives), which starts every child
// through the launcher, confined to the policy.
func childProcessModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	fv, err := vm.RunProgram(childProcessProgram())
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	events := r.Require("events").ToObject(vm)
	custom := vm.Get("Symbol").ToObject(vm).Get("for")
	forFn, _ := goja.AssertFunction(custom)
	sym, err := forFn(goja.Undefined(), vm.ToValue("nodejs.util.promisify.custom"))
	if err != nil {
		panic(err)
	}
	v, err := fn(goja.Undefined(), vm.GlobalObject(), r.ProcessNatives(nil), events.Get("EventEmitter"), r.Require("stream"),
		r.Require("buffer").ToObject(vm).Get("Buffer"), sym)
	if err != nil {
		panic(err)
	}
	return v
}
