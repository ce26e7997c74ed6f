package process

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// httpc is the tests' client: every request has a deadline.
var httpc = &http.Client{Timeout: 20 * time.Second}

// controllerProc is `beeuni controller` as a child process.
type controllerProc struct {
	*proc
	addr, data, repo, project string
	nats                      *natsFix
}

// startController runs a controller for project on repo; it polls every
// 30 s, so the tests drive it with the merge hook.
func startController(tb testing.TB, nf *natsFix, project, repo, data string, env ...string) *controllerProc {
	tb.Helper()
	return startControllerBinary(tb, bin, nf, project, repo, data, env...)
}

// startControllerBinary is startController with another beeuni binary.
func startControllerBinary(tb testing.TB, binary string, nf *natsFix, project, repo, data string, env ...string) *controllerProc {
	tb.Helper()
	c := &controllerProc{addr: freeAddr(tb), data: data, repo: repo, project: project, nats: nf}
	c.proc = startProgram(tb, "controller "+project, data, env, binary, "controller", "--repo", repo, "--nats", nf.url(),
		"--project", project, "--listen", c.addr, "--data", data, "--poll", "30s")
	waitFor(tb, startTimeout, "the controller's /healthz", func() error {
		if err := c.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		_, err := getJSON(c.url("/healthz"), nil)
		return err
	})
	return c
}

func (c *controllerProc) url(path string) string { return "http://" + c.addr + path }

// restart starts the controller again on the same data and address.
func (c *controllerProc) restart(tb testing.TB, env ...string) *controllerProc {
	tb.Helper()
	n := *c
	n.proc = startProgram(tb, c.name, c.data, env, c.cmd.Path, c.cmd.Args[1:]...)
	waitFor(tb, startTimeout, "the restarted controller's /healthz", func() error {
		if err := n.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		_, err := getJSON(n.url("/healthz"), nil)
		return err
	})
	return &n
}

// ctlStatus is the part of the controller's GET /status the tests read.
type ctlStatus struct {
	LastCommit  string `json:"last_commit"`
	Desired     string `json:"desired"`
	LastRelease string `json:"last_release"`
	Healthy     bool   `json:"healthy"`
	Error       string `json:"error"`
}

func (c *controllerProc) status() (ctlStatus, error) {
	var s ctlStatus
	_, err := getJSON(c.url("/status"), &s)
	return s, err
}

