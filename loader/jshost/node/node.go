// Package node is the Node.js platform of every runtime: the node:
// modules tools may import (one file each) and the Buffer and process
// globals. util and events, and the callback and promise forms of fs, are
// written in js/node.js.
package node

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Platform is the Node.js platform: require names without the "node:"
// prefix (rt strips it), and its globals.
func Platform() rt.Platform {
	return rt.Platform{
		Install: func(r *rt.Runtime) error {
			installBuffer(r)
			installErrorStatics(r)
			installGlobals(r)
			if err := installES(r); err != nil {
				return err
			}
			g := r.VM.GlobalObject()
			if err := g.DefineDataProperty("global", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
				return err
			}
			r.LazyGlobal("process", true, func() goja.Value { return process(r) })
			return nil
		},
		Modules: rt.Modules{
			"buffer":          bufferModule,
			"url":             urlModule,
			"fs":              fsModule,
			"fs/promises":     fsPromisesModule,
			"path":            pathModule,
			"path/posix":      func(r *rt.Runtime) goja.Value { return r.Require("path") },
			"path/win32":      func(r *rt.Runtime) goja.Value { return r.Require("path").ToObject(r.VM).Get("win32") },
			"os":              osModule,
			"crypto":          cryptoModule,
			"util":            utilModule,
			"events":          eventsModule,
			"zlib":            zlibModule,
			"child_process":   childProcessModule,
			"stream":          streamModule,
			"stream/promises": streamPart("promises"),
			"http":            httpPart("http"),
			"https":           httpPart("https"),
			"http2":           httpPart("http2"),
			"net":             httpPart("net"),
			"tls":             httpPart("tls"),
			"perf_hooks":      func(r *rt.Runtime) goja.Value { return perfHooks(r) },
			"process":         func(r *rt.Runtime) goja.Value { return process(r) },
			// Small modules written in js/node.js.
			"string_decoder":      func(r *rt.Runtime) goja.Value { return jsModule(r, "stringDecoder") },
			"timers/promises":     func(r *rt.Runtime) goja.Value { return jsModule(r, "timersPromises") },
			"querystring":         func(r *rt.Runtime) goja.Value { return jsModule(r, "querystring") },
			"tty":                 func(r *rt.Runtime) goja.Value { return jsModule(r, "tty") },
			"diagnostics_channel": func(r *rt.Runtime) goja.Value { return jsModule(r, "diagnosticsChannel") },
			"async_hooks":         func(r *rt.Runtime) goja.Value { return jsModule(r, "asyncHooks") },
			"timers":              func(r *rt.Runtime) goja.Value { return jsModule(r, "timers", r.Require("timers/promises")) },
			"dns":                 func(r *rt.Runtime) goja.Value { return jsModule(r, "dns") },
			"dns/promises":        func(r *rt.Runtime) goja.Value { return r.Require("dns").ToObject(r.VM).Get("promises") },
			"worker_threads":      func(r *rt.Runtime) goja.Value { return jsModule(r, "workerThreads") },
			"util/types":          func(r *rt.Runtime) goja.Value { return r.Require("util").ToObject(r.VM).Get("types") },
			"console":             func(r *rt.Runtime) goja.Value { return r.VM.Get("console") },
			"readline": func(r *rt.Runtime) goja.Value {
				return jsModule(r, "readline", r.Require("events"), r.Require("string_decoder"))
			},
			"assert":        func(r *rt.Runtime) goja.Value { return jsModule(r, "assert", r.VM.ToValue(false)) },
			"assert/strict": func(r *rt.Runtime) goja.Value { return r.Require("assert").ToObject(r.VM).Get("strict") },
		},
	}
}

//go:embed js/node.js
var nodeJS string

// nodeProgram is compiled once per process: a *goja.Program is immutable
// and may run in any number of runtimes.
var nodeProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:node.js", nodeJS, true) })

//go:embed js/inspect.js
var inspectJS string

var inspectProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:inspect.js", inspectJS, true) })

// runFactory runs a program that evaluates to function (g, n) and calls it.
func runFactory(r *rt.Runtime, p *goja.Program, n *goja.Object) *goja.Object {
	vm := r.VM
	fv, err := vm.RunProgram(p)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	f, err := fn(goja.Undefined(), vm.GlobalObject(), n)
	if err != nil {
		panic(err)
	}
	return f.ToObject(vm)
}

type factoriesKey struct{}

// jsModule calls the factory name of js/node.js with args. js/node.js
// runs on the first call in a runtime, with its Go bindings (n).
func jsModule(r *rt.Runtime, name string, args ...goja.Value) goja.Value {
	factories := rt.Local(r, factoriesKey{}, func() *goja.Object {
		vm := r.VM
		n := vm.NewObject()
		_ = n.Set("format", func(c goja.FunctionCall) goja.Value { return vm.ToValue(r.Format(c.Arguments)) })
		_ = n.Set("inspect", func(v goja.Value) string { return r.Inspect(v) })
		_ = n.Set("now", func() float64 { return sinceOrigin(r) })
		_ = n.Set("timeOrigin", float64(origin(r).UnixNano())/1e6)
		_ = n.Set("promiseState", func(v goja.Value) []any {
			if p, ok := v.Export().(*goja.Promise); ok {
				switch p.State() {
				case goja.PromiseStateFulfilled:
					return []any{"fulfilled", p.Result()}
				case goja.PromiseStateRejected:
					return []any{"rejected", p.Result()}
				}
			}
			return []any{"pending", goja.Undefined()}
		})
		_ = n.Set("util", runFactory(r, inspectProgram(), n))
		return runFactory(r, nodeProgram(), n)
	})
	f, _ := goja.AssertFunction(factories.Get(name))
	v, err := f(goja.Undefined(), args...)
	if err != nil {
		panic(err)
	}
	return v
}
