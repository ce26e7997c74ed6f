package node

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// js/stream.js is Node's streams as the readable-stream package publishes
// them for other runtimes, bundled by internal/genstream (its header names
// the version and the license): a port of Node's own lib/stream, so its
// behaviour is Node's, not a copy of it written here.
//
//go:embed js/stream.js
var streamJS string

// streamProgram wraps the bundle as Node's module wrapper would; compiled
// once per process.
var streamProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("beeuni:stream.js", "(function (module, exports, require) {\n"+streamJS+"\n})", true)
})

// streamModule is require('stream'): the legacy Stream constructor with
// Readable, Writable, Duplex, Transform, PassThrough, pipeline, finished,
// promises and the rest as properties, run once per runtime (require caches it). The bundle's
// own imports are the host's modules; abort-controller is the global one.
func streamModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	{
		fv, err := vm.RunProgram(streamProgram())
		if err != nil {
			panic(err)
		}
		fn, _ := goja.AssertFunction(fv)
		module, exports := vm.NewObject(), vm.NewObject()
		_ = module.Set("exports", exports)
		require := func(name string) goja.Value {
			if name == "abort-controller" {
				g := vm.GlobalObject()
				o := vm.NewObject()
				_ = o.Set("AbortController", g.Get("AbortController"))
				_ = o.Set("AbortSignal", g.Get("AbortSignal"))
				return o
			}
			return r.Require(strings.TrimSuffix(name, "/"))
		}
		if _, err := fn(goja.Undefined(), module, exports, vm.ToValue(require)); err != nil {
			panic(err)
		}
		return module.Get("exports")
	}
}

// streamPart is one property of the stream module as a module of its own
// (stream/promises is Stream.promises, as in Node).
func streamPart(name string) func(r *rt.Runtime) goja.Value {
	return func(r *rt.Runtime) goja.Value {
		return r.Require("stream").ToObject(r.VM).Get(name)
	}
}
