package process

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
)

// TestExecutorRestartWithNATSDown restarts an executor while NATS is down:
// it serves its last release at once, and converges once NATS is back.
func TestExecutorRestartWithNATSDown(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "natsdown"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
	ex.converged(t, r1)

	nf.stop()
	ex.kill()
	ex = ex.restart(t)
	waitFor(t, startTimeout, "the executor ready without NATS", func() error {
		if err := ex.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		return ex.ready()
	})
	versions := map[string]string{r1: "v1"}
	if got := checkWhole(t, ex, versions); got != r1 {
		t.Fatalf("restarted without NATS, the executor serves %s, want its last release %s", got, r1)
	}

	nf.start(t)
	r2 := ctl.published(t, repo.commit("greet v2, farewell", v2Files()))
	ex.converged(t, r2)
	versions[r2] = "v2"
	if got := checkWhole(t, ex, versions); got != r2 {
		t.Fatalf("after NATS came back the executor serves %s, want %s", got, r2)
	}
}

// TestNATSRestartWithExecutorsRunning restarts NATS under two running
// executors: no call fails during the outage, and both converge on a
// release published once NATS is back.
func TestNATSRestartWithExecutorsRunning(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "natsrestart"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	exs := []*executorProc{
		startExecutor(t, nf.url(), project, "a", dataDir(t, "executor-a"), ctl.trustKey()),
		startExecutor(t, nf.url(), project, "b", dataDir(t, "executor-b"), ctl.trustKey()),
	}
	for _, ex := range exs {
		ex.converged(t, r1)
	}

	// Calls run all along: during the outage, the reconnect and the switch.
	var (
		mu       sync.Mutex
		calls    int
		failures []string
		wg       sync.WaitGroup
	)
	stop := make(chan struct{})
	for _, ex := range exs {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				code, r, err := ex.call("greet", `{"name":"Ada"}`)
				mu.Lock()
				calls++
				if err != nil || code != http.StatusOK || r.IsError || (r.Output != "greet v1 Ada" && r.Output != "greet v2 Ada") {
					failures = append(failures, fmt.Sprintf("executor %s: %d %+v %v", ex.id, code, r, err))
				}
				mu.Unlock()
			}
		})
	}
	finish := func() {
		close(stop)
		wg.Wait()
		mu.Lock()
		defer mu.Unlock()
		if len(failures) > 0 {
			t.Errorf("%d of %d calls failed across the NATS restart; first: %s", len(failures), calls, failures[0])
		}
	}

	nf.stop()
	for _, ex := range exs {
		if err := ex.ready(); err != nil {
			finish()
			t.Fatalf("executor %s with NATS down: %v", ex.id, err)
		}
	}
	mu.Lock()
	before := calls
	mu.Unlock()
	waitFor(t, startTimeout, "100 calls answered while NATS is down", func() error {
		mu.Lock()
		defer mu.Unlock()
		if n := calls - before; n < 100 {
			return fmt.Errorf("%d calls so far", n)
		}
		return nil
	})
	mu.Lock()
	t.Logf("%d calls answered while NATS was down", calls-before)
	mu.Unlock()
	nf.start(t)
	r2 := ctl.published(t, repo.commit("greet v2, farewell", v2Files()))
	for _, ex := range exs {
		ex.converged(t, r2)
	}
	finish()
	waitFor(t, startTimeout, "beeuni status to show both executors on "+r2, func() error {
		s := beeuniStatus(t, nf.url(), project)
		if s.Desired != r2 || len(s.Executors) != 2 {
			return fmt.Errorf("status %+v", s)
		}
		for _, e := range s.Executors {
			if e.Release != r2 || !e.Converged || e.State != "converged" {
				return fmt.Errorf("executor %s: %+v", e.ID, e)
			}
		}
		return nil
	})
}
