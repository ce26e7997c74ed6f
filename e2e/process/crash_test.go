package process

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// TestExecutorKilledWhileConverging kills the executor (SIGKILL, through
// its failpoints) at each step of converging on r2 and restarts it: it
// serves one whole release, r1 or r2, never a mix, and ends on r2.
func TestExecutorKilledWhileConverging(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nats := newNATS(t)
	for _, step := range []string{"fetch", "laid-out", "loaded", "switched", "persisted"} {
		t.Run(step, func(t *testing.T) {
			t.Parallel()
			project := "crash-" + step
			repo := newRepo(t, project)
			c1 := repo.commit("greet v1", v1Files())
			ctl := startController(t, nats, project, repo.dir, dataDir(t, "controller"))
			r1 := ctl.published(t, c1)

			ex := startExecutor(t, nats.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
			ex.converged(t, r1)
			checkWhole(t, ex, map[string]string{r1: "v1"})
			ex.kill()

			// The failpoint is armed only now, so r1 was converged on in peace.
			ex = ex.restart(t, "BEEUNI_FAILPOINT="+step)
			ex.converged(t, r1)
			c2 := repo.commit("greet v2, farewell", v2Files())
			r2 := ctl.published(t, c2)
			if !ex.waitExit(startTimeout) {
				t.Fatalf("the executor did not die at failpoint %s while converging on %s", step, r2)
			}
			if sig, ok := ex.killedBy(); !ok || sig != syscall.SIGKILL {
				t.Fatalf("the executor ended with %v, want SIGKILL at failpoint %s", ex.cmd.ProcessState, step)
			}

			// First without NATS, so what the crash left on disk is what it
			// serves: r2 only once it was persisted.
			versions := map[string]string{r1: "v1", r2: "v2"}
			ex = ex.restartWithNATS(t, "nats://"+freeAddr(t))
			waitFor(t, startTimeout, "the restarted executor ready without NATS", func() error {
				if err := ex.alive(); err != nil {
					return fmt.Errorf("%w: %w", errFatal, err)
				}
				return ex.ready()
			})
			want := r1
			if step == "persisted" {
				want = r2
			}
			if got := checkWhole(t, ex, versions); got != want {
				t.Fatalf("after a crash at %s the executor restored %s, want %s", step, got, want)
			}
			ex.kill()

			ex = ex.restartWithNATS(t, nats.url())
			waitFor(t, startTimeout, "the restarted executor ready", func() error {
				if err := ex.alive(); err != nil {
					return fmt.Errorf("%w: %w", errFatal, err)
				}
				return ex.ready()
			})
			checkWhole(t, ex, versions)
			// Every look while it converges sees one whole release.
			waitFor(t, startTimeout, "the restarted executor on "+r2, func() error {
				if err := ex.alive(); err != nil {
					return fmt.Errorf("%w: %w", errFatal, err)
				}
				if got := checkWhole(t, ex, versions); got != r2 {
					return fmt.Errorf("serving %s", got)
				}
				return nil
			})
			ex.converged(t, r2)
		})
	}
}

// checkWhole looks at what the executor serves and fails the test unless
// it is one whole release of versions (release id -> version): the tool
// list is exactly that release's tools, and each answer comes from the
// release it names. It returns the release the tool list names.
func checkWhole(t *testing.T, ex *executorProc, versions map[string]string) string {
	t.Helper()
	l, err := ex.tools()
	if err != nil {
		t.Fatalf("list tools: %v", err)
	}
	ver, ok := versions[l.Release]
	if !ok {
		t.Fatalf("the executor lists tools of release %q, want one of %v", l.Release, versions)
	}
	want := []string{"greet"}
	if ver == "v2" {
		want = []string{"farewell", "greet"}
	}
	if got := l.names(); !slices.Equal(got, want) || len(l.Failed) != 0 {
		t.Fatalf("release %s (%s) lists tools %v (failed %v), want exactly %v: a mix of releases", l.Release, ver, got, l.Failed, want)
	}
	for _, tool := range []string{"greet", "farewell"} {
		code, r, err := ex.call(tool, `{"name":"Ada"}`)
		if err != nil {
			t.Fatalf("call %s: %v", tool, err)
		}
		switch {
		case code == http.StatusNotFound && tool == "farewell":
			// Served by a release without farewell: r1, or a switch since the list.
		case code != http.StatusOK || r.IsError:
			t.Fatalf("call %s: %d %+v", tool, code, r)
		default:
			cv, ok := versions[r.Release]
			if !ok || r.Output != tool+" "+cv+" Ada" {
				t.Fatalf("call %s answered %q from release %q: not that release's module (releases %v)", tool, r.Output, r.Release, versions)
			}
			if tool == "farewell" && cv != "v2" {
				t.Fatalf("farewell answered from %s, a release without it", r.Release)
			}
		}
	}
	if !strings.HasPrefix(l.Release, "r") {
		t.Fatalf("release id %q", l.Release)
	}
	return l.Release
}
