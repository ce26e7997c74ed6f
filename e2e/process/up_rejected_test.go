package process

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/internal/gitrepo"
)

// bannerStatus is the status command the banner prints.
var bannerStatus = regexp.MustCompile(`(?m)^  (\S.* status --project \S+(?: --nats \S+)?)   #`)

// runShell runs a command line as the user would paste it, in dir.
func runShell(t *testing.T, dir, line string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "sh", "-c", line)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "BEEUNI_NATS_URL=", "BEEUNI_PROJECT=")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if err != nil {
		err = fmt.Errorf("%s: %w\n%s", line, err, errb.String())
	}
	return out.String(), err
}

// TestUpShowsRejectedCommit: with the real binary, a commit whose manifest
// has an error is named by `up` as it happens and by `status` run as the
// banner prints it and, without flags, from the demo repository and the
// folder up runs in; the merge hook answers the commit it looks at; the
// embedded NATS server keeps its banner to itself.
func TestUpShowsRejectedCommit(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	dir := t.TempDir()
	listen := freeAddr(t)
	up := startProc(t, "beeuni up", dir, []string{"BEEUNI_LOG_LEVEL=info"}, "up", "--demo", "--nats-port", "-1", "--listen", listen)
	b := waitBanner(t, up)
	m := bannerStatus.FindStringSubmatch(up.output())
	if m == nil {
		t.Fatalf("the banner prints no status command:\n%s", up.output())
	}
	statusLine := m[1]
	if !strings.HasPrefix(statusLine, bin+" status --project demo --nats "+b.nats) {
		t.Errorf("the banner's status command %q does not run this binary on its NATS", statusLine)
	}
	if out, err := runShell(t, t.TempDir(), statusLine); err != nil || !strings.Contains(out, "Desired release: "+b.release) {
		t.Fatalf("the banner's status command, as printed: %v\n%s", err, out)
	}
	errb, _ := os.ReadFile(up.stderr)
	for _, noise := range []string{"Starting nats-server", "Starting JetStream", "component=nats-server"} {
		if bytes.Contains(errb, []byte(noise)) {
			t.Errorf("the embedded NATS server logged %q without --nats-log:\n%s", noise, errb)
		}
	}

	demo := filepath.Join(dir, ".beeuni", "demo")
	bad := commitIn(t, demo, "Break the manifest", map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:image_search\n"})
	resp, err := httpc.Post("http://"+listen+"/hooks/merge", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	var hook struct{ Status, Commit string }
	err = json.NewDecoder(resp.Body).Decode(&hook)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusAccepted || hook.Commit != bad {
		t.Fatalf("merge hook without a body: %s %+v (%v), want 202 naming the branch head %s", resp.Status, hook, err, bad)
	}

	rejected := []string{
		`Rejected: commit ` + bad[:12] + ` "Break the manifest" (release r2-`,
		"  beeuni.yaml:2: error: must be `beeuni:web_search`",
		"  The fleet stays on " + b.release + " until a commit passes.",
	}
	has := func(out string) error {
		for _, want := range rejected {
			if !strings.Contains(out, want) {
				return fmt.Errorf("no %q in:\n%s", want, out)
			}
		}
		return nil
	}
	waitFor(t, startTimeout, "beeuni up to print the rejected commit", func() error {
		if err := up.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		return has(up.output())
	})
	// `status` with no flags, from where a newcomer stands.
	for _, where := range []string{demo, dir, filepath.Join(demo, "tools")} {
		out, err := runShell(t, where, bin+" status")
		if err == nil {
			err = has(out)
		}
		if err == nil && !strings.Contains(out, "Desired release: "+b.release) {
			err = errors.New("no desired release " + b.release + " in:\n" + out)
		}
		if err != nil {
			t.Errorf("beeuni status in %s: %v", where, err)
		}
	}
	var ctl struct {
		Rejected struct{ Commit, Finding, StaysOn string } `json:"rejected"`
	}
	if _, err := getJSON("http://"+listen+"/controller/status", &ctl); err != nil || ctl.Rejected.Commit != bad ||
		!strings.HasPrefix(ctl.Rejected.Finding, "beeuni.yaml:2: error: ") {
		t.Errorf("GET /controller/status rejected = %+v (%v), want commit %s", ctl.Rejected, err, bad)
	}

	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up exited %d after SIGINT, want 0", code)
	}
	if _, err := os.Stat(filepath.Join(dir, ".beeuni", "up.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("beeuni up left .beeuni/up.json behind after it stopped: %v", err)
	}
}

// TestUpFirstCommitRejected: when the very first commit is rejected, the
// banner comes anyway, with no release and the rejection, instead of a
// minute of silence.
func TestUpFirstCommitRejected(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	repo := filepath.Join(t.TempDir(), "proj")
	if err := gitrepo.Init(repo); err != nil {
		t.Fatal(err)
	}
	bad := commitIn(t, repo, "First try", map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:image_search\n"})
	up := startProc(t, "beeuni up", t.TempDir(), nil, "up", "--repo", repo, "--nats-port", "-1", "--listen", freeAddr(t))
	waitFor(t, startTimeout, "the banner of a first rejected commit", func() error {
		if err := up.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		out := up.output()
		for _, want := range []string{"beeuni is up: project proj, no release yet", `Rejected: commit ` + bad[:12] + ` "First try"`,
			"  beeuni.yaml:2: error: ", "  No release was published yet: fix the manifest and commit."} {
			if !strings.Contains(out, want) {
				return fmt.Errorf("no %q in:\n%s", want, out)
			}
		}
		return nil
	})
	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up exited %d after SIGINT, want 0", code)
	}
}
