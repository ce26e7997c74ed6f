package rt

import (
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/require"

	"github.com/beeuni/beeuni/internal/launch"
	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// Host is what the runtimes of one tool set share: the host's settings a
// binding reads. Read-only once NewHost has made it; bindings never write
// to it.
type Host struct {
	Directory string       // the checkout: process.cwd() and the base of relative paths
	TempDir   string       // where the host writes files of its own
	Logger    *slog.Logger // console and warnings, with the tool's name
	// Policy is what tools may reach. Every binding that touches the
	// outside asks it before it acts: files through Runtime.Path, network
	// connections through its Dialer (HTTPClient dials with it), the
	// environment through its Env (Env below is already filtered).
	Policy     *policy.Policy
	HTTPClient *http.Client // for fetch; its transport dials through Policy
	// NodeHTTPClient is node:http(s)'s: HTTP/1.1 through the same policy
	// dialer, no redirect followed, bodies as the server sent them (no
	// gzip asked for or unpacked), as Node's http.request does.
	NodeHTTPClient *http.Client
	Env            map[string]string // process.env: the box environment at load, filtered by Policy
	// CallMemory is one call's memory limit in bytes (0: none): a single
	// allocation over it throws a RangeError (Runtime.Alloc).
	CallMemory uint64
	// DynamicImportPrefix marks the names of import()s the bundler could
	// not satisfy (bundle.DynamicImportPrefix): their require throws
	// ERR_MODULE_NOT_FOUND, as import() does in Node.
	DynamicImportPrefix string
	// Launcher starts the processes tools ask for, confined (package
	// launch); nil: none may start, and NoSpawn says why.
	Launcher *launch.Launcher
	NoSpawn  string

	platforms []Platform
	modules   Modules
	unknown   func(name string) string
	natives   *require.Registry // goja_nodejs modules (buffer); no files
}

// Modules maps a require name (without the "node:" prefix) to the factory
// that makes the module in one runtime. A factory runs at most once per
// runtime, on the first require of its name.
type Modules map[string]func(*Runtime) goja.Value

// Platform is one package of bindings: the globals it installs and the
// modules it answers.
type Platform struct {
	// Install puts the platform's globals on a new runtime. It runs for
	// every runtime (every load and every pool growth), so it must be
	// cheap: install costly globals with LazyGlobal.
	Install func(*Runtime) error
	Modules Modules
}

// NewHost makes the shared part of the runtimes of one tool set from the
// settings in h and the platforms, installed in their order (which is the
// order of the global object's keys). unknown is the message of require's
// error for a name no platform answers, given as the module passed it
// ("node:zlib", "left-pad"). Two platforms answering one name is a
// programming error: NewHost panics.
func NewHost(h Host, platforms []Platform, unknown func(name string) string) *Host {
	h.platforms = platforms
	h.modules = Modules{}
	for _, p := range platforms {
		for name, f := range p.Modules {
			if _, dup := h.modules[name]; dup {
				panic(fmt.Sprintf("jshost: two platforms answer require(%q)", name))
			}
			h.modules[name] = f
		}
	}
	h.unknown = unknown
	noFiles := func(string) ([]byte, error) { return nil, require.ModuleFileDoesNotExistError }
	h.natives = require.NewRegistry(require.WithLoader(noFiles))
	return &h
}

// ModuleNames are the names require answers (without "node:"), sorted.
func (h *Host) ModuleNames() []string {
	return slices.Sorted(maps.Keys(h.modules))
}

// Runtime is one goja runtime with the host's bindings installed (its
// fields are read-only). It is used by one goroutine at a time: the one
// running its JS.
type Runtime struct {
	VM   *goja.Runtime
	Host *Host
	Tool string // the tool's name, for logs
	Loop *Loop
	// Main is the entry module's absolute path (Bun.main; "" for a module
	// given in memory). The core sets it before the module runs.
	Main string

	mods       map[string]goja.Value // required modules
	natives    *require.RequireModule
	locals     []local
	rangeError goja.Value // the original RangeError constructor
	closers    []func()
}

type local struct{ key, v any }

// NewRuntime installs the host's bindings on vm: the require function,
// then each platform's globals. The core makes vm and sets its limits.
func (h *Host) NewRuntime(vm *goja.Runtime, tool string) (*Runtime, error) {
	r := &Runtime{VM: vm, Host: h, Tool: tool, Loop: newLoop(), rangeError: vm.Get("RangeError")}
	r.Loop.uncaught = r.Uncaught
	r.natives = h.natives.Enable(vm) // defines the global require first: it keeps that place
	if err := vm.Set("require", r.requireJS); err != nil {
		return nil, err
	}
	for _, p := range h.platforms {
		if err := p.Install(r); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// Require is require(name) in this runtime: the module (made on first use,
// then the same value), or a thrown Error with code MODULE_NOT_FOUND, as
// Node throws, whose message the host's unknown gives.
func (r *Runtime) Require(name string) goja.Value {
	key := strings.TrimPrefix(name, "node:")
	if v, ok := r.mods[key]; ok {
		return v
	}
	f, ok := r.Host.modules[key]
	if !ok {
		msg, code := r.Host.unknown(name), "MODULE_NOT_FOUND"
		if r.Host.DynamicImportPrefix != "" {
			if spec, dyn := strings.CutPrefix(name, r.Host.DynamicImportPrefix); dyn {
				// import() of what the bundle could not find: Node's words.
				msg, code = fmt.Sprintf("Cannot find package '%s' imported from %s", spec, r.Main), "ERR_MODULE_NOT_FOUND"
			}
		}
		e, err := r.VM.New(r.VM.Get("Error"), r.VM.ToValue(msg))
		if err != nil {
			panic(r.VM.NewGoError(errors.New(msg)))
		}
		_ = e.Set("code", code)
		panic(e)
	}
	v := f(r)
	if r.mods == nil {
		r.mods = map[string]goja.Value{}
	}
	r.mods[key] = v
	return v
}

func (r *Runtime) requireJS(c goja.FunctionCall) goja.Value { return r.Require(c.Argument(0).String()) }

// Native is a goja_nodejs module (buffer) of this runtime, made once,
// whatever the module did to the global require.
func (r *Runtime) Native(name string) *goja.Object {
	v, err := r.natives.Require(name)
	if err != nil {
		panic(err)
	}
	return v.ToObject(r.VM)
}

// Local is where a platform keeps its state for one runtime: the value of
// key, made by make on first use. key is a value of a type of the
// platform's own, as for context.WithValue.
func Local[T any](r *Runtime, key any, make func() T) T {
	for _, l := range r.locals {
		if l.key == key {
			return l.v.(T)
		}
	}
	v := make()
	r.locals = append(r.locals, local{key, v})
	return v
}

// OnClose registers fn to run when the runtime is thrown away: a binding
// that holds what the Go heap does not free by itself (bun:sqlite's open
// databases) releases it there.
func (r *Runtime) OnClose(fn func()) { r.closers = append(r.closers, fn) }

// Close runs the OnClose functions, the last registered first, once. The
// core calls it when it discards the runtime, on the goroutine that ran
// its JS, after the last of it.
func (r *Runtime) Close() {
	fns := r.closers
	r.closers = nil
	for i := len(fns) - 1; i >= 0; i-- {
		fns[i]()
	}
}

// Uncaught reports an exception that a callback threw and nothing caught
// (a timer's, process.nextTick's): Node and Bun would print it and stop the
// process; the host logs it, with the tool's name, and the call goes on.
func (r *Runtime) Uncaught(where string, err *goja.Exception) {
	if r.Host.Logger != nil {
		r.Host.Logger.Warn("uncaught exception in "+where+" (Node and Bun would stop the process here)", "tool", r.Tool, "error", FirstLine(err.Error()))
	}
}
