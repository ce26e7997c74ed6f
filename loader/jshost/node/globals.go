package node

import (
	_ "embed"
	"log/slog"
	"runtime"
	"sync"
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
	r.LazyGlobal("navigator", true, func() goja.Value { return navigator(r) })
	r.LazyGlobal("reportError", true, func() goja.Value { return reportError(r) })
}

// perfHooks is node:perf_hooks; its performance is the global one.
func perfHooks(r *rt.Runtime) *goja.Object {
	return rt.Local(r, perfKey{}, func() *goja.Object { return jsModule(r, "performance").ToObject(r.VM) })
}

// sinceOrigin is performance.now(): milliseconds since origin.
func sinceOrigin(r *rt.Runtime) float64 {
	return float64(time.Since(origin(r)).Nanoseconds()) / 1e6
}

//go:embed js/es.js
var esJS string

var esProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:es.js", esJS, true) })

// installES adds the ES2024 built-ins goja lacks (Object.groupBy,
// Map.groupBy, Promise.withResolvers).
func installES(r *rt.Runtime) error {
	fv, err := r.VM.RunProgram(esProgram())
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(fv)
	_, err = fn(goja.Undefined())
	return err
}

// navigator is Node 21's: what a tool may ask of the machine.
func navigator(r *rt.Runtime) goja.Value {
	n := r.VM.NewObject()
	_ = n.Set("hardwareConcurrency", runtime.NumCPU())
	_ = n.Set("language", "en-US")
	_ = n.Set("languages", []string{"en-US"})
	_ = n.Set("platform", runtime.GOOS)
	_ = n.Set("userAgent", "Node.js/22")
	return n
}

// reportError logs an error a tool reports, as an uncaught one.
func reportError(r *rt.Runtime) goja.Value {
	return r.VM.ToValue(func(c goja.FunctionCall) goja.Value {
		r.Host.Logger.Error("tool console", slog.String("tool", r.Tool), slog.String("text", r.Format(c.Arguments[:min(1, len(c.Arguments))])))
		return goja.Undefined()
	})
}
