package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/loader/bundle"
)

// switchEvery spaces the switches of the Server.Switch variant of reload.
const switchEvery = 50 * time.Millisecond

// reloadFigures are one variant's per-round figures: during switches and in
// steady state.
type reloadFigures struct {
	p50, p99, sp50, sp99 []float64
	failed, sfailed      []float64
	calls                int
}

func (rf *reloadFigures) add(res loadResult, steadyEnd, switchStart, switchEnd time.Duration) {
	steady := res.okLatencies(0, steadyEnd)
	during := res.okLatencies(switchStart, switchEnd)
	rf.sp50 = append(rf.sp50, ms(percentile(steady, 0.5)))
	rf.sp99 = append(rf.sp99, ms(percentile(steady, 0.99)))
	rf.p50 = append(rf.p50, ms(percentile(during, 0.5)))
	rf.p99 = append(rf.p99, ms(percentile(during, 0.99)))
	rf.failed = append(rf.failed, float64(res.failed(switchStart, switchEnd+time.Hour)))
	rf.sfailed = append(rf.sfailed, float64(res.failed(0, steadyEnd)))
	rf.calls += len(res.samples)
}

func (r *run) reload(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioReload,
		Title:     fmt.Sprintf("%d releases switching under the steady load of %d clients", r.sizes.Switches, r.sizes.ReloadClients),
		Baselines: []string{"steady state, no switch"}}
	viaCtl, firstErr, err := r.reloadController(ctx)
	if err != nil {
		return nil, err
	}
	viaSwitch, firstErr2, err := r.reloadSwitch(ctx)
	if err != nil {
		return nil, err
	}
	if firstErr == "" {
		firstErr = firstErr2
	}
	failed := 0.0
	for _, v := range []struct {
		label string
		f     *reloadFigures
	}{{"real converging (controller)", viaCtl}, {"Server.Switch, preloaded sets", viaSwitch}} {
		sc.row(v.label, "failed calls", "lower", v.f.failed, v.f.sfailed)
		sc.row(v.label, "p50 ms", "lower", v.f.p50, v.f.sp50)
		p := sc.row(v.label, "p99 ms", "lower", v.f.p99, v.f.sp99)
		sc.target(v.label+": p99 during switches under 2x steady state", p.Baselines[0].Ratio < 2,
			"%.2fx (%s ms vs %s ms)", p.Baselines[0].Ratio, fmtNum(p.Beeuni.Median), fmtNum(p.Baselines[0].Stat.Median))
		for _, x := range append(v.f.failed, v.f.sfailed...) {
			failed += x
		}
		sc.note("%s: %d calls in all", v.label, v.f.calls)
	}
	msg := fmt.Sprintf("%.0f failed", failed)
	if firstErr != "" {
		msg += "; first: " + firstErr
	}
	sc.target("failed calls: 0", failed == 0, "%s", msg)
	sc.note("real converging: one executor of a fleet (embedded NATS, controller on a go-git repository, all in this process); each switch is a commit + merge hook, waited for until the executor serves it; the controller's build and the executor's bundle and load share the cores with the load")
	sc.note("Server.Switch: executor.Server with %d tool sets loaded beforehand, switched every %s (old sets are freed under load)", r.sizes.Switches, switchEvery)
	sc.note("steady state: the same load on the same server for %s just before the switches", r.sizes.SteadyDuration)
	return sc, nil
}

