package jshost

import (
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost/bun"
	"github.com/beeuni/beeuni/loader/jshost/ecma"
	"github.com/beeuni/beeuni/loader/jshost/intl"
	"github.com/beeuni/beeuni/loader/jshost/limits"
	"github.com/beeuni/beeuni/loader/jshost/node"
	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// platforms are the bindings of every runtime, one package each, installed
// in this order (the order of the global object's keys). A new platform
// is its package and one line here. ecma and limits come first: they
// correct and guard the ECMAScript builtins before any platform keeps a
// reference to one.
func platforms() []rt.Platform {
	return []rt.Platform{ecma.Platform(), limits.Platform(), node.Platform(), web.Platform(), bun.Platform(), intl.Platform()}
}

// Offering is the view of b a host bundles with: it offers what the
// host's require answers, so a bundle made through it elsewhere (the
// controller's, shipped in a release) is the one a host would make.
func Offering(b *bundle.Bundler) *bundle.Bundler {
	names := map[string]bool{}
	for _, p := range platforms() {
		for n := range p.Modules {
			names[n] = true
		}
	}
	return b.Offering(slices.Sorted(maps.Keys(names)))
}

// host is what the runtimes of one Set share (read-only after newHost).
type host struct {
	opts      Options
	rt        *rt.Host
	policy    *policy.Policy
	err       error           // the policy does not hold: every tool fails to load with it
	bundler   *bundle.Bundler // opts.Bundler offering what rt's require answers
	mayImport string          // the node: modules rt answers, for messages
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
		Directory:      opts.Directory,
		TempDir:        opts.TempDir,
		Logger:         opts.Logger,
		Policy:         h.policy,
		HTTPClient:     httpClient(h.policy),
		NodeHTTPClient: nodeHTTPClient(h.policy),
		Env:            h.policy.Env(env),
		CallMemory:     opts.CallMemory,
		Launcher:       opts.Launcher,
		NoSpawn:        opts.NoSpawn,
		// One marker: what the bundler writes is what require reads.
		DynamicImportPrefix: bundle.DynamicImportPrefix,
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

// nodeHTTPClient is node:http(s)'s client: fetch's dialer and timeouts,
// but HTTP/1.1 only, redirects answered as they are and no compression
// asked for, so a body reaches the tool as sent (axios and
// follow-redirects unpack and follow themselves).
func nodeHTTPClient(p *policy.Policy) *http.Client {
	c := httpClient(p)
	t := c.Transport.(*http.Transport)
	t.ForceAttemptHTTP2 = false
	t.DisableCompression = true
	c.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return c
}

// setup installs the platforms' globals and require (made on first read
// where they cost: rt.Runtime.LazyGlobal), and keeps what calls use.
func (w *worker) setup() error {
	jsonObj := w.vm.Get("JSON").ToObject(w.vm)
	r, err := w.h.rt.NewRuntime(w.vm, w.tool)
	if err != nil {
		return err
	}
	// JSON.parse's parser itself, not the global the limits platform
	// guards: the host parses arguments it has already bounded (the request
	// body's limit), and the guard's wrapper cost a trivial call a fifth of
	// its time. stringify as package ecma corrected it (the guards leave it
	// alone).
	w.json = ecma.JSONParser(r)
	w.jsonStringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	if w.mod != nil && w.mod.filename != "" {
		r.Main = filepath.FromSlash(w.mod.filename) // Bun.main
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
