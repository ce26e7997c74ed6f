package process

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// floodRequest is one request of a flood and the status it must get.
type floodRequest struct {
	kind, url, body string
	want            int
}

// flood sends n requests cycling through reqs with at most workers in
// flight; it returns one line per request that did not get its status or a
// JSON error body.
func flood(n, workers int, reqs []floodRequest) []string {
	var (
		mu   sync.Mutex
		bad  []string
		wg   sync.WaitGroup
		next = make(chan floodRequest)
	)
	for range workers {
		wg.Go(func() {
			for r := range next {
				if msg := floodOne(r); msg != "" {
					mu.Lock()
					bad = append(bad, msg)
					mu.Unlock()
				}
			}
		})
	}
	for i := range n {
		next <- reqs[i%len(reqs)]
	}
	close(next)
	wg.Wait()
	return bad
}

func floodOne(r floodRequest) string {
	resp, err := httpc.Post(r.url, "application/json", strings.NewReader(r.body))
	if err != nil {
		return fmt.Sprintf("%s: %v", r.kind, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Sprintf("%s: read the answer: %v", r.kind, err)
	}
	if resp.StatusCode != r.want {
		return fmt.Sprintf("%s: %s %s, want %d", r.kind, resp.Status, b, r.want)
	}
	if r.want >= 400 {
		var e struct {
			Error string `json:"error"`
		}
		if json.Unmarshal(b, &e) != nil || e.Error == "" {
			return fmt.Sprintf("%s: %s with body %q, want a JSON error that says what is wrong", r.kind, resp.Status, b)
		}
	}
	return ""
}

// TestFlood floods the executor's tool API and the controller's merge hook
// with concurrent good, oversized and malformed requests: each gets a clear
// answer, the executor's memory stays bounded, and the next commit still
// converges.
func TestFlood(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "flood"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
	ex.converged(t, r1)
	ex.mustCall(t, "greet", `{"name":"warm"}`)
	before := rss(t, ex.cmd.Process.Pid)

	huge := `{"name":"` + strings.Repeat("x", 2<<20) + `"}`
	call := ex.url("/beeuni/tools/greet")
	exReqs := []floodRequest{
		{"call", call, `{"name":"Ada"}`, http.StatusOK},
		{"2 MiB call", call, huge, http.StatusRequestEntityTooLarge},
		{"truncated JSON", call, `{"name":`, http.StatusBadRequest},
		{"JSON array", call, `[1,2,3]`, http.StatusBadRequest},
		{"unknown tool", ex.url("/beeuni/tools/nope"), `{}`, http.StatusNotFound},
	}
	hook := ctl.url("/hooks/merge")
	hookReqs := []floodRequest{
		{"empty hook", hook, ``, http.StatusAccepted},
		{"hook with a commit", hook, `{"commit":"0123456789abcdef0123456789abcdef01234567"}`, http.StatusAccepted},
		{"2 MiB hook", hook, huge, http.StatusRequestEntityTooLarge},
		{"hook not JSON", hook, `not json`, http.StatusBadRequest},
		{"hook bad commit", hook, `{"commit":"zz; rm -rf /"}`, http.StatusBadRequest},
	}
	var wg sync.WaitGroup
	var exBad, hookBad []string
	wg.Go(func() { exBad = flood(500, 32, exReqs) })
	wg.Go(func() { hookBad = flood(500, 32, hookReqs) })
	wg.Wait()
	for _, bad := range [][]string{exBad, hookBad} {
		if len(bad) > 0 {
			t.Errorf("%d requests of a flood were not answered as they should; first ones:\n%s", len(bad), strings.Join(bad[:min(5, len(bad))], "\n"))
		}
	}
	after := rss(t, ex.cmd.Process.Pid)
	t.Logf("executor RSS %d MB before, %d MB after 500 requests (100 of 2 MiB)", before>>20, after>>20)
	if after-before > 200<<20 {
		t.Errorf("executor RSS grew by %d MB in a flood, want under 200 MB", (after-before)>>20)
	}

	// Nothing lost: the next commit converges, built once.
	c2 := repo.commit("greet v2, farewell", v2Files())
	r2 := ctl.published(t, c2)
	ex.converged(t, r2)
	checkWhole(t, ex, map[string]string{r2: "v2"})
	recs, err := nf.releases(t.Context(), project)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("%d releases after two commits and a flood of hooks, want 2", len(recs))
	}
}