// hook calls the merge hook and expects 202.
func (c *controllerProc) hook(tb testing.TB) {
	tb.Helper()
	resp, err := httpc.Post(c.url("/hooks/merge"), "application/json", nil)
	if err != nil {
		tb.Fatalf("merge hook: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		tb.Fatalf("merge hook: %s, want 202", resp.Status)
	}
}

// published nudges the controller and waits until commit is the fleet's
// desired release on NATS; it returns the release id.
func (c *controllerProc) published(tb testing.TB, commit string) string {
	tb.Helper()
	c.hook(tb)
	var id string
	waitFor(tb, startTimeout, "commit "+commit[:8]+" published", func() error {
		if err := c.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		ptr, got, err := c.nats.desired(tb.Context(), c.project)
		if err != nil {
			return err
		}
		if got != commit {
			return fmt.Errorf("the desired release is %s of commit %s", ptr.Release, got)
		}
		id = ptr.Release
		return nil
	})
	return id
}

// trustKey is the controller's public key file, made at its first start.
func (c *controllerProc) trustKey() string { return filepath.Join(c.data, "signing.key.pub") }

// executorProc is `beeuni executor` as a child process.
type executorProc struct {
	*proc
	binary, id, addr, data string
	args                   []string
}

// startExecutor runs executor id of project with a trust key; env may set
// BEEUNI_FAILPOINT. It waits for /healthz only: readiness is the test's.
func startExecutor(tb testing.TB, natsURL, project, id, data, trust string, env ...string) *executorProc {
	tb.Helper()
	return startExecutorBinary(tb, bin, natsURL, project, id, data, trust, env...)
}

// startExecutorBinary is startExecutor with another beeuni binary.
func startExecutorBinary(tb testing.TB, binary, natsURL, project, id, data, trust string, env ...string) *executorProc {
	tb.Helper()
	e := &executorProc{binary: binary, id: id, addr: freeAddr(tb), data: data}
	e.args = []string{"executor", "--id", id, "--listen", e.addr, "--data", data, "--nats", natsURL,
		"--project", project, "--trust-key", trust}
	e.launch(tb, env)
	return e
}

func (e *executorProc) launch(tb testing.TB, env []string) {
	tb.Helper()
	e.proc = startProgram(tb, "executor "+e.id, e.data, env, e.binary, e.args...)
	waitFor(tb, startTimeout, "executor "+e.id+" /healthz", func() error {
		if err := e.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		_, err := getJSON(e.url("/healthz"), nil)
		return err
	})
}

// restart starts the executor again with the same id, data and address.
func (e *executorProc) restart(tb testing.TB, env ...string) *executorProc {
	tb.Helper()
	n := &executorProc{binary: e.binary, id: e.id, addr: e.addr, data: e.data, args: e.args}
	n.launch(tb, env)
	return n
}

// restartWithNATS restarts the executor with another --nats URL.
func (e *executorProc) restartWithNATS(tb testing.TB, natsURL string, env ...string) *executorProc {
	tb.Helper()
	args := slices.Clone(e.args)
	args[slices.Index(args, "--nats")+1] = natsURL
	n := &executorProc{binary: e.binary, id: e.id, addr: e.addr, data: e.data, args: args}
	n.launch(tb, env)
	return n
}

func (e *executorProc) url(path string) string { return "http://" + e.addr + path }

// exStatus is the part of GET /beeuni/status the tests read.
type exStatus struct {
	Release string `json:"release"`
	Desired string `json:"desired"`
	State   string `json:"state"`
	Error   string `json:"error"`
}

func (e *executorProc) status() (exStatus, error) {
	var s exStatus
	_, err := getJSON(e.url("/beeuni/status"), &s)
	return s, err
}

// converged waits until the executor serves release id, converged.
func (e *executorProc) converged(tb testing.TB, id string) {
	tb.Helper()
	waitFor(tb, startTimeout, "executor "+e.id+" converged on "+id, func() error {
		if err := e.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		s, err := e.status()
		if err != nil {
			return err
		}
		if s.Release != id || s.State != "converged" {
			return fmt.Errorf("executor status %+v", s)
		}
		return nil
	})
}

// callResp is the 200 answer of a tool call.
type callResp struct {
	Output  string `json:"output"`
	IsError bool   `json:"is_error"`
	Release string `json:"release"`
	Error   string `json:"error"` // the 4xx answers
}

// call posts body to tool and returns the status code and the answer.
func (e *executorProc) call(tool, body string) (int, callResp, error) {
	var r callResp
	resp, err := httpc.Post(e.url("/beeuni/tools/"+tool), "application/json", strings.NewReader(body))
	if err != nil {
		return 0, r, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, r, err
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return resp.StatusCode, r, fmt.Errorf("call %s: %s: not JSON: %q", tool, resp.Status, b)
	}
	return resp.StatusCode, r, nil
}

// mustCall calls tool and wants a 200 that is not an error.
func (e *executorProc) mustCall(tb testing.TB, tool, body string) callResp {
	tb.Helper()
	code, r, err := e.call(tool, body)
	if err != nil || code != http.StatusOK || r.IsError {
		tb.Fatalf("call %s on executor %s: %d %+v %v", tool, e.id, code, r, err)
	}
	return r
}

// toolList is GET /beeuni/tools.
type toolList struct {
	Release string `json:"release"`
	Tools   []struct {
		Name string `json:"name"`
	} `json:"tools"`
	Failed []struct {
		Name   string `json:"name"`
		Source string `json:"source"`
		Reason string `json:"reason"`
	} `json:"failed"`
}

func (l toolList) names() []string {
	var out []string
	for _, t := range l.Tools {
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

func (e *executorProc) tools() (toolList, error) {
	var l toolList
	_, err := getJSON(e.url("/beeuni/tools"), &l)
	return l, err
}

// ready reports whether GET /readyz answers 200.
func (e *executorProc) ready() error {
	resp, err := httpc.Get(e.url("/readyz"))
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("/readyz: %s", resp.Status)
	}
	return nil
}

// getJSON GETs url, wants 200 and decodes the body into v (when not nil).
func getJSON(url string, v any) (int, error) {
	resp, err := httpc.Get(url)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, fmt.Errorf("GET %s: %s: %s", url, resp.Status, bytes.TrimSpace(b))
	}
	if v != nil {
		if err := json.Unmarshal(b, v); err != nil {
			return resp.StatusCode, fmt.Errorf("GET %s: %w", url, err)
		}
	}
	return resp.StatusCode, nil
}

// fleetStatus is `beeuni status --json`.
type fleetStatus struct {
	Desired   string `json:"desired"`
	Executors []struct {
		ID        string `json:"id"`
		Release   string `json:"release"`
		State     string `json:"state"`
		Converged bool   `json:"converged"`
		Error     string `json:"error"`
		Failed    []struct {
			Name   string `json:"name"`
			Source string `json:"source"`
			Reason string `json:"reason"`
		} `json:"failed"`
	} `json:"executors"`
}

func beeuniStatus(tb testing.TB, natsURL, project string) fleetStatus {
	tb.Helper()
	var s fleetStatus
	out := cli(tb, "status", "--json", "--nats", natsURL, "--project", project)
	if err := json.Unmarshal([]byte(out), &s); err != nil {
		tb.Fatalf("beeuni status --json: %v\n%s", err, out)
	}
	return s
}

// dataDir makes a fresh data folder named name.
func dataDir(tb testing.TB, name string) string {
	tb.Helper()
	d := filepath.Join(tb.TempDir(), name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		tb.Fatal(err)
	}
	return d
}
