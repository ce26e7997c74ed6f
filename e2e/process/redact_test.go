package process

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestCredentialsRedacted: a repository URL with a password, served by a
// loopback server that refuses it. The controller retries; its /status,
// its log lines and `beeuni status` never show the password.
func TestCredentialsRedacted(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	var hits atomic.Int64
	git := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusUnauthorized)
	}))
	defer git.Close()
	nf := newNATS(t)
	url := strings.Replace(git.URL, "http://", "http://alice:hunter2@", 1) + "/project.git"
	ctl := startController(t, nf, "creds", url, dataDir(t, "controller"))
	var st ctlStatus
	waitFor(t, startTimeout, "the controller to retry the fetch", func() error {
		if err := ctl.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		var err error
		if st, err = ctl.status(); err != nil {
			return err
		}
		if hits.Load() < 3 || st.Error == "" {
			return fmt.Errorf("%d fetches, status error %q", hits.Load(), st.Error)
		}
		return nil
	})
	var raw map[string]any
	if _, err := getJSON(ctl.url("/status"), &raw); err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(url, "alice:hunter2", "***", 1); raw["repo"] != want || !strings.Contains(st.Error, "***@") {
		t.Errorf("status repo %q, error %q: want %s in both", raw["repo"], st.Error, want)
	}
	logs, _ := os.ReadFile(ctl.stderr)
	if !strings.Contains(string(logs), "look at the branch failed") {
		t.Fatalf("no retry in the log:\n%s", logs)
	}
	for what, text := range map[string]string{"status": fmt.Sprint(raw), "log": string(logs)} {
		if strings.Contains(text, "hunter2") {
			t.Errorf("the %s shows the password:\n%s", what, text)
		}
	}
}

// TestNamesEscaped: a file name and a commit subject with terminal control
// sequences are printed escaped by `release ls` and `release show`.
func TestNamesEscaped(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "escapes"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	// go-git refuses such a name; Git itself commits it.
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: it is what commits a file name with control characters")
	}
	repo.commit("greet v1", v1Files())
	if err := os.MkdirAll(filepath.Join(repo.dir, "notes"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo.dir, "notes", "\x1b[31mred\x07.txt"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitCmd := exec.Command("git", "-C", repo.dir, "-c", "user.name=Mallory", "-c", "user.email=m@example.com", "commit", "-q",
		"-m", "evil \x1b]0;owned\x07 subject\x1b[2J", "--", "notes")
	if err := exec.Command("git", "-C", repo.dir, "add", "notes").Run(); err != nil {
		t.Fatal(err)
	}
	if out, err := gitCmd.CombinedOutput(); err != nil {
		t.Fatalf("git commit: %v\n%s", err, out)
	}
	head, err := exec.Command("git", "-C", repo.dir, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Fatal(err)
	}
	r1 := ctl.published(t, strings.TrimSpace(string(head)))
	for _, args := range [][]string{
		{"release", "ls"},
		{"release", "show", r1},
	} {
		out := cli(t, append(args, "--nats", nf.url(), "--project", project)...)
		if strings.ContainsAny(out, "\x1b\x07") {
			t.Errorf("beeuni %s prints raw control characters:\n%q", strings.Join(args, " "), out)
		}
		if !strings.Contains(out, `evil \x1b]0;owned\x07 subject\x1b[2J`) {
			t.Errorf("beeuni %s does not show the subject escaped:\n%s", strings.Join(args, " "), out)
		}
	}
	if out := cli(t, "release", "show", r1, "--nats", nf.url(), "--project", project); !strings.Contains(out, `notes/\x1b[31mred\x07.txt`) {
		t.Errorf("release show does not list the file name escaped:\n%s", out)
	}
}
