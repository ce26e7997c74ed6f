package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// compiled is a bundle compiled once per content key (shared via the Bundler).
type compiled struct {
	prog *goja.Program
	err  error
}

// meta is what evaluating a module tells, memoized per content key so a
// set with unchanged modules loads without evaluating them again.
type meta struct {
	description string
	parameters  json.RawMessage
	timeout     time.Duration
	err         error
	transient   bool // the evaluation was stopped (deadline, memory): try again next load

	hasParseArgs, concurrent bool // the optional exports (exports.go)
	maxResultChars           int
}

// load bundles, compiles and evaluates one spec and returns the tool and its
// runtime pool (with the runtime that evaluated it, when one did).
func (h *host) load(ctx context.Context, spec Spec, watch *watchdog) (Tool, *pool, error) {
	var key string
	var code []byte
	switch {
	case spec.Code != nil:
		r, err := h.opts.Bundler.BundleSource(sourceName(spec), spec.Code)
		if err != nil {
			return Tool{}, nil, err
		}
		key, code = r.Key, r.Code
	case spec.Path == "":
		return Tool{}, nil, errors.New("no module: give a repo-relative path to a .ts or .js module")
	default:
		r, err := h.opts.Bundler.Bundle(h.opts.Root, spec.Path)
		if err != nil {
			return Tool{}, nil, err
		}
		key, code = r.Key, r.Code
	}
	file := spec.Path
	if file == "" {
		file = sourceName(spec)
	}
	c := h.opts.Bundler.Memo("jshost.program", key, func() any {
		// The bundle is CommonJS: wrap it so module, exports and require are
		// parameters, and the default export is read from module.exports.
		src := "(function (module, exports, require) {" + string(code) + "\n})"
		p, err := goja.Compile(file, src, true)
		if err != nil {
			return &compiled{err: fmt.Errorf("%s: %s", file, rt.FirstLine(err.Error()))}
		}
		return &compiled{prog: p}
	}).(*compiled)
	if c.err != nil {
		return Tool{}, nil, c.err
	}
	var first *worker
	m := h.opts.Bundler.Memo("jshost.meta", key, func() any {
		w, err := newWorker(ctx, h, spec.Name, c.prog, watch)
		if err != nil {
			var st *stoppedError
			return &meta{err: err, transient: errors.As(err, &st)}
		}
		mt, err := w.describe(h.opts.DefaultTimeout)
		if err != nil {
			w.discard()
			return &meta{err: err}
		}
		first = w
		return mt
	}).(*meta)
	if m.err != nil {
		if m.transient {
			h.opts.Bundler.Forget("jshost.meta", key)
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
	p := newPool(h, t, c.prog, watch)
	if first != nil {
		p.put(first)
	}
	return t, p, nil
}

// sourceName is the file name an in-memory module's errors show.
func sourceName(spec Spec) string {
	if name, ok := strings.CutPrefix(spec.Source, "beeuni:"); ok {
		return "beeuni/tools/" + name + ".ts"
	}
	return spec.Name + ".ts"
}

// describe checks the default export and reads what the model sees.
func (w *worker) describe(defaultTimeout time.Duration) (*meta, error) {
	d := w.export
	var desc string
	isStr := false
	if v := d.Get("description"); v != nil {
		desc, isStr = v.Export().(string)
	}
	if !isStr || strings.TrimSpace(desc) == "" {
		return nil, errors.New("description must be a non-empty string: the model reads it to decide when to call the tool")
	}
	params, ok := d.Get("parameters").(*goja.Object)
	if !ok || params.Get("type") == nil || params.Get("type").String() != "object" {
		return nil, errors.New(`parameters must be a JSON Schema with type "object"`)
	}
	raw, err := params.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf(`parameters must be a JSON Schema with type "object": %s`, rt.FirstLine(err.Error()))
	}
	if _, ok := goja.AssertFunction(d.Get("execute")); !ok {
		return nil, errors.New("execute must be a function: execute(args, context) returns the output")
	}
	m := &meta{description: desc, parameters: raw}
	if tv := d.Get("timeout"); tv != nil && !goja.IsUndefined(tv) && !goja.IsNull(tv) {
		ms := tv.ToFloat()
		if _, isNum := tv.Export().(int64); !isNum {
			if _, isF := tv.Export().(float64); !isF {
				ms = math.NaN()
			}
		}
		if math.IsNaN(ms) || ms <= 0 || math.IsInf(ms, 0) {
			return nil, errors.New("timeout must be a positive number of milliseconds")
		}
		m.timeout = time.Duration(ms * float64(time.Millisecond))
	}
	if err := w.describeOptional(m); err != nil {
		return nil, err
	}
	return m, nil
}
