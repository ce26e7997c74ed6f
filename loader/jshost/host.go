// Package jshost runs tool modules in goja: it bundles each module, checks
// its default export, and calls execute(args, context) on a pool of
// runtimes per tool with deadlines, interrupts and a heap watchdog, so a
// broken or hostile module is contained and explained.
package jshost

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"time"

	"github.com/beeuni/beeuni/internal/launch"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// Defaults for Options left zero.
const (
	DefaultTimeout    = 60 * time.Second
	DefaultMaxMemory  = 1 << 30   // --max-memory: every call's heap together
	DefaultCallMemory = 256 << 20 // --call-memory: one call's
	maxCallDepth      = 4000      // JS frames; deeper recursion throws RangeError
	abortGrace        = 250 * time.Millisecond
)

// ErrNotLoaded is returned by Call for a name that is not loaded.
var ErrNotLoaded = errors.New("no tool by that name is loaded")

// Spec is one tool to load.
type Spec struct {
	Name   string // tool name
	Source string // what users see: "tools/x.ts" or "beeuni:web_search"
	Path   string // repo-relative module path; "" when Code is set
	Code   []byte // in-memory TypeScript source (the Beeuni tools); nil for project modules
	// Legacy marks a module of the default runtime's legacy folder
	// (harnesses/opencode/tools/): it may also take opencode's
	// tool({ description, args, execute }) form (opencode.go).
	Legacy bool
}

// Options configure a Set.
type Options struct {
	Root string // where module paths resolve: the release (or the working tree)
	// Directory is the project checkout the tools work on: context.directory,
	// process.cwd() and the base of relative fs paths (default: Root). An
	// executor keeps it apart from the release folder, which is replaced at
	// every release, so what tools write there (memory/ notes) survives.
	Directory      string
	TempDir        string          // spilled output goes to its beeuni-output/ (default os.TempDir()); see SpillKeep
	DefaultTimeout time.Duration   // default 60s
	PoolSize       int             // runtimes per tool at most (0: 2*GOMAXPROCS)
	Logger         *slog.Logger    // nil: slog.Default()
	Bundler        *bundle.Bundler // shared across sets so unchanged modules are not bundled again
	// Policy is what the operator decides about what tools reach (see
	// package policy): beeuni's own state, --fs-read and --fs-write, the
	// addresses beeuni listens on, hidden variables. Load adds the
	// workspace (Directory) and TempDir as writable, and Root as
	// read-only when it is not the Directory (the release folder).
	Policy policy.Config
	// MaxMemory bounds the heap of all calls together (--max-memory) and
	// CallMemory one call's (--call-memory); 0 is the default.
	MaxMemory, CallMemory uint64
	// Launcher starts the processes tools ask for (node:child_process,
	// Bun.spawn, Bun.$), confined to Policy by the kernel: the beeuni
	// binary (os.Executable()) or a test binary whose TestMain serves
	// `internal launch`. nil: spawning throws, with NoSpawn as the reason.
	Launcher *launch.Launcher
	NoSpawn  string
}

// Tool is a loaded tool as the model sees it.
type Tool struct {
	Name, Source, Description string
	Parameters                json.RawMessage
	Timeout                   time.Duration // the module's timeout export, or the default
	Concurrent                bool          // the concurrent export (default true); false: a barrier in batch calls
	MaxResultChars            int           // the maxResultChars export; 0 when not given
	HasParseArgs              bool          // the module exports parseArgs
}

// Failure is a tool that did not load, with a one-line reason. Memory is
// set when the memory limit stopped its evaluation: with other modules
// evaluating at once the growth may have been theirs (the host cannot
// tell whose heap is whose), so a caller that must be sure loads it alone.
type Failure struct {
	Name, Source, Reason string
	Memory               bool
}

// CallContext is what execute's context carries besides directory and signal.
type CallContext struct {
	SessionID, Agent string
	// Env is read when the module first reads context.env, which may be
	// after Call returns (a module may keep its context): do not change it
	// once passed. The host never writes to it.
	Env map[string]string
}

// Result is what a call answers.
type Result struct {
	Output  string
	IsError bool
	Spilled *Spill
	Kind    ErrorKind // why IsError; NoError otherwise
	// Rejected is the error that rejected the arguments (Kind InvalidArgs)
	// when an ArgsHooks method returned it; Output is its text.
	Rejected error
}

// Spill describes an output saved whole to a file.
type Spill struct {
	Path  string `json:"path"`
	Bytes int64  `json:"bytes"`
	Lines int    `json:"lines"`
}

// Set is a loaded tool set. Safe for concurrent use.
type Set struct {
	opts     Options
	host     *host
	tools    []Tool
	pools    map[string]*pool
	failures []Failure
	watch    *watchdog

	mu      sync.Mutex
	closed  bool
	running sync.WaitGroup
}

