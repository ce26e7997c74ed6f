package node

import (
	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// workerThreadsModule is node:worker_threads as the main thread sees it
// (isMainThread, no parentPort): packages import it for a Worker they
// start only on some paths, and a tool runs in one thread. new Worker()
// throws, naming what is not supported.
func workerThreadsModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	m := vm.NewObject()
	worker := func(goja.ConstructorCall) *goja.Object {
		panic(vm.NewTypeError("worker_threads.Worker is not supported in beeuni: tools run in one thread; use async work or child_process"))
	}
	_ = m.Set("isMainThread", true)
	_ = m.Set("parentPort", goja.Null())
	_ = m.Set("workerData", goja.Null())
	_ = m.Set("threadId", 0)
	_ = m.Set("resourceLimits", vm.NewObject())
	_ = m.Set("Worker", vm.ToValue(worker))
	_ = m.Set("default", m)
	return m
}
