package executor

import (
	"context"
	"fmt"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/builtin"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// Failure is a tool that did not load, or a manifest error, with its reason.
// Manifest errors have no Name; their Source is the finding's "file:line".
type Failure struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	Reason string `json:"reason"`
}

// ToolSet is one release's loaded tools: the manifest (visibility, secret
// grants) and the JS runtimes. It is immutable once loaded and safe for
// concurrent use.
//
// A ToolSet is reference counted. LoadToolSet returns it holding one
// reference, its owner's. The owner either hands it to (*Server).Switch,
// which takes that reference over, or drops it with Discard. Turns and calls
// that use the set hold references of their own; the JS runtimes are closed
// exactly once, when the last reference goes, and Done is closed then.
type ToolSet struct {
	release      string
	dir          string
	project      *loader.Project
	set          *jshost.Set
	tools        []jshost.Tool
	failures     []Failure
	loadDuration time.Duration
	validators   map[string]*schema.Validator // per tool, compiled at load (validate.go)

	refs atomic.Int64
	done chan struct{}

	mu     sync.Mutex
	onFree func() // set by the server when the set stops being current
}

// LoadToolSet reads the manifest of the checkout dir (release id release) for
// harness h and loads every tool it declares. It never fails as a whole: a
// tool that does not load is left out and reported by Failures, as is every
// manifest error, so a release whose tools all fail still switches and says
// why. opts.Root is set to dir.
func LoadToolSet(ctx context.Context, release, dir string, h loader.Harness, opts jshost.Options) *ToolSet {
	start := time.Now()
	project := loader.Read(os.DirFS(dir), h)

	var failures []Failure
	for _, f := range project.Findings {
		if f.Severity != loader.SeverityError {
			continue
		}
		src := f.File
		if f.Line > 0 {
			src = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		failures = append(failures, Failure{Source: src, Reason: f.Message})
	}

	specs := make([]jshost.Spec, 0, len(project.Tools))
	for _, t := range project.Tools {
		if !t.IsBuiltin() {
			specs = append(specs, jshost.Spec{Name: t.Name, Source: t.Source, Path: t.Source})
			continue
		}
		code, ok := builtin.Source(t.BuiltinName())
		if !ok {
			// The manifest check refuses unknown Beeuni tools; this guards a
			// loader that let one through rather than loading nothing silently.
			failures = append(failures, Failure{Name: t.Name, Source: t.Source,
				Reason: fmt.Sprintf("%s is not a Beeuni tool: use one of %v or a module path", t.Source, builtin.Names())})
			continue
		}
		specs = append(specs, jshost.Spec{Name: t.Name, Source: t.Source, Code: code})
	}

	opts.Root = dir
	set := jshost.Load(ctx, specs, opts)
	for _, f := range set.Failures() {
		failures = append(failures, Failure{Name: f.Name, Source: f.Source, Reason: f.Reason})
	}

	ts := &ToolSet{
		release:      release,
		dir:          dir,
		project:      project,
		set:          set,
		tools:        set.Tools(),
		failures:     failures,
		validators:   Validators(opts.Bundler, set.Tools(), opts.Logger),
		loadDuration: time.Since(start),
		done:         make(chan struct{}),
	}
	ts.refs.Store(1)
	return ts
}

// Release is the id of the release this set was loaded from.
func (ts *ToolSet) Release() string { return ts.release }

// Dir is the release folder the set was loaded from (its modules resolve
// there; calls work on the executor's workspace, not here).
func (ts *ToolSet) Dir() string { return ts.dir }

// Tools returns the loaded tools in manifest order. The slice is shared: do
// not modify it.
func (ts *ToolSet) Tools() []jshost.Tool { return ts.tools }

// Failures returns the manifest errors, then the tools that did not load.
// The slice is shared: do not modify it.
func (ts *ToolSet) Failures() []Failure { return ts.failures }

// LoadDuration is how long LoadToolSet took.
func (ts *ToolSet) LoadDuration() time.Duration { return ts.loadDuration }

// Done is closed once the set is freed: no owner, turn or call uses it any
// more and its runtimes are closed. The converger may then delete Dir.
func (ts *ToolSet) Done() <-chan struct{} { return ts.done }

// Discard drops the owner's reference of a set that was never handed to
// Switch (e.g. a newer release arrived while it loaded).
func (ts *ToolSet) Discard() { ts.unref() }

func (ts *ToolSet) ref() {
	if ts.refs.Add(1) <= 1 {
		// Only holders of a reference may take another; reaching 1 here
		// means the set had already been freed.
		panic("executor: reference taken on a freed tool set")
	}
}

func (ts *ToolSet) unref() {
	n := ts.refs.Add(-1)
	switch {
	case n > 0:
		return
	case n < 0:
		panic("executor: tool set released more often than referenced")
	}
	ts.set.Close()
	close(ts.done)
	ts.mu.Lock()
	f := ts.onFree
	ts.mu.Unlock()
	if f != nil {
		f()
	}
}

// whenFreed arranges for f to run once the set is freed. The caller must
// hold a reference, so the set cannot be freed before f is in place.
func (ts *ToolSet) whenFreed(f func()) {
	ts.mu.Lock()
	ts.onFree = f
	ts.mu.Unlock()
}
