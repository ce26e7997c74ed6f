package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost/ecma"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// compiled is a bundle compiled once per content key (shared via the Bundler).
type compiled struct {
	prog *goja.Program
	err  error
}

// module is one tool's bundle as its runtimes evaluate it.
type module struct {
	program  func() (*goja.Program, error) // compiled on first use (memoized per key)
	key      string                        // the bundle's key (its source map)
	file     string                        // the name errors give: the path from the root, or sourceName
	filename string                        // __filename: the module's path in the root, with slashes; "" in memory
	legacy   bool                          // Spec.Legacy: the opencode form loads
}

// moduleHeader wraps the CommonJS bundle as Node's module wrapper does: a
// line of its own, so the bundle's lines are the program's minus one.
const moduleHeader = "(function (module, exports, require, __filename, __dirname) {\n"

// meta is what evaluating a module tells, memoized per content key so a
// set with unchanged modules loads without evaluating them again.
type meta struct {
	description string
	parameters  json.RawMessage
	timeout     time.Duration
	err         error
	transient   bool // the evaluation was stopped (deadline, memory): try again next load
	shipped     bool // from the release (Meta), not evaluated here: each new runtime checks the exports

	hasParseArgs, concurrent bool // the optional exports (exports.go)
	maxResultChars           int
}

// load bundles, compiles and evaluates one spec and returns the tool and its
// runtime pool (with the runtime that evaluated it, when one did).
func (h *host) load(ctx context.Context, spec Spec, watch *watchdog) (Tool, *pool, error) {
	var r bundle.Result
	var err error
	mod := &module{file: spec.Path, legacy: spec.Legacy}
	switch {
	case spec.Code != nil:
		mod.file = sourceName(spec)
		r, err = h.bundler.BundleSource(mod.file, spec.Code)
	case spec.Path == "":
		err = errors.New("no module: give a repo-relative path to a .ts or .js module")
	default:
		mod.filename = filepath.ToSlash(filepath.Join(h.opts.Root, filepath.FromSlash(spec.Path)))
		r, err = h.bundler.Bundle(h.opts.Root, spec.Path)
	}
	if err != nil {
		return Tool{}, nil, err
	}
	mod.key = r.Key
	mod.program = sync.OnceValues(func() (*goja.Program, error) {
		c := h.bundler.Memo("jshost.program", r.Key, func() any {
			p, err := h.compile(mod, r.Code)
			return &compiled{prog: p, err: err}
		}).(*compiled)
		return c.prog, c.err
	})
	// What a module's evaluation tells depends on whether it may take the
	// opencode form: one memo each.
	kind := "jshost.meta"
	if spec.Legacy {
		kind = "jshost.meta.legacy"
	}
	var first *worker
	m := h.bundler.Memo(kind, r.Key, func() any {
		if mt := h.shipped(spec, r.Key); mt != nil {
			return mt // described by the release: evaluated by the first call
		}
		if _, err := mod.program(); err != nil {
			return &meta{err: err}
		}
		w, err := newWorker(ctx, h, spec.Name, mod, watch)
		if err != nil {
			var st *stoppedError
			return &meta{err: err, transient: errors.As(err, &st)}
		}
		mt, err := w.describe()
		if err != nil {
			w.discard()
			return &meta{err: err}
		}
		first = w
		return mt
	}).(*meta)
	if m.err != nil {
		if m.transient {
			h.bundler.Forget(kind, r.Key)
		}
		if first != nil {
			first.discard()
		}
		return Tool{}, nil, m.err
	}
	t := Tool{Name: spec.Name, Source: spec.Source, Description: m.description, Parameters: m.parameters, Timeout: m.timeout,
		Concurrent: m.concurrent, MaxResultChars: m.maxResultChars, HasParseArgs: m.hasParseArgs}
	if t.Timeout <= 0 {
		t.Timeout = h.opts.DefaultTimeout
	}
	p := newPool(h, t, mod, watch)
	p.meta = m
	if first != nil {
		p.put(first)
	}
	return t, p, nil
}

