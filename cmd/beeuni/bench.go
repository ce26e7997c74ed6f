package main

import (
	"context"
	"os"
	"runtime/pprof"
	"strings"

	"github.com/beeuni/beeuni/bench"
	"github.com/beeuni/beeuni/internal/gctune"
)

// benchCmd is `beeuni bench [SCENARIO...]`: the benchmarks of SPEC section 9,
// each figure beside its baseline from the same run.
func (a *app) benchCmd(ctx context.Context, args []string) int {
	usage := "bench [SCENARIO...] [--json] [--rounds N] [--quick] [--no-node] [--no-bun] [--cpuprofile FILE]   (scenarios: " + strings.Join(bench.Scenarios(), ", ") + ")"
	fl := a.newFlags("bench", usage)
	asJSON := fl.Bool("json", false, "print the figures as JSON instead of tables")
	rounds := fl.Int("rounds", 0, "rounds per figure (default 5, 2 with --quick)")
	quick := fl.Bool("quick", false, "smaller sizes: a run of about a minute")
	noNode := fl.Bool("no-node", false, "skip the Node.js baselines even when node is on PATH")
	noBun := fl.Bool("no-bun", false, "skip the Bun baselines (no npm install of Bun either)")
	quiet := fl.Bool("quiet", false, "no progress lines on standard error")
	cpuProfile := fl.String("cpuprofile", "", "write a CPU profile of the whole run (the in-process NATS servers included) to this file, for `go tool pprof`")
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if *rounds < 0 {
		a.errorf(nil, "--rounds must be 1 or more, got %d", *rounds)
		return exitUsage
	}
	for _, p := range pos {
		if !contains(bench.Scenarios(), p) {
			a.errorf(nil, "no scenario %q: use one of %s", p, strings.Join(bench.Scenarios(), ", "))
			return exitUsage
		}
	}
	// The scenarios run beeuni's servers in this process: the collector is
	// set as `beeuni executor` sets it.
	gctune.Apply(a.getenv, gctune.CgroupV2)
	cfg := bench.Config{Rounds: *rounds, Quick: *quick, NoNode: *noNode, NoBun: *noBun, Command: "beeuni bench " + strings.Join(args, " ")}
	if !*quiet {
		cfg.Progress = a.stderr
	}
	if *cpuProfile != "" {
		// Everything a scenario runs is in this process, NATS servers too,
		// so one profile shows where a fan-out's time goes on both sides.
		f, err := os.Create(*cpuProfile)
		if err != nil {
			a.errorf(nil, "create the CPU profile: %v (pass a writable path to --cpuprofile)", err)
			return exitFailure
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			a.errorf(nil, "start the CPU profile: %v", err)
			return exitFailure
		}
		defer pprof.StopCPUProfile()
	}
	rep, err := bench.Run(ctx, pos, cfg)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	if *asJSON {
		err = rep.WriteJSON(a.stdout)
	} else {
		err = rep.WriteTable(a.stdout)
	}
	if err != nil {
		a.errorf(nil, "write the report: %v", err)
		return exitFailure
	}
	return exitOK
}
