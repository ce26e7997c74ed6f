package jshost

import (
	"fmt"
	"os"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/node"
	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// platforms are the bindings of every runtime, one package each, installed
// in this order (the order of the global object's keys). A new platform
// is its package and one line here.
func platforms() []rt.Platform {
	return []rt.Platform{node.Platform(), web.Platform()}
}

// unknownModule is the error of require for a name no platform answers.
func unknownModule(name string) error {
	return fmt.Errorf("Cannot find module 'node:%s': tools may import node:fs, node:fs/promises, node:path, node:os, node:crypto, node:url, node:buffer, node:util, node:events", name)
}

// host is what the runtimes of one Set share (read-only after newHost).
type host struct {
	opts Options
	rt   *rt.Host
}

func newHost(opts Options) *host {
	env := map[string]string{} // process.env: the box environment at load
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	r := rt.NewHost(rt.Host{
		Directory:  opts.Directory,
		TempDir:    opts.TempDir,
		Logger:     opts.Logger,
		HTTPClient: opts.HTTPClient,
		Env:        env,
	}, platforms(), unknownModule)
	return &host{opts: opts, rt: r}
}

// setup installs the platforms' globals and require (made on first read
// where they cost: rt.Runtime.LazyGlobal), and keeps what calls use.
func (w *worker) setup() error {
	r, err := w.h.rt.NewRuntime(w.vm, w.tool)
	if err != nil {
		return err
	}
	w.rt = r
	w.installLazySetters()
	jsonObj := w.vm.Get("JSON").ToObject(w.vm)
	w.jsonParse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	w.jsonStringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	return nil
}

// abortController is the web platform's AbortController class, whatever
// the module did to the global, once a call needs it.
func (w *worker) abortController() goja.Value {
	if w.abortCtor == nil {
		w.abortCtor = web.AbortController(w.rt)
	}
	return w.abortCtor
}
