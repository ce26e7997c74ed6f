// Package bench measures beeuni against what a user would otherwise pick:
// tool calls against Bun.serve, a Node.js http server and a plain Go
// handler, releases against git plumbing, converging against a bare NATS
// fan-out, bundling against plain esbuild, the memory of an idle executor
// against idle Bun and Node.js processes, and the fan-out of a release to
// up to 1,000 light subscribers against a bare KV put. Every figure is measured
// beside its baseline in the same run, over several rounds.
//
// The scenarios run the real components: an embedded NATS server, a
// controller on a real Git repository, executors serving HTTP on loopback.
package bench

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"
)

// Names of the scenarios, in the order they run.
const (
	ScenarioCall     = "call"
	ScenarioConverge = "converge"
	ScenarioRelease  = "release"
	ScenarioReload   = "reload"
	ScenarioBundle   = "bundle"
	ScenarioMemory   = "memory"
	ScenarioFleet    = "fleet"
)

// Scenarios lists every scenario in the order Run runs them.
func Scenarios() []string {
	return []string{ScenarioCall, ScenarioConverge, ScenarioRelease, ScenarioReload, ScenarioBundle, ScenarioMemory, ScenarioFleet}
}

// Sizes are how much each scenario does. DefaultSizes gives the full and the
// quick sizes; tests use smaller ones.
type Sizes struct {
	CallDuration   time.Duration // load per measurement of call
	CallClients    []int         // concurrent clients of call
	Executors      []int         // fleet sizes of converge, in this process
	ExecutorProcs  []int         // fleet sizes of converge, `beeuni executor` processes
	ConvergeGap    time.Duration // quiet time before each converge round (merges are not back to back)
	RepoFiles      []int         // repository sizes of release
	Switches       int           // releases switched per round of reload
	ReloadClients  int           // steady load of reload
	SteadyDuration time.Duration // steady-state phase of reload
	MemoryTools    int           // tools loaded by the idle executor of memory
	MemoryIdle     time.Duration // how long it idles before RSS is read
	Subscribers    []int         // light subscribers of fleet, ascending
}

// DefaultSizes are the sizes of the targets, or smaller ones that
// finish in about a minute with quick.
func DefaultSizes(quick bool) Sizes {
	if quick {
		return Sizes{CallDuration: 400 * time.Millisecond, CallClients: []int{1, 16}, Executors: []int{1, 10}, ExecutorProcs: []int{3}, ConvergeGap: 1500 * time.Millisecond,
			RepoFiles: []int{2000}, Switches: 3, ReloadClients: 8, SteadyDuration: 500 * time.Millisecond,
			MemoryTools: 20, MemoryIdle: time.Second, Subscribers: []int{10, 100}}
	}
	return Sizes{CallDuration: 1500 * time.Millisecond, CallClients: []int{1, 16}, Executors: []int{1, 10, 100}, ExecutorProcs: []int{10, 100}, ConvergeGap: 1500 * time.Millisecond,
		RepoFiles: []int{2000, 10000}, Switches: 10, ReloadClients: 8, SteadyDuration: 2 * time.Second,
		MemoryTools: 20, MemoryIdle: 5 * time.Second, Subscribers: []int{10, 100, 1000}}
}

// DefaultRounds are the rounds per figure unless Config.Rounds says.
const (
	DefaultRounds      = 5
	DefaultQuickRounds = 2
)

// Config is one bench run.
type Config struct {
	Rounds int   // rounds per figure; 0: DefaultRounds (DefaultQuickRounds with Quick)
	Quick  bool  // smaller sizes
	Sizes  Sizes // zero: DefaultSizes(Quick)
	// Binary is the beeuni binary the memory scenario starts as
	// `beeuni executor`; "" means os.Executable().
	Binary string
	// NoNode skips the Node.js baselines even when node is on PATH.
	NoNode bool
	// NoBun skips the Bun baselines (no npm install of Bun either).
	NoBun bool
	// Progress receives one line per step; nil discards.
	Progress io.Writer
	// Command is recorded in the report (the command line that ran it).
	Command string
}

// run is what every scenario gets.
type run struct {
	cfg    Config
	sizes  Sizes
	tmp    string // removed at the end of Run
	node   string // path of node, "" when absent or skipped
	bun    string // path of bun, "" when absent or skipped, then bunWhy says why
	bunWhy string
	git    string // path of git, "" when absent
}

func (r *run) progress(format string, args ...any) {
	if r.cfg.Progress != nil {
		fmt.Fprintf(r.cfg.Progress, "bench: "+format+"\n", args...)
	}
}

// Run runs the named scenarios (all when names is empty) and returns their
// report. A scenario that fails ends the run with its error.
func Run(ctx context.Context, names []string, cfg Config) (*Report, error) {
	if len(names) == 0 {
		names = Scenarios()
	}
	for _, n := range names {
		if !slices.Contains(Scenarios(), n) {
			return nil, fmt.Errorf("bench: no scenario %q: use one of %s", n, strings.Join(Scenarios(), ", "))
		}
	}
	if cfg.Rounds <= 0 {
		cfg.Rounds = DefaultRounds
		if cfg.Quick {
			cfg.Rounds = DefaultQuickRounds
		}
	}
	r := &run{cfg: cfg, sizes: cfg.Sizes}
	if r.sizes.CallDuration == 0 {
		r.sizes = DefaultSizes(cfg.Quick)
	}
	if !cfg.NoNode {
		r.node = lookPath("node")
	}
	r.git = lookPath("git")
	tmp, err := os.MkdirTemp("", "beeuni-bench-")
	if err != nil {
		return nil, fmt.Errorf("bench: make a temporary folder: %w", err)
	}
	r.tmp = tmp
	defer os.RemoveAll(tmp)

	rep := &Report{Machine: probeMachine(ctx), Command: cfg.Command, Rounds: cfg.Rounds, Quick: cfg.Quick, Started: time.Now().UTC()}
	if slices.Contains(names, ScenarioCall) || slices.Contains(names, ScenarioMemory) {
		if cfg.NoBun {
			r.bunWhy = "skipped by --no-bun"
		} else {
			r.progress("installing %s from the npm cache", bunPackage)
			r.bun, r.bunWhy = findBun(ctx, tmp)
			rep.Machine.Bun = toolVersion(ctx, r.bun, "--version")
		}
		if r.bunWhy != "" {
			r.progress("no Bun baseline: %s", r.bunWhy)
		}
	}
	scenarios := map[string]func(context.Context) (*Scenario, error){
		ScenarioCall: r.call, ScenarioConverge: r.converge, ScenarioRelease: r.release,
		ScenarioReload: r.reload, ScenarioBundle: r.bundle, ScenarioMemory: r.memory, ScenarioFleet: r.fleetScale,
	}
	for _, n := range Scenarios() {
		if !slices.Contains(names, n) {
			continue
		}
		r.progress("%s: start", n)
		start := time.Now()
		sc, err := scenarios[n](ctx)
		if err != nil {
			return nil, fmt.Errorf("bench %s: %w", n, err)
		}
		sc.Elapsed = Duration(time.Since(start))
		rep.Scenarios = append(rep.Scenarios, sc)
		r.progress("%s: done in %s", n, time.Since(start).Round(100*time.Millisecond))
	}
	rep.Elapsed = Duration(time.Since(rep.Started))
	return rep, nil
}

// scratch makes a new folder under the run's temporary folder.
func (r *run) scratch(name string) (string, error) {
	dir, err := os.MkdirTemp(r.tmp, name+"-")
	if err != nil {
		return "", fmt.Errorf("make a scratch folder: %w", err)
	}
	return dir, nil
}
