package modcheck

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/beeuni/beeuni/loader/jshost"
)

// Options configure a Checker; zero values take the defaults.
type Options struct {
	// Command is the check process's argv: by default this binary with
	// "internal", "check". Tests run a test binary that calls Serve.
	Command []string
	// Deadline bounds each check process: the time a module may take to
	// load. A module checked again alone (after a crash or a memory stop
	// beside others) gets a deadline of its own, and the whole check is
	// bounded by overallFactor deadlines.
	Deadline time.Duration
	// MemoryBytes is what a check process may allocate once confined.
	MemoryBytes uint64
	// KernelABI is passed to confine.Policy.KernelABI (tests: force the
	// path of a kernel without Landlock).
	KernelABI *int
	Logger    *slog.Logger
	// Spare keeps one check process started ahead, warmed up on a module
	// of the binary and waiting for its request, so a check does not wait
	// for a process to start (one small module: 10 ms -> 6 ms). Close
	// ends it.
	Spare bool
	// TempDir is where each check process gets its temp folder ("" is
	// os.TempDir()). When set, it is this Checker's own: New removes the
	// folders earlier check processes left there (a controller killed
	// before it could remove its spare's).
	TempDir string
}

// Checker loads modules in confined child processes. Safe for concurrent use.
type Checker struct {
	opts Options
	wg   sync.WaitGroup // the refill of the spare
	stop chan struct{}  // closed by Close: a refill waiting to start gives up

	mu      sync.Mutex
	spare   *proc
	filling bool
	closed  bool
}