// reloadController drives real releases through the controller while the
// load runs against one executor.
func (r *run) reloadController(ctx context.Context) (*reloadFigures, string, error) {
	dir, err := r.scratch("reload")
	if err != nil {
		return nil, "", err
	}
	version := 0
	f, err := startFleet(ctx, dir, greetFiles(version))
	if err != nil {
		return nil, "", err
	}
	defer f.close()
	if err := f.addExecutors(ctx, 1); err != nil {
		return nil, "", err
	}
	spec := callSpec{url: f.execs[0].url + "/beeuni/tools/greet", body: []byte(`{"name":"bench"}`), check: okCall}
	figs := &reloadFigures{}
	firstErr := ""
	for round := range r.cfg.Rounds {
		r.progress("reload: real converging, round %d/%d", round+1, r.cfg.Rounds)
		res, steadyEnd, switchStart, switchEnd, err := r.underLoad(ctx, spec, func(ctx context.Context) error {
			for range r.sizes.Switches {
				version++
				if _, err := f.release(ctx, greetFiles(version), time.Minute); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return nil, "", err
		}
		if firstErr == "" {
			firstErr = res.firstErr
		}
		figs.add(res, steadyEnd, switchStart, switchEnd)
	}
	return figs, firstErr, nil
}

// reloadSwitch switches preloaded tool sets on a bare executor server while
// the load runs.
func (r *run) reloadSwitch(ctx context.Context) (*reloadFigures, string, error) {
	dir, err := r.scratch("switch")
	if err != nil {
		return nil, "", err
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	b := bundle.New(nil)
	load := func(v int) (*executor.ToolSet, error) {
		d := filepath.Join(dir, fmt.Sprintf("v%d", v))
		if err := writeTree(d, greetFiles(v)); err != nil {
			return nil, err
		}
		return loadToolSet(ctx, d, fmt.Sprintf("v%d", v), b, r.tmp)
	}
	first := filepath.Join(dir, "v0")
	if err := writeTree(first, greetFiles(0)); err != nil {
		return nil, "", err
	}
	srv, url, err := serveToolSet(ctx, &wg, first, "v0", r.tmp)
	if err != nil {
		return nil, "", err
	}
	spec := callSpec{url: url + "/beeuni/tools/greet", body: []byte(`{"name":"bench"}`), check: okCall}
	figs := &reloadFigures{}
	firstErr := ""
	version := 0
	for round := range r.cfg.Rounds {
		r.progress("reload: Server.Switch, round %d/%d", round+1, r.cfg.Rounds)
		sets := make([]*executor.ToolSet, r.sizes.Switches)
		for i := range sets {
			version++
			if sets[i], err = load(version); err != nil {
				for _, s := range sets[:i] {
					s.Discard()
				}
				return nil, "", err
			}
		}
		res, steadyEnd, switchStart, switchEnd, err := r.underLoad(ctx, spec, func(ctx context.Context) error {
			t := time.NewTicker(switchEvery)
			defer t.Stop()
			for i, s := range sets {
				srv.Switch(s)
				sets[i] = nil
				select {
				case <-t.C:
				case <-ctx.Done():
					for _, s := range sets[i+1:] {
						s.Discard()
					}
					return ctx.Err()
				}
			}
			return nil
		})
		if err != nil {
			return nil, "", err
		}
		if firstErr == "" {
			firstErr = res.firstErr
		}
		figs.add(res, steadyEnd, switchStart, switchEnd)
	}
	return figs, firstErr, nil
}

// underLoad runs the reload load: a steady phase, then switches, then stops
// the load. It returns the load and the phases' bounds (from the load's
// start).
func (r *run) underLoad(ctx context.Context, spec callSpec, switches func(context.Context) error) (res loadResult, steadyEnd, switchStart, switchEnd time.Duration, err error) {
	client := newClient()
	defer client.CloseIdleConnections()
	// Warm the connections up so the steady phase does not pay for them.
	runLoad(ctx, client, spec, r.sizes.ReloadClients, 200*time.Millisecond, nil)
	stop := make(chan struct{})
	done := make(chan loadResult, 1)
	start := time.Now()
	go func() { done <- runLoad(ctx, client, spec, r.sizes.ReloadClients, 0, stop) }()
	select {
	case <-time.After(r.sizes.SteadyDuration):
	case <-ctx.Done():
	}
	steadyEnd = time.Since(start)
	switchStart = steadyEnd
	err = switches(ctx)
	switchEnd = time.Since(start)
	close(stop)
	res = <-done
	return res, steadyEnd, switchStart, switchEnd, err
}