// Load bundles and evaluates every spec; a spec that fails is left out
// (Failures), the rest load. It logs one record "[tools] project tools that
// did not load" listing each failure with its reason.
func Load(ctx context.Context, specs []Spec, opts Options) *Set {
	opts = withDefaults(opts)
	s := &Set{opts: opts, pools: map[string]*pool{}}
	s.host = newHost(opts)
	s.watch = newWatchdog(opts.MaxMemory, opts.CallMemory, opts.Logger)
	sweepSpills(spillFolder(opts.TempDir), "", time.Now(), SpillKeep, SpillMaxBytes)
	type outcome struct {
		tool Tool
		pool *pool
		err  error
	}
	outs := make([]outcome, len(specs))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for i, spec := range specs {
		if s.host.err != nil {
			outs[i].err = s.host.err
			continue
		}
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			t, p, err := s.host.load(ctx, spec, s.watch)
			outs[i] = outcome{t, p, err}
		}()
	}
	wg.Wait()
	for i, o := range outs {
		if o.err != nil {
			var st *stoppedError
			memory := errors.As(o.err, &st) && st.memory
			s.failures = append(s.failures, Failure{Name: specs[i].Name, Source: specs[i].Source, Reason: o.err.Error(), Memory: memory})
			continue
		}
		if _, dup := s.pools[o.tool.Name]; dup {
			s.failures = append(s.failures, Failure{Name: specs[i].Name, Source: specs[i].Source, Reason: "another tool has the same name"})
			o.pool.close()
			continue
		}
		s.tools = append(s.tools, o.tool)
		s.pools[o.tool.Name] = o.pool
	}
	if len(s.failures) > 0 {
		attrs := make([]any, 0, len(s.failures))
		for _, f := range s.failures {
			attrs = append(attrs, slog.Group(f.Name, slog.String("source", f.Source), slog.String("reason", f.Reason)))
		}
		opts.Logger.Warn("[tools] project tools that did not load", attrs...)
	}
	return s
}

func withDefaults(o Options) Options {
	if o.Directory == "" {
		o.Directory = o.Root
	}
	if o.TempDir == "" {
		o.TempDir = os.TempDir()
	}
	if o.DefaultTimeout <= 0 {
		o.DefaultTimeout = DefaultTimeout
	}
	if o.MaxMemory == 0 {
		o.MaxMemory = DefaultMaxMemory
	}
	if o.CallMemory == 0 {
		o.CallMemory = DefaultCallMemory
	}
	o.CallMemory = min(o.CallMemory, o.MaxMemory)
	if o.PoolSize <= 0 {
		o.PoolSize = 2 * runtime.GOMAXPROCS(0)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Bundler == nil {
		o.Bundler = bundle.New(nil)
	}
	return o
}

// Tools returns the loaded tools, in spec order.
func (s *Set) Tools() []Tool { return append([]Tool(nil), s.tools...) }

// Failures returns the tools that did not load, in spec order.
func (s *Set) Failures() []Failure { return append([]Failure(nil), s.failures...) }

// Tool returns the loaded tool name.
func (s *Set) Tool(name string) (Tool, bool) {
	for _, t := range s.tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// Call runs execute(args, context) of the tool name, after the module's
// parseArgs when it exports one. A thrown error, a timeout or an interrupt
// is a Result with IsError; the error is only ErrNotLoaded (wrapped) or a
// bad args value.
func (s *Set) Call(ctx context.Context, name string, args json.RawMessage, cc CallContext) (Result, error) {
	return s.CallWith(ctx, name, args, cc, CallOptions{})
}

// CallWith is Call with the arguments checked by opts.Args (SPEC-beyond
// §1.3: normalize, parseArgs, validate, execute).
func (s *Set) CallWith(ctx context.Context, name string, args json.RawMessage, cc CallContext, opts CallOptions) (Result, error) {
	p, ok := s.pools[name]
	if !ok {
		return Result{}, fmt.Errorf("call tool %s: %w", name, ErrNotLoaded)
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	if !json.Valid(args) { // validating spares decoding the whole value just to check it
		var probe any
		err := json.Unmarshal(args, &probe)
		return Result{}, fmt.Errorf("call tool %s: arguments are not JSON: %w", name, err)
	}
	if i := bytes.IndexFunc(args, notJSONSpace); i < 0 || args[i] != '{' {
		return Result{}, fmt.Errorf("call tool %s: arguments must be a JSON object", name)
	}
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return Result{}, fmt.Errorf("call tool %s: the tool set is closed: %w", name, ErrNotLoaded)
	}
	s.running.Add(1)
	s.mu.Unlock()
	defer s.running.Done()
	return p.call(ctx, args, cc, opts)
}

func notJSONSpace(r rune) bool { return r != ' ' && r != '\t' && r != '\n' && r != '\r' }

// Discarded is how many runtimes the set has thrown away instead of
// reusing them: after a timeout, an interrupt, a memory stop or an error
// that was not the module's own throw.
func (s *Set) Discarded() uint64 {
	var n uint64
	for _, p := range s.pools {
		n += p.discarded.Load()
	}
	return n
}

// Close frees the runtimes; calls already running finish first.
func (s *Set) Close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	s.running.Wait()
	for _, p := range s.pools {
		p.close()
	}
	s.watch.wait()
	sweepSpills(spillFolder(s.opts.TempDir), "", time.Now(), SpillKeep, SpillMaxBytes)
}
