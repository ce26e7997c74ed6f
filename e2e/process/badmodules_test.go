package process

import (
	"fmt"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

// badModules is a project whose tool set has a good tool, two that never
// return (a pending promise, an endless loop; 200 ms deadlines), one that
// throws at import and one with a syntax error.
func badModules() map[string]string {
	const head = "export default {\n  description: 'Never returns.',\n  parameters: { type: 'object', properties: {} },\n  timeout: 200,\n"
	return map[string]string{
		"beeuni.yaml": "tools:\n  good: tools/good.ts\n  hang: tools/hang.ts\n  spin: tools/spin.ts\n" +
			"  throws: tools/throws.ts\n  syntax: tools/syntax.ts\n",
		"tools/good.ts":   module("good", "v1"),
		"tools/hang.ts":   head + "  execute() { return new Promise(() => {}) },\n}\n",
		"tools/spin.ts":   head + "  execute() { for (;;) {} },\n}\n",
		"tools/throws.ts": "const boom = (): never => { throw new Error('boom at import') }\nboom()\n" + module("throws", "v1"),
		"tools/syntax.ts": "export default { description: 'broken' parameters: {\n",
	}
}

// TestBadModules: modules that never return, throw at import or do not
// parse leave the rest of the tool set serving, and the fleet reports them.
func TestBadModules(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "badmodules"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("bad modules", badModules()))
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
	ex.converged(t, r1)

	l, err := ex.tools()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := l.names(), []string{"good", "hang", "spin"}; !slices.Equal(got, want) {
		t.Fatalf("the executor serves %v, want %v", got, want)
	}
	reasons := map[string]string{}
	for _, f := range l.Failed {
		reasons[f.Name] = f.Reason
	}
	if len(reasons) != 2 || !strings.Contains(reasons["throws"], "boom at import") || reasons["syntax"] == "" {
		t.Fatalf("GET /beeuni/tools reports failures %+v, want throws (boom at import) and syntax", l.Failed)
	}

	// The endless ones time out while the good one answers alongside.
	var wg sync.WaitGroup
	for _, tool := range []string{"hang", "spin", "hang", "spin"} {
		wg.Go(func() {
			code, r, err := ex.call(tool, `{}`)
			if err != nil || code != http.StatusOK || !r.IsError || !strings.Contains(r.Output, "timed out") {
				t.Errorf("call %s: %d %+v %v, want a 200 error that says it timed out", tool, code, r, err)
			}
		})
	}
	for range 20 {
		if r := ex.mustCall(t, "good", `{"name":"Ada"}`); r.Output != "good v1 Ada" {
			t.Errorf("good answered %q while others ran away", r.Output)
		}
	}
	wg.Wait()
	for _, tool := range []string{"throws", "syntax"} {
		code, r, err := ex.call(tool, `{}`)
		if err != nil || code != http.StatusNotFound || r.Error != "no tool named "+tool+" is loaded" {
			t.Errorf("call %s: %d %+v %v, want 404 no tool named %s is loaded", tool, code, r, err, tool)
		}
	}
	if r := ex.mustCall(t, "good", `{"name":"Bo"}`); r.Output != "good v1 Bo" {
		t.Errorf("good answered %q after the timeouts", r.Output)
	}

	waitFor(t, startTimeout, "beeuni status to report the failed tools", func() error {
		s := beeuniStatus(t, nf.url(), project)
		if len(s.Executors) != 1 || s.Executors[0].Release != r1 {
			return fmt.Errorf("status %+v", s)
		}
		var failed []string
		for _, f := range s.Executors[0].Failed {
			if f.Reason == "" {
				return fmt.Errorf("tool %s failed with no reason", f.Name)
			}
			failed = append(failed, f.Name)
		}
		slices.Sort(failed)
		if !slices.Equal(failed, []string{"syntax", "throws"}) {
			return fmt.Errorf("status lists failed tools %v, want syntax and throws", failed)
		}
		return nil
	})
	out, err := exec.Command(bin, "status", "--nats", nf.url(), "--project", project).Output()
	if err != nil {
		t.Fatalf("beeuni status: %v", err)
	}
	for _, want := range []string{"Tools that failed to load:", "a: throws (tools/throws.ts): ", "boom at import", "a: syntax (tools/syntax.ts): "} {
		if !strings.Contains(string(out), want) {
			t.Errorf("beeuni status does not say %q:\n%s", want, out)
		}
	}
}
