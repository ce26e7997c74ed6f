package bench

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/beeuni/beeuni/events"
)

// fanoutProject is the key of the baseline's bare KV puts: no executor
// watches it.
const fanoutProject = "benchfanout"

// greetFiles is the fleet scenarios' project at version v: one tool whose
// module changes with every release.
func greetFiles(v int) map[string]string {
	return map[string]string{
		"beeuni.yaml": "tools:\n  greet: tools/greet.ts\n",
		"tools/greet.ts": fmt.Sprintf(`export default {
  description: 'Greet someone (version %d).',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  execute(args: { name?: string }): string { return 'Hello, ' + (args.name ?? 'you') + ' from version %d' },
}
`, v, v),
	}
}

// fanout is the converge baseline: every executor's NATS connection watches
// one more key of the desired-release bucket, and a bare put of it is timed
// until every watcher has it. It is the floor of the fan-out that converging
// rides on, without verify, fetch, lay out, load and switch.
type fanout struct {
	mu     sync.Mutex
	target uint64
	start  time.Time
	took   []time.Duration
	got    chan struct{}
}

func (fo *fanout) watch(ctx context.Context, wg *sync.WaitGroup, bus *events.Bus) {
	fo.mu.Lock()
	idx := len(fo.took)
	fo.took = append(fo.took, 0)
	fo.mu.Unlock()
	wg.Go(func() {
		_ = bus.WatchDesired(ctx, fanoutProject, func(_ []byte, rev uint64) {
			fo.mu.Lock()
			hit := rev == fo.target && fo.took[idx] == 0
			if hit {
				fo.took[idx] = time.Since(fo.start)
			}
			fo.mu.Unlock()
			if hit {
				fo.got <- struct{}{}
			}
		})
	})
}

