package jshost

import (
	"fmt"
	"os"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/bundle"
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

// host is what the runtimes of one Set share (read-only after newHost).
type host struct {
	opts      Options
	rt        *rt.Host
	bundler   *bundle.Bundler // opts.Bundler offering what rt's require answers
	mayImport string          // the node: modules rt answers, for messages
}

func newHost(opts Options) *host {
	env := map[string]string{} // process.env: the box environment at load
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	h := &host{opts: opts}
	h.rt = rt.NewHost(rt.Host{
		Directory:  opts.Directory,
		TempDir:    opts.TempDir,
		Logger:     opts.Logger,
		HTTPClient: opts.HTTPClient,
		Env:        env,
	}, platforms(), h.unknownModule)
	// One list: what require answers is what bundles may import.
	names := h.rt.ModuleNames()
	h.mayImport = bundle.MayImport(names)
	h.bundler = opts.Bundler.Offering(names)
	return h
}

// unknownModule is the message of require's error for a name no platform
// answers, as Node words it (the name as passed), and for a node: module
// what tools may import, in the bundler's words.
func (h *host) unknownModule(name string) string {
	if strings.HasPrefix(name, "node:") {
		return fmt.Sprintf("Cannot find module '%s': tools may import %s", name, h.mayImport)
	}
	return fmt.Sprintf("Cannot find module '%s'", name)
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
