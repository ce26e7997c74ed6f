package jshost

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"fmt"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"
	_ "github.com/dop251/goja_nodejs/url" // registers the url module (URL, URLSearchParams)
)

//go:embed js/web.js
var webJS string

//go:embed js/node.js
var nodeJS string

// The preludes are compiled once per process: a *goja.Program is immutable
// and may run in any number of runtimes.
var (
	webProgram  = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:web.js", webJS, true) })
	nodeProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:node.js", nodeJS, true) })
)

// setup installs the globals and the require function. The globals that
// cost (Buffer, URL, the web classes, console, process, crypto) are made
// on first read (lazyGlobal); the order of the global's keys and their
// flags are those of making them all here.
func (w *worker) setup() error {
	vm := w.vm
	g := vm.GlobalObject()
	w.req = w.h.registry.Enable(vm)
	// The buffer module reads the global Uint8Array when it is made: keep
	// the original in case a module replaces it before it first uses Buffer.
	u8, _ := vm.Get("Uint8Array").(*goja.Object)
	w.lazyGlobal("Buffer", true, func() goja.Value {
		return w.withGlobal("Uint8Array", u8, func() goja.Value { return w.nativeModule("buffer").Get("Buffer") })
	})
	w.lazyGlobal("URL", true, func() goja.Value { return w.nativeModule("url").Get("URL") })
	w.lazyGlobal("URLSearchParams", true, func() goja.Value { return w.nativeModule("url").Get("URLSearchParams") })
	w.installTimers()
	n := vm.NewObject()
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(n.Set("encode", func(s string) goja.Value { return w.uint8(vm, []byte(s)) }))
	must(n.Set("decode", func(v goja.Value, fatal bool) string {
		b := buffer.DecodeBytes(vm, v, goja.Undefined())
		if fatal && !utf8.Valid(b) {
			panic(vm.NewTypeError("The encoded data was not valid for encoding utf-8"))
		}
		return strings.ToValidUTF8(string(b), "\uFFFD")
	}))
	must(n.Set("format", func(c goja.FunctionCall) goja.Value { return vm.ToValue(w.format(c.Arguments)) }))
	must(n.Set("inspect", func(v goja.Value) string { return w.inspect(v) }))
	must(n.Set("http", w.fetchNative))
	w.natives = n
	fv, err := vm.RunProgram(webProgram())
	if err != nil {
		return err
	}
	fn, _ := goja.AssertFunction(fv)
	getv, err := fn(goja.Undefined(), g, n)
	if err != nil {
		return err
	}
	w.webGet, _ = goja.AssertFunction(getv)
	for _, k := range webGlobals {
		if k.eager {
			must(g.DefineDataProperty(k.name, w.web(k.name), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
		} else {
			w.lazyGlobal(k.name, false, func() goja.Value { return w.web(k.name) })
		}
	}
	must(g.DefineDataProperty("globalThis", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	must(g.DefineDataProperty("self", g, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE))
	w.installLazySetters()
	jsonObj := vm.Get("JSON").ToObject(vm)
	w.jsonParse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	w.jsonStringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	w.lazyGlobal("console", true, func() goja.Value { return w.console() })
	must(vm.Set("require", w.require))
	w.lazyGlobal("process", true, func() goja.Value { return w.process() })
	must(vm.Set("atob", func(s string) string {
		b, err := base64.StdEncoding.DecodeString(strings.Map(dropSpace, s))
		if err != nil {
			if b, err = base64.RawStdEncoding.DecodeString(strings.TrimRight(strings.Map(dropSpace, s), "=")); err != nil {
				panic(w.domError("The string to be decoded is not correctly encoded.", "InvalidCharacterError"))
			}
		}
		r := make([]rune, len(b)) // atob answers a "binary string": one char per byte
		for i, c := range b {
			r[i] = rune(c)
		}
		return string(r)
	}))
	must(vm.Set("btoa", func(s string) string {
		b := make([]byte, 0, len(s))
		for _, r := range s {
			if r > 0xff {
				panic(w.domError("Invalid character", "InvalidCharacterError"))
			}
			b = append(b, byte(r))
		}
		return base64.StdEncoding.EncodeToString(b)
	}))
	w.lazyGlobal("crypto", true, func() goja.Value {
		webCrypto := vm.NewObject()
		c := w.cryptoModule()
		must(webCrypto.Set("getRandomValues", c.Get("getRandomValues")))
		must(webCrypto.Set("randomUUID", c.Get("randomUUID")))
		return webCrypto
	})
	return nil
}

// webGlobals are the globals of js/web.js in the order they were always
// installed; eager ones are read through their descriptors by libraries.
var webGlobals = []struct {
	name  string
	eager bool
}{
	{"Event", false}, {"EventTarget", false}, {"DOMException", false}, {"AbortController", false},
	{"AbortSignal", false}, {"Headers", true}, {"Request", true}, {"Response", false},
	{"fetch", true}, {"structuredClone", true}, {"TextEncoder", false}, {"TextDecoder", false},
	{"queueMicrotask", true},
}

// web answers a web global as js/web.js made it (not as a module may have
// replaced it on the global object).
func (w *worker) web(name string) goja.Value {
	v, err := w.webGet(goja.Undefined(), w.vm.ToValue(name))
	if err != nil {
		panic(err)
	}
	return v
}

// nativeModule is a goja_nodejs module (buffer, url) through this
// runtime's own require, cached by the registry, whatever the module did
// to the global require.
func (w *worker) nativeModule(name string) *goja.Object {
	v, err := w.req.Require(name)
	if err != nil {
		panic(err)
	}
	return v.ToObject(w.vm)
}

// withGlobal runs make with the global name holding orig, as it did at
// set-up, when a module has assigned another value to it since.
func (w *worker) withGlobal(name string, orig *goja.Object, make func() goja.Value) goja.Value {
	g := w.vm.GlobalObject()
	cur := g.Get(name)
	if orig == nil || cur == orig || g.DefineDataProperty(name, orig, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE) != nil {
		return make()
	}
	defer func() { _ = g.Set(name, cur) }()
	return make()
}

// nodeFactories runs js/node.js on first use: the node: modules written in JS.
func (w *worker) nodeFactories() *goja.Object {
	if w.factories == nil {
		vm := w.vm
		fv, err := vm.RunProgram(nodeProgram())
		if err != nil {
			panic(err)
		}
		fn, _ := goja.AssertFunction(fv)
		f, err := fn(goja.Undefined(), vm.GlobalObject(), w.natives)
		if err != nil {
			panic(err)
		}
		w.factories = f.ToObject(vm)
	}
	return w.factories
}

// abortController is the AbortController class js/web.js made.
func (w *worker) abortController() goja.Value {
	if w.abortCtor == nil {
		w.abortCtor = w.web("AbortController")
	}
	return w.abortCtor
}

func dropSpace(r rune) rune {
	if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
		return -1
	}
	return r
}

func (w *worker) domError(msg, name string) *goja.Object {
	o, err := w.vm.New(w.vm.Get("DOMException"), w.vm.ToValue(msg), w.vm.ToValue(name))
	if err != nil {
		return w.vm.NewTypeError(msg)
	}
	return o
}

// uint8 wraps data (no copy) in a Uint8Array.
func (w *worker) uint8(vm *goja.Runtime, data []byte) goja.Value {
	o, err := vm.New(vm.Get("Uint8Array"), vm.ToValue(vm.NewArrayBuffer(data)))
	if err != nil {
		panic(err)
	}
	return o
}

// require answers the node: modules (with or without the prefix).
func (w *worker) require(c goja.FunctionCall) goja.Value {
	name := strings.TrimPrefix(c.Argument(0).String(), "node:")
	if v, ok := w.mods[name]; ok {
		return v
	}
	vm := w.vm
	factory := func(n string, args ...goja.Value) goja.Value {
		f, _ := goja.AssertFunction(w.nodeFactories().Get(n))
		v, err := f(goja.Undefined(), args...)
		if err != nil {
			panic(err)
		}
		return v
	}
	var v goja.Value
	switch name {
	case "buffer", "url":
		var err error
		if v, err = w.req.Require(name); err != nil { // cached by the registry
			panic(err)
		}
		if name == "url" {
			w.addFileURL(v.ToObject(vm))
		}
	case "fs":
		v = factory("fsCallbacks", w.fsModule())
	case "fs/promises":
		v = factory("fsPromises", w.require(goja.FunctionCall{Arguments: []goja.Value{vm.ToValue("fs")}}))
	case "path", "path/posix":
		v = w.pathModule()
	case "os":
		v = w.osModule()
	case "crypto":
		v = w.cryptoModule()
	case "util":
		v = factory("util")
	case "events":
		v = factory("events")
	default:
		panic(vm.NewGoError(fmt.Errorf("Cannot find module 'node:%s': tools may import node:fs, node:fs/promises, node:path, node:os, node:crypto, node:url, node:buffer, node:util, node:events", name)))
	}
	w.mods[name] = v
	return v
}

// console writes into slog, one record per call, with the tool's name.
func (w *worker) console() *goja.Object {
	vm, logger := w.vm, w.h.opts.Logger
	o := vm.NewObject()
	level := func(l slog.Level) func(goja.FunctionCall) goja.Value {
		return func(c goja.FunctionCall) goja.Value {
			if logger.Enabled(context.Background(), l) {
				logger.Log(context.Background(), l, "tool console", slog.String("tool", w.tool), slog.String("text", w.format(c.Arguments)))
			}
			return goja.Undefined()
		}
	}
	for name, l := range map[string]slog.Level{
		"log": slog.LevelInfo, "info": slog.LevelInfo, "debug": slog.LevelDebug, "trace": slog.LevelDebug,
		"dir": slog.LevelInfo, "table": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError,
	} {
		_ = o.Set(name, level(l))
	}
	return o
}

// format is util.format: %s %d %i %f %j %o %O %% in a leading string, the
// other arguments inspected and joined by spaces.
func (w *worker) format(args []goja.Value) string {
	var b bytes.Buffer
	rest := args
	if len(args) > 0 {
		if s, ok := args[0].Export().(string); ok {
			rest = args[1:]
			for i := 0; i < len(s); i++ {
				if s[i] != '%' || i+1 == len(s) {
					b.WriteByte(s[i])
					continue
				}
				verb := s[i+1]
				if verb == '%' {
					b.WriteByte('%')
					i++
					continue
				}
				if !strings.ContainsRune("sdifjoOc", rune(verb)) || len(rest) == 0 {
					b.WriteByte(s[i])
					continue
				}
				v := rest[0]
				rest = rest[1:]
				i++
				switch verb {
				case 's':
					if _, isObj := v.(*goja.Object); isObj {
						b.WriteString(w.inspect(v))
					} else {
						b.WriteString(v.String())
					}
				case 'd', 'i':
					f := v.ToFloat()
					if verb == 'i' {
						f = float64(int64(f))
					}
					b.WriteString(w.vm.ToValue(f).String())
				case 'f':
					b.WriteString(w.vm.ToValue(v.ToFloat()).String())
				case 'j', 'o', 'O':
					b.WriteString(w.inspect(v))
				}
			}
		}
	}
	for i, v := range rest {
		if i > 0 || b.Len() > 0 {
			b.WriteByte(' ')
		}
		if s, ok := v.Export().(string); ok {
			b.WriteString(s)
		} else {
			b.WriteString(w.inspect(v))
		}
	}
	return b.String()
}

// inspect shows a value the way a log reader wants it: JSON for data,
// "Name: message" for errors, [Function: f] for functions.
func (w *worker) inspect(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		if s, isStr := v.Export().(string); isStr {
			return fmt.Sprintf("%q", s)
		}
		return v.String()
	}
	if _, isFn := goja.AssertFunction(o); isFn {
		return fmt.Sprintf("[Function: %s]", o.Get("name").String())
	}
	if isError(w.vm, o) {
		if st := o.Get("stack"); st != nil && !goja.IsUndefined(st) {
			return st.String()
		}
		return o.String()
	}
	if b, err := o.MarshalJSON(); err == nil {
		return string(b)
	}
	return o.String()
}

// process is the part of Node's process a tool reads.
func (w *worker) process() *goja.Object {
	vm := w.vm
	p := vm.NewObject()
	env := vm.NewObject()
	for k, v := range w.h.env {
		_ = env.Set(k, v)
	}
	_ = p.Set("env", env)
	_ = p.Set("platform", runtime.GOOS)
	_ = p.Set("arch", nodeArch())
	_ = p.Set("version", "v22.0.0")
	_ = p.Set("versions", map[string]string{"node": "22.0.0"})
	_ = p.Set("argv", []string{"beeuni"})
	_ = p.Set("pid", 1)
	_ = p.Set("cwd", func() string { return w.h.opts.Directory })
	_ = p.Set("exit", func(code goja.Value) {
		panic(vm.NewGoError(fmt.Errorf("process.exit(%s) is not available to tools: return or throw instead", code)))
	})
	_ = p.Set("nextTick", func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
		}
		args := append([]goja.Value(nil), c.Arguments[1:]...)
		qm, _ := goja.AssertFunction(vm.Get("queueMicrotask"))
		_, _ = qm(goja.Undefined(), vm.ToValue(func() { _, _ = fn(goja.Undefined(), args...) }))
		return goja.Undefined()
	})
	start := time.Now()
	_ = p.Set("uptime", func() float64 { return time.Since(start).Seconds() })
	_ = p.Set("hrtime", func(c goja.FunctionCall) goja.Value {
		ns := time.Since(start).Nanoseconds()
		return vm.ToValue([]int64{ns / 1e9, ns % 1e9})
	})
	hr := p.Get("hrtime").ToObject(vm)
	_ = hr.Set("bigint", func() goja.Value {
		v, _ := vm.RunString(fmt.Sprintf("%dn", time.Since(start).Nanoseconds()))
		return v
	})
	_ = p.Set("emitWarning", func(c goja.FunctionCall) goja.Value {
		w.h.opts.Logger.Warn("tool console", slog.String("tool", w.tool), slog.String("text", w.format(c.Arguments)))
		return goja.Undefined()
	})
	return p
}

func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}