// shipped is the Meta the release gives for the module of key, when the
// host may use it: the module loads in the ordinary form and its bundle
// came with the release (Bundler.Meta). A description that does not check
// out is logged and the module is evaluated here.
func (h *host) shipped(spec Spec, key string) *meta {
	if spec.Legacy {
		return nil
	}
	raw, ok := h.bundler.Meta(key)
	if !ok {
		return nil
	}
	m, err := shippedMeta(raw)
	if err != nil {
		h.opts.Logger.Warn("the release's description of a module is not used; evaluating the module here", "tool", spec.Name, "error", err)
		return nil
	}
	return m
}

// compile parses the wrapped bundle (source map comments of bundled
// packages are not followed: the bundle's own map is Bundler.Original's).
// A syntax error goja finds in esbuild's output names the original file.
func (h *host) compile(mod *module, code []byte) (*goja.Program, error) {
	src := moduleHeader + string(code) + "\n})"
	ast, err := parser.ParseFile(nil, mod.file, src, 0, parser.WithDisableSourceMaps)
	if err != nil {
		var el parser.ErrorList
		if errors.As(err, &el) && len(el) > 0 {
			if at := h.where(mod, el[0].Position.Line, el[0].Position.Column); at != "" {
				return nil, fmt.Errorf("%s: SyntaxError: %s", at, rt.FirstLine(el[0].Message))
			}
		}
		return nil, fmt.Errorf("%s: %s", mod.file, rt.FirstLine(err.Error()))
	}
	ecma.RouteLiterals(ast, src)
	p, err := goja.CompileAST(ast, true)
	if err != nil {
		return nil, fmt.Errorf("%s: %s", mod.file, rt.FirstLine(err.Error()))
	}
	return p, nil
}

// sourceName is the file name an in-memory module's errors show.
func sourceName(spec Spec) string {
	if name, ok := strings.CutPrefix(spec.Source, "beeuni:"); ok {
		return "beeuni/tools/" + name + ".ts"
	}
	return spec.Name + ".ts"
}

// errNoExecute: the default export has no execute function.
var errNoExecute = errors.New("execute must be a function: execute(args, context) returns the output")

// describe checks the default export and reads what the model sees.
func (w *worker) describe() (*meta, error) {
	if err := w.checkDefault(); err != nil {
		return nil, err
	}
	d := w.export
	var desc string
	isStr := false
	if v := d.Get("description"); v != nil {
		desc, isStr = v.Export().(string)
	}
	if !isStr || strings.TrimSpace(desc) == "" {
		return nil, errors.New("description must be a non-empty string: the model reads it to decide when to call the tool")
	}
	raw, err := w.parameters()
	if err != nil {
		return nil, err
	}
	if w.execute == nil {
		return nil, errNoExecute
	}
	m := &meta{description: desc, parameters: raw}
	if m.timeout, err = w.timeoutExport(); err != nil {
		return nil, err
	}
	if err := w.describeOptional(m); err != nil {
		return nil, err
	}
	return m, nil
}

// parameters is the JSON Schema the model receives: the default export's
// parameters, or the opencode form's args rendered.
func (w *worker) parameters() (json.RawMessage, error) {
	if w.oc != nil {
		return w.oc.parameters, nil
	}
	params, ok := w.export.Get("parameters").(*goja.Object)
	if ok && isSchemaLibrary(params) {
		return nil, errors.New(schemaLibraryAdvice(params))
	}
	if !ok || params.Get("type") == nil || params.Get("type").String() != "object" {
		return nil, errors.New(`parameters must be a JSON Schema with type "object"`)
	}
	raw, err := params.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf(`parameters must be a JSON Schema with type "object": %s`, rt.FirstLine(err.Error()))
	}
	return raw, nil
}

// timeoutExport is the module's timeout (exportOf): 0 when it has none.
func (w *worker) timeoutExport() (time.Duration, error) {
	tv := w.exportOf("timeout")
	if tv == nil {
		return 0, nil
	}
	ms := math.NaN()
	switch n := tv.Export().(type) {
	case int64:
		ms = float64(n)
	case float64:
		ms = n
	}
	if math.IsNaN(ms) || ms <= 0 || math.IsInf(ms, 0) {
		return 0, fmt.Errorf("timeout must be a positive number of milliseconds, not %s", kindOf(w.vm, tv))
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}