// New returns a Checker.
func New(opts Options) *Checker {
	if opts.Deadline <= 0 {
		opts.Deadline = DefaultDeadline
	}
	if opts.MemoryBytes == 0 {
		opts.MemoryBytes = DefaultMemoryBytes
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.TempDir != "" {
		removeLeftovers(opts.TempDir, opts.Logger)
	}
	c := &Checker{opts: opts, stop: make(chan struct{})}
	c.refill(0)
	return c
}

// ErrNotChecked wraps the errors of a check that could not run at all.
var ErrNotChecked = errors.New("modules not checked")

// Check loads specs from the release laid out at root (absolute) and
// returns those that did not load, with their reasons, in spec order. A
// module that is still loading at the deadline, or that was loading when
// the process ran out of memory, is one of them. It also returns what each
// module that loaded at the first try told about its tool, by tool name
// (modules checked again alone are not described: executors evaluate
// them). The error is set (and
// wraps ErrNotChecked) when no module could be checked: the kernel lacks
// Landlock, or the process would not start.
func (c *Checker) Check(ctx context.Context, root string, specs []jshost.Spec) ([]jshost.Failure, map[string]jshost.Meta, error) {
	if len(specs) == 0 {
		return nil, nil, nil
	}
	start := time.Now()
	end := start.Add(overallFactor * c.opts.Deadline)
	deadline := start.Add(c.opts.Deadline)
	reasons := map[string]string{}
	// One process loads every module at once, so a module that hangs
	// holds up none of the others.
	o, err := c.run(ctx, deadline, c.request(root, specs))
	if err != nil {
		return nil, nil, err
	}
	maps.Copy(reasons, o.failed)
	inFlight := o.unfinished(specs)
	switch {
	case o.done:
	case o.timedOut:
		for _, s := range inFlight {
			reasons[s.Name] = c.lateReason()
		}
	case len(inFlight) == 1 && len(specs) == 1:
		reasons[inFlight[0].Name] = o.crash(c.opts.MemoryBytes)
	case len(inFlight) > 0:
		// One of them brought the process down, or the growth of a module
		// stopped before it did (its memory is not yet given back when the
		// last one loading allocates): load each in a process of its own
		// to tell which. (CI once blamed a module that merely read files:
		// it was the last one loading when the process ran out.)
		if err := c.oneByOne(ctx, end, root, inFlight, reasons); err != nil {
			return nil, nil, err
		}
	default:
		return nil, nil, fmt.Errorf("%w: the check process stopped before it loaded a module (%s)", ErrNotChecked, o.crash(c.opts.MemoryBytes))
	}
	// The memory limit stops a module while others load in the same
	// process, and their growth is not told apart: load each so stopped
	// alone, so a module that merely hung beside a bomb is not blamed.
	if len(specs) > 1 && len(o.memory) > 0 {
		var again []jshost.Spec
		for _, s := range specs {
			if slices.Contains(o.memory, s.Name) {
				delete(reasons, s.Name)
				again = append(again, s)
			}
		}
		if err := c.oneByOne(ctx, end, root, again, reasons); err != nil {
			return nil, nil, err
		}
	}
	var out []jshost.Failure
	for _, s := range specs {
		if why, ok := reasons[s.Name]; ok {
			out = append(out, jshost.Failure{Name: s.Name, Source: s.Source, Reason: why})
		}
	}
	described := map[string]jshost.Meta{}
	for name, m := range o.described {
		if _, failed := reasons[name]; !failed {
			described[name] = m
		}
	}
	return out, described, nil
}

// overallFactor bounds a whole check, re-checks included, in deadlines:
// a commit full of modules that crash or hang beside a memory bomb cannot
// hold the controller for long.
const overallFactor = 3

// oneByOne loads each spec in a check process of its own, a few at a
// time, each with a deadline of its own but none past end, and records
// why each that failed did.
func (c *Checker) oneByOne(ctx context.Context, end time.Time, root string, specs []jshost.Spec, reasons map[string]string) error {
	var (
		mu    sync.Mutex
		first error
		wg    sync.WaitGroup
	)
	sem := make(chan struct{}, maxSolo)
	for _, s := range specs {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			why := ""
			now := time.Now()
			if !now.Before(end) {
				why = fmt.Sprintf("not loaded: the modules before it took the %s the check may take", overallFactor*c.opts.Deadline)
			} else {
				deadline, late := now.Add(c.opts.Deadline), c.lateReason()
				if deadline.After(end) {
					deadline = end
					late = fmt.Sprintf("did not finish loading before the check's %s ran out", overallFactor*c.opts.Deadline)
				}
				o, err := c.run(ctx, deadline, c.request(root, []jshost.Spec{s}))
				switch {
				case err != nil:
					mu.Lock()
					first = cmp.Or(first, err)
					mu.Unlock()
					return
				case o.done:
					why = o.failed[s.Name]
				case o.timedOut:
					why = late
				default:
					why = o.crash(c.opts.MemoryBytes)
				}
			}
			if why != "" {
				mu.Lock()
				reasons[s.Name] = why
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	return first
}

// maxSolo bounds the check processes that run at once after a crash, and
// so the memory they may take together.
const maxSolo = 4

func (c *Checker) request(root string, specs []jshost.Spec) request {
	req := request{Root: root, MemoryBytes: c.opts.MemoryBytes, KernelABI: c.opts.KernelABI}
	for _, s := range specs {
		req.Specs = append(req.Specs, wireSpec{Name: s.Name, Source: s.Source, Path: s.Path})
	}
	return req
}

func (c *Checker) lateReason() string {
	return fmt.Sprintf("did not finish loading within %s", c.opts.Deadline)
}

// outcome is what one check process did.
type outcome struct {
	finished       map[string]bool
	described      map[string]jshost.Meta // what the modules that loaded told
	failed         map[string]string
	memory         []string // failed when the memory limit stopped them
	done, timedOut bool
	exit           string // how the process ended, when not done
	stderr         string // its last lines
}

// unfinished are the specs the process did not report on.
func (o outcome) unfinished(specs []jshost.Spec) []jshost.Spec {
	var out []jshost.Spec
	for _, s := range specs {
		if !o.finished[s.Name] {
			out = append(out, s)
		}
	}
	return out
}

// crash says why a process that ended early stopped.
func (o outcome) crash(limit uint64) string {
	if strings.Contains(o.stderr, "out of memory") || strings.Contains(o.stderr, "cannot allocate memory") {
		return fmt.Sprintf("the check process ran out of memory (limit %d MiB) while loading it", limit>>20)
	}
	msg := "the check process ended while loading it (" + o.exit
	if last := lastLine(o.stderr); last != "" {
		msg += ": " + last
	}
	return msg + ")"
}

// run has one check process (the spare, or a new one) check req, reading
// its report until it ends or the deadline passes (then it is killed, with
// its process group).
func (c *Checker) run(ctx context.Context, deadline time.Time, req request) (outcome, error) {
	o := outcome{finished: map[string]bool{}, failed: map[string]string{}, described: map[string]jshost.Meta{}}
	p, err := c.take()
	if err != nil {
		return o, err
	}
	defer p.close()
	req.Temp = p.temp
	body, err := json.Marshal(req)
	if err != nil {
		return o, fmt.Errorf("%w: encode the request: %w", ErrNotChecked, err)
	}
	rctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	stop := context.AfterFunc(rctx, p.kill)
	defer stop()
	// A process that died waiting (a spare) reads nothing: the report
	// below is then empty, and the outcome says how it ended.
	_, _ = p.stdin.Write(body)
	p.stdin.Close()
	refused := ""
	sc := bufio.NewScanner(p.stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var l line
		if json.Unmarshal(sc.Bytes(), &l) != nil {
			continue
		}
		switch {
		case l.Refused != "":
			refused = l.Refused
		case l.Tool != nil:
			o.finished[l.Tool.Name] = true
			if l.Tool.Meta != nil {
				o.described[l.Tool.Name] = *l.Tool.Meta
			}
		case l.Failure != nil:
			o.finished[l.Failure.Name] = true
			o.failed[l.Failure.Name] = l.Failure.Reason
			if l.Failure.Memory {
				o.memory = append(o.memory, l.Failure.Name)
			}
		case l.Done:
			o.done = true
		}
	}
	select {
	case <-p.done:
	case <-time.After(time.Second): // its output closed but it lingers: the deadline's kill ends it
		p.kill()
		<-p.done
	}
	werr := p.err
	o.stderr = p.stderr.String()
	if refused != "" {
		return o, fmt.Errorf("%w: the check process refused to run: %s", ErrNotChecked, refused)
	}
	if o.done {
		return o, nil
	}
	if ctx.Err() != nil {
		return o, ctx.Err()
	}
	o.timedOut = rctx.Err() != nil
	o.exit = "it exited"
	if werr != nil {
		o.exit = werr.Error()
	}
	c.opts.Logger.Debug("module check process ended early", "timed_out", o.timedOut, "exit", o.exit, "stderr", lastLine(o.stderr))
	return o, nil
}

// minimalEnv is all the environment the check process gets: nothing of
// the controller's (tokens, secrets, key paths).
func minimalEnv(temp string, memory uint64) []string {
	env := []string{"PATH=/usr/bin:/bin", "HOME=" + temp, "TMPDIR=" + temp, "LANG=C.UTF-8"}
	if memory > 0 {
		// The Go heap's soft limit: the GC works harder before the
		// address-space limit makes an allocation fail.
		env = append(env, fmt.Sprintf("GOMEMLIMIT=%d", memory))
	}
	return env
}

// head keeps the first max bytes written to it: a Go runtime's fatal
// error says why first, then dumps every goroutine.
type head struct {
	max int
	b   []byte
}

func (h *head) Write(p []byte) (int, error) {
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *head) String() string { return string(h.b) }

// lastLine is the line of s that says why the process ended: a Go fatal
// error or panic line, else the last line.
func lastLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.HasPrefix(l, "fatal error:") || strings.HasPrefix(l, "panic:") {
			return l
		}
	}
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}
