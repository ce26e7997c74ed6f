package process

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/internal/confine"
)

// TestShippedDescriptions: the controller's module check ships what each
// module it loaded told (description, parameters) with the release's
// bundles, and the executor loads those modules without evaluating them:
// a module that throws at import only where the executor's environment has
// BEEUNI_E2E_EXECUTOR is served as the controller described it, and the
// first call evaluates it and answers why it does not load there. After a
// restart (NATS down) the executor loads the same way from its own cache.
func TestShippedDescriptions(t *testing.T) {
	needProcesses(t)
	if confine.KernelABI() < confine.MinABI {
		t.Skip("no Landlock on this kernel: the controller's module check does not run, and nothing is shipped")
	}
	t.Parallel()
	nf := newNATS(t)
	const project = "shipped"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("two tools", map[string]string{
		"beeuni.yaml":   "tools:\n  good: tools/good.ts\n  here: tools/here.ts\n",
		"tools/good.ts": module("good", "v1"),
		"tools/here.ts": "if (process.env.BEEUNI_E2E_EXECUTOR) throw new Error('not on an executor')\n" + module("here", "v1"),
	}))
	env := "BEEUNI_E2E_EXECUTOR=1"
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey(), env)
	ex.converged(t, r1)
	check := func(ex *executorProc) {
		t.Helper()
		l, err := ex.tools()
		if err != nil {
			t.Fatal(err)
		}
		if got := l.names(); !slices.Equal(got, []string{"good", "here"}) || len(l.Failed) != 0 {
			t.Fatalf("the executor serves %v (failed %+v), want good and here as the release describes them", got, l.Failed)
		}
		if r := ex.mustCall(t, "good", `{"name":"Ada"}`); r.Output != "good v1 Ada" {
			t.Errorf("good answered %q", r.Output)
		}
		code, r, err := ex.call("here", `{}`)
		if err != nil || code != http.StatusOK || !r.IsError ||
			!strings.Contains(r.Output, "tool here does not load on this executor (the controller's check loaded it)") ||
			!strings.Contains(r.Output, "not on an executor") {
			t.Errorf("call here: %d %+v %v, want an error that says it does not load here and why", code, r, err)
		}
	}
	check(ex)

	nf.stop()
	ex.kill()
	ex = ex.restart(t, env)
	waitFor(t, startTimeout, "the executor ready without NATS", ex.ready)
	check(ex)
}
