package node

import (
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

type (
	originKey   struct{}
	weakRefsKey struct{}
	perfKey     struct{}
)

// origin is when the runtime was set up: performance.timeOrigin, and
// what performance.now and process.hrtime count from.
func origin(r *rt.Runtime) time.Time {
	return rt.Local(r, originKey{}, func() time.Time { return time.Now() })
}

// installGlobals puts on r the globals of js/node.js, each made on first
// read: WeakRef, FinalizationRegistry (goja has neither) and performance.
func installGlobals(r *rt.Runtime) {
	origin(r)
	weak := func() *goja.Object {
		return rt.Local(r, weakRefsKey{}, func() *goja.Object { return jsModule(r, "weakRefs").ToObject(r.VM) })
	}
	r.LazyGlobal("WeakRef", false, func() goja.Value { return weak().Get("WeakRef") })
	r.LazyGlobal("FinalizationRegistry", false, func() goja.Value { return weak().Get("FinalizationRegistry") })
	r.LazyGlobal("performance", true, func() goja.Value { return perfHooks(r).Get("performance") })
}

// perfHooks is node:perf_hooks; its performance is the global one.
func perfHooks(r *rt.Runtime) *goja.Object {
	return rt.Local(r, perfKey{}, func() *goja.Object { return jsModule(r, "performance").ToObject(r.VM) })
}

// sinceOrigin is performance.now(): milliseconds since origin.
func sinceOrigin(r *rt.Runtime) float64 {
	return float64(time.Since(origin(r)).Nanoseconds()) / 1e6
}
