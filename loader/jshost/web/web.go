// Package web is the web platform of every runtime: URL, fetch and its
// classes, events and abort, DOMException, TextEncoder/TextDecoder,
// structuredClone, atob/btoa, queueMicrotask, console, crypto (with
// crypto.subtle: js/subtle.js over subtle.go) and the
// timers. Most of it is js/web.js over Go bindings, URL and
// URLSearchParams js/url.js over the WHATWG parser; it has no modules.
package web

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/web.js
var webJS string

// webProgram is compiled once per process: a *goja.Program is immutable
// and may run in any number of runtimes.
var webProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:web.js", webJS, true) })

// Platform is the web platform: globals, no modules.
func Platform() rt.Platform { return rt.Platform{Install: install} }

// webGlobals are the globals of js/web.js in the order they were always
// installed; eager ones are read through their descriptors by libraries
// (core-js: fetch, Request, Headers, queueMicrotask).
var webGlobals = []struct {
	name  string
	eager bool
}{
	{"Event", false}, {"EventTarget", false}, {"DOMException", false}, {"AbortController", false},
	{"AbortSignal", false}, {"Headers", true}, {"Request", true}, {"Response", false},
	{"fetch", true}, {"structuredClone", true}, {"TextEncoder", false}, {"TextDecoder", false},
	{"queueMicrotask", true},
	{"Blob", false}, {"File", false}, {"FormData", false},
	{"MessageEvent", false}, {"MessagePort", false}, {"MessageChannel", false}, {"BroadcastChannel", false},
	{"ReadableStream", false}, {"ReadableStreamDefaultReader", false}, {"ReadableStreamBYOBReader", false},
	{"ReadableStreamBYOBRequest", false}, {"ReadableByteStreamController", false}, {"ReadableStreamDefaultController", false},
	{"TransformStream", false}, {"TransformStreamDefaultController", false}, {"WritableStream", false},
	{"WritableStreamDefaultWriter", false}, {"WritableStreamDefaultController", false},
	{"ByteLengthQueuingStrategy", false}, {"CountQueuingStrategy", false},
	{"TextEncoderStream", false}, {"TextDecoderStream", false},
}

type stateKey struct{}

// state is the platform's part of one runtime.
type state struct {
	get      goja.Callable // js/web.js: a web global by name
	crypto   *goja.Object  // the crypto global, made on first read
	subtleJS *goja.Object  // js/subtle.js: subtle, CryptoKey, SubtleCrypto
}

// install puts the web globals on r. The costly ones are made on first
// read (LazyGlobal); js/web.js itself runs now, as fetch, Request,
// Headers, structuredClone and queueMicrotask must be there eagerly.
func install(r *rt.Runtime) error {
	vm := r.VM
	g := vm.GlobalObject()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	r.LazyGlobal("URL", true, func() goja.Value { return URLModule(r).Get("URL") })
	r.LazyGlobal("URLSearchParams", true, func() goja.Value { return URLModule(r).Get("URLSearchParams") })
	installTimers(r)
	n := vm.NewObject()
	must(n.Set("encode", func(v goja.Value) goja.Value {
		if s, ok := v.(goja.String); ok {
			r.Alloc(3 * int64(s.Length())) // UTF-8: up to 3 bytes a UTF-16 unit
		}
		return r.Uint8Array([]byte(v.String()))
	}))
	must(n.Set("decode", decoder(r)))
	must(n.Set("textLabel", textLabel))
	must(n.Set("textDecode", textDecode(r)))
	must(n.Set("http", func(c goja.FunctionCall) goja.Value { return fetchNative(r, c) }))
	// The exports of js/streams.js, and js/blob.js's function, which
	// web.js calls with its helpers.
	must(n.Set("streams", func() goja.Value { return run(r, streamsProgram()) }))
	must(n.Set("blobs", func() goja.Value { return run(r, blobProgram()) }))
	must(n.Set("multipart", multipartParse(r)))
	fv, err := vm.RunProgram(webProgram())
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(fv)
	getv, err := fn(goja.Undefined(), g, n)
	if err != nil {
		return err
	}
	st := stateOf(r)
	st.get, _ = goja.AssertFunction(getv)
	for _, k := range webGlobals {
		if k.eager {
			must(g.DefineDataProperty(k.name, st.web(r, k.name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		} else {
			r.LazyGlobal(k.name, false, func() goja.Value { return st.web(r, k.name) })
		}
	}
	must(g.DefineDataProperty("globalThis", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(g.DefineDataProperty("self", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	r.LazyGlobal("console", true, func() goja.Value { return console(r) })
	installBase64(r)
	r.LazyGlobal("crypto", true, func() goja.Value { return Crypto(r) })
	for _, name := range []string{"CryptoKey", "SubtleCrypto"} {
		r.LazyGlobal(name, false, func() goja.Value { return stateOf(r).subtle(r).Get(name) })
	}
	return nil
}

// web answers a web global as js/web.js made it (not as a module may have
// replaced it on the global object).
func (st *state) web(r *rt.Runtime, name string) goja.Value {
	v, err := st.get(goja.Undefined(), r.VM.ToValue(name))
	if err != nil {
		panic(err)
	}
	return v
}

// AbortController is the AbortController class js/web.js made in r,
// whatever a module has assigned to the global since (the core makes
// context.signal with it).
func AbortController(r *rt.Runtime) goja.Value {
	return stateOf(r).web(r, "AbortController")
}

func stateOf(r *rt.Runtime) *state { return rt.Local(r, stateKey{}, func() *state { return &state{} }) }
