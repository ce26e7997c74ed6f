package jshost

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/limits"
	"github.com/beeuni/beeuni/loader/jshost/node"
	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// platforms are the bindings of every runtime, one package each, installed
// in this order (the order of the global object's keys). A new platform
// is its package and one line here. limits comes first: it guards the
// ECMAScript builtins before any platform keeps a reference to one.
func platforms() []rt.Platform {
	return []rt.Platform{limits.Platform(), node.Platform(), web.Platform()}
}

// unknownModule is the error of require for a name no platform answers.
func unknownModule(name string) error {
	return fmt.Errorf("Cannot find module 'node:%s': tools may import node:fs, node:fs/promises, node:path, node:os, node:crypto, node:url, node:buffer, node:util, node:events", name)
}

// host is what the runtimes of one Set share (read-only after newHost).
type host struct {
	opts   Options
	rt     *rt.Host
	policy *policy.Policy
	err    error // the policy does not hold: every tool fails to load with it
}

func newHost(opts Options) *host {
	h := &host{opts: opts}
	cfg := opts.Policy
	cfg.Workspace, cfg.TempDir = opts.Directory, opts.TempDir
	if opts.Root != "" && opts.Root != opts.Directory {
		cfg.ReadOnly = append(slices.Clone(cfg.ReadOnly), opts.Root)
	}
	h.policy, h.err = policy.New(cfg)
	if h.err != nil {
		h.err = fmt.Errorf("the file policy: %w", h.err)
		return h
	}
	env := map[string]string{} // process.env: the box environment at load
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	h.rt = rt.NewHost(rt.Host{
		Directory:  opts.Directory,
		TempDir:    opts.TempDir,
		Logger:     opts.Logger,
		Policy:     h.policy,
		HTTPClient: httpClient(h.policy),
		Env:        h.policy.Env(env),
		CallMemory: opts.CallMemory,
	}, platforms(), unknownModule)
	return h
}

// httpClient is fetch's client: every connection it makes is asked of
// the policy once the address is resolved (a name that resolves to the
// executor's own address is refused too).
func httpClient(p *policy.Policy) *http.Client {
	d := p.Dialer(&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second})
	return &http.Client{Timeout: 5 * time.Minute, Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: 2 * time.Minute,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConnsPerHost:   8,
	}}
}

// setup installs the platforms' globals and require (made on first read
// where they cost: rt.Runtime.LazyGlobal), and keeps what calls use.
func (w *worker) setup() error {
	// The originals, before the limits platform guards them: the host
	// parses arguments it has already bounded (the request body's limit),
	// and the guard's wrapper costs a trivial call a fifth of its time.
	jsonObj := w.vm.Get("JSON").ToObject(w.vm)
	w.jsonParse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	w.jsonStringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	r, err := w.h.rt.NewRuntime(w.vm, w.tool)
	if err != nil {
		return err
	}
	w.rt = r
	w.installLazySetters()
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