// put publishes a new value and waits until every watcher has it.
func (fo *fanout) put(ctx context.Context, bus *events.Bus, round int) ([]time.Duration, error) {
	fo.mu.Lock()
	n := len(fo.took)
	clear(fo.took)
	fo.got = make(chan struct{}, n)
	// The revision is known only after the put: hold the lock so no watcher
	// sees the value before the target is set.
	fo.start = time.Now()
	rev, err := bus.PutDesired(ctx, fanoutProject, fmt.Appendf(nil, "round %d", round))
	fo.target = rev
	fo.mu.Unlock()
	if err != nil {
		return nil, err
	}
	timeout := time.After(time.Minute)
	for range n {
		select {
		case <-fo.got:
		case <-timeout:
			return nil, fmt.Errorf("a bare KV put did not reach %d watchers within a minute", n)
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	fo.mu.Lock()
	defer fo.mu.Unlock()
	return slices.Clone(fo.took), nil
}

func (r *run) converge(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioConverge, Title: "merge hook to every executor serving the new release",
		Baselines: []string{"bare NATS KV put to N watchers"}}
	version := 0
	bin, err := r.executorBinary()
	if err != nil {
		return nil, err
	}
	// As `beeuni controller` runs: changed modules checked in a confined
	// child before the release is signed. Then the smallest and largest
	// sizes again without the check, to show what it costs.
	if err := r.convergeInProcess(ctx, sc, &version, r.sizes.Executors, bin); err != nil {
		return nil, err
	}
	if n := len(r.sizes.Executors); n > 0 {
		bare := []int{r.sizes.Executors[0]}
		if n > 1 {
			bare = append(bare, r.sizes.Executors[n-1])
		}
		if err := r.convergeInProcess(ctx, sc, &version, bare, ""); err != nil {
			return nil, err
		}
	}
	if len(r.sizes.ExecutorProcs) > 0 {
		if err := r.convergeProcesses(ctx, sc, bin, &version); err != nil {
			return nil, err
		}
	}
	sc.note("all in this process: embedded NATS, the controller on a go-git repository, N executors each with its own NATS connection, data folder, bbolt file, bundler and HTTP listener")
	if r.sizes.ConvergeGap > 0 {
		sc.note("rounds are %s apart (the work a merge leaves behind is done before the next, as between merges; bursts are the reload scenario's)", r.sizes.ConvergeGap)
	}
	sc.note("each round commits a changed tool module, then times from the merge hook's HTTP POST until each executor's server has switched to the new release (polled every 1 ms)")
	sc.note("the time covers the controller's build, validation (bundles, and the changed module loaded in a confined check process as `beeuni controller` does; rows \"no module check\": without that process), signing, publish, and each executor's verify, fetch, lay out, load and switch")
	sc.note("baseline: one bare KV put on the same NATS server and bucket until every executor's connection has it (watch callbacks, no polling)")
	if len(r.sizes.ExecutorProcs) > 0 {
		sc.note("executor processes: `beeuni executor` child processes of this binary on a fleet of their own (embedded NATS, controller); timed from the hook's POST to the JetStream time of each process's executor.converged event, which it publishes just after the switch and its bbolt commit")
	}
	return sc, nil
}

// convergeInProcess adds the rows of executors in this process to sc, for
// each of sizes; with checkBin the controller checks modules in a confined
// `checkBin internal check` process.
func (r *run) convergeInProcess(ctx context.Context, sc *Scenario, version *int, sizes []int, checkBin string) error {
	dir, err := r.scratch("converge")
	if err != nil {
		return err
	}
	f, err := startFleetOn(ctx, dir, greetFiles(*version), 1, checkBin)
	if err != nil {
		return err
	}
	defer f.close()
	fo := &fanout{}
	var wg sync.WaitGroup
	wctx, stop := context.WithCancel(ctx)
	defer wg.Wait()
	defer stop()

	for _, n := range sizes {
		add := n - len(f.execs)
		r.progress("converge: starting %d more executors (%d in all)", add, n)
		if err := f.addExecutors(ctx, add); err != nil {
			return err
		}
		for _, e := range f.execs[len(f.execs)-add:] {
			fo.watch(wctx, &wg, e.bus)
		}
		// Let the new watchers get the current value before timing.
		if _, err := fo.put(ctx, f.bus, -1); err != nil {
			return err
		}
		var p50, p99, all, b50, b99, ball []float64
		var pooled []time.Duration
		for round := range r.cfg.Rounds {
			r.progress("converge: %d executors, round %d/%d", n, round+1, r.cfg.Rounds)
			if err := r.quietGap(ctx); err != nil {
				return err
			}
			*version++
			took, err := f.release(ctx, greetFiles(*version), 2*time.Minute)
			if err != nil {
				return err
			}
			pooled = append(pooled, took...)
			a, b, c := spread(took)
			p50, p99, all = append(p50, a), append(p99, b), append(all, c)
			base, err := fo.put(ctx, f.bus, round)
			if err != nil {
				return err
			}
			a, b, c = spread(base)
			b50, b99, ball = append(b50, a), append(b99, b), append(ball, c)
		}
		label := fmt.Sprintf("%d executor", n)
		if n > 1 {
			label += "s"
		}
		if checkBin == "" {
			label += ", no module check"
		}
		sc.row(label, "p50 ms", "lower", p50, b50)
		p := sc.row(label, "p99 ms", "lower", p99, b99)
		sc.row(label, "all serving ms", "lower", all, ball)
		if n == 100 && checkBin != "" {
			slices.Sort(pooled)
			sc.target("100 executors: p99 under 250 ms", p.Beeuni.Median < 250,
				"p99 median over rounds %s ms (worst round %s ms; p99 of all %d samples %s ms)",
				fmtNum(p.Beeuni.Median), fmtNum(p.Beeuni.Max), len(pooled), fmtNum(ms(percentile(pooled, 0.99))))
		}
	}
	if !slices.Contains(r.sizes.Executors, 100) {
		sc.targetSkipped("100 executors: p99 under 250 ms", "not run at these sizes (100 executors run without --quick)")
	}
	return nil
}

// spread returns the p50, p99 and maximum of durations, in ms.
func spread(ds []time.Duration) (p50, p99, all float64) {
	s := slices.Clone(ds)
	slices.Sort(s)
	return ms(percentile(s, 0.5)), ms(percentile(s, 0.99)), ms(s[len(s)-1])
}
