package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/beeuni/beeuni/events"
)

// procFleet is n `beeuni executor` child processes on one fleet, and what
// their executor.converged events say: which release each serves, and
// when the stream stored the event (just after the switch and its persist).
type procFleet struct {
	f     *fleet
	procs []*executorProcess

	mu    sync.Mutex
	seen  map[string]map[string]time.Time // release -> executor id -> event time
	added chan struct{}                   // an event arrived
}

func (p *procFleet) note(ev events.Event) {
	var body struct {
		Executor string `json:"executor"`
		Release  string `json:"release"`
	}
	if json.Unmarshal(ev.Payload, &body) != nil || body.Executor == "" {
		return
	}
	at := ev.Time
	if at.IsZero() {
		at = time.Now()
	}
	p.mu.Lock()
	if p.seen[body.Release] == nil {
		p.seen[body.Release] = map[string]time.Time{}
	}
	if _, ok := p.seen[body.Release][body.Executor]; !ok {
		p.seen[body.Release][body.Executor] = at
	}
	p.mu.Unlock()
	select {
	case p.added <- struct{}{}:
	default:
	}
}

// serving returns when each of the processes published converged on
// release id, once all have.
func (p *procFleet) serving(id string) (map[string]time.Time, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	got := p.seen[id]
	return got, len(got) == len(p.procs)
}

// wait waits until every process has converged on the controller's next
// release after before (or on before itself when next is false).
func (p *procFleet) wait(ctx context.Context, before string, next bool, timeout time.Duration) (string, map[string]time.Time, error) {
	t := time.NewTimer(timeout)
	defer t.Stop()
	for {
		want := p.f.ctl.Status().Desired
		if !next || want != before {
			if got, ok := p.serving(want); ok {
				return want, got, nil
			}
		}
		select {
		case <-p.added:
		case <-time.After(5 * time.Millisecond): // the controller's status moves without an event
		case <-t.C:
			got, _ := p.serving(want)
			return "", nil, fmt.Errorf("%d of %d executor processes converged on release %q within %s%s", len(got), len(p.procs), want, timeout, p.f.stopped())
		case <-ctx.Done():
			return "", nil, ctx.Err()
		}
	}
}

// convergeProcesses adds the rows of n executor processes to sc: the same
// rounds as in one process, timed from the merge hook's POST until each
// process's executor.converged event is stored.
func (r *run) convergeProcesses(ctx context.Context, sc *Scenario, bin string, version *int) error {
	for _, n := range r.sizes.ExecutorProcs {
		r.progress("converge: starting %d executor processes", n)
		dir, err := r.scratch(fmt.Sprintf("converge-procs-%d", n))
		if err != nil {
			return err
		}
		if err := r.convergeProcessRows(ctx, sc, bin, dir, n, version); err != nil {
			return err
		}
	}
	return nil
}

func (r *run) convergeProcessRows(ctx context.Context, sc *Scenario, bin, dir string, n int, version *int) error {
	f, err := startFleetOn(ctx, dir, greetFiles(*version), 1, bin)
	if err != nil {
		return err
	}
	defer f.close()
	pub, err := f.pubKeyFile()
	if err != nil {
		return err
	}
	p := &procFleet{f: f, seen: map[string]map[string]time.Time{}, added: make(chan struct{}, 1)}
	sctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer wg.Wait()
	defer stop()
	wg.Go(func() {
		_ = f.bus.SubscribeEvents(sctx, events.EventFilter{Project: benchProject, Type: events.EventExecutorConverged}, p.note)
	})
	defer func() {
		for _, x := range p.procs {
			x.stop()
		}
	}()
	for i := range n {
		x, err := startExecutorProcess(ctx, bin, f, pub, filepath.Join(dir, "exec", fmt.Sprint(i)), fmt.Sprintf("p%03d", i), true)
		if err != nil {
			return err
		}
		p.procs = append(p.procs, x)
	}
	if _, _, err := p.wait(ctx, "", false, 3*time.Minute); err != nil {
		return fmt.Errorf("start %d executor processes: %w%s", n, err, p.logs(f.ctl.Status().Desired))
	}
	var p50, p99, all []float64
	for round := range r.cfg.Rounds {
		r.progress("converge: %d executor processes, round %d/%d", n, round+1, r.cfg.Rounds)
		if err := r.quietGap(ctx); err != nil {
			return err
		}
		*version++
		before := f.ctl.Status().Desired
		commit, err := f.commit(greetFiles(*version))
		if err != nil {
			return err
		}
		start := time.Now()
		if err := f.hook(ctx, commit); err != nil {
			return err
		}
		_, got, err := p.wait(ctx, before, true, 2*time.Minute)
		if err != nil {
			return fmt.Errorf("%w%s", err, p.logs(f.ctl.Status().Desired))
		}
		took := make([]time.Duration, 0, len(got))
		for _, at := range got {
			took = append(took, max(at.Sub(start), 0))
		}
		a, b, c := spread(took)
		p50, p99, all = append(p50, a), append(p99, b), append(all, c)
	}
	label := fmt.Sprintf("%d executor processes", n)
	sc.row(label, "p50 ms", "lower", p50).skip(0, "no baseline: see the rows in one process")
	sc.row(label, "p99 ms", "lower", p99).skip(0, "no baseline: see the rows in one process")
	sc.row(label, "all serving ms", "lower", all).skip(0, "no baseline: see the rows in one process")
	return nil
}

// logs is the output of the first few processes that have not converged
// on release, for an error.
func (p *procFleet) logs(release string) string {
	got, _ := p.serving(release)
	out, shown := "", 0
	for i, x := range p.procs {
		if _, ok := got[fmt.Sprintf("p%03d", i)]; ok || shown == 3 {
			continue
		}
		shown++
		state := "running"
		select {
		case err := <-x.done:
			state = fmt.Sprintf("exited: %v", err)
			x.done <- err
		default:
		}
		out += fmt.Sprintf("\n---- executor process p%03d (%s) ----\n%s", i, state, x.log.String())
	}
	return out
}

// executorBinary is the beeuni binary scenarios start as `beeuni executor`.
func (r *run) executorBinary() (string, error) {
	if r.cfg.Binary != "" {
		return r.cfg.Binary, nil
	}
	bin, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find the beeuni binary: %w (pass Config.Binary)", err)
	}
	return bin, nil
}

// quietGap waits Sizes.ConvergeGap before a converge round: a merge comes
// after the work the last one left behind is done (the controller's next
// check process starting, the executors' cache clean-up), as merges do; a
// burst of releases is the reload scenario's.
func (r *run) quietGap(ctx context.Context) error {
	if r.sizes.ConvergeGap <= 0 {
		return nil
	}
	t := time.NewTimer(r.sizes.ConvergeGap)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
