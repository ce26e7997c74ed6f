package process

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// banner is what `beeuni up` prints once it serves.
type banner struct {
	release, curlURL, curlArgs, nats string
}

var (
	bannerRelease = regexp.MustCompile(`beeuni is up: project \S+, release (\S+),`)
	bannerCurl    = regexp.MustCompile(`curl -s -X POST (\S+) -d '([^']*)'`)
	bannerNATS    = regexp.MustCompile(`NATS\s+(nats://\S+)`)
)

// waitBanner waits until the up process printed its banner and parses it.
func waitBanner(t *testing.T, up *proc) banner {
	t.Helper()
	var b banner
	waitFor(t, startTimeout, "the banner of beeuni up", func() error {
		if err := up.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		out := up.output()
		r, c, n := bannerRelease.FindStringSubmatch(out), bannerCurl.FindStringSubmatch(out), bannerNATS.FindStringSubmatch(out)
		if r == nil || c == nil || n == nil {
			return errors.New("no banner with a release, a curl line and NATS yet")
		}
		b = banner{release: r[1], curlURL: c[1], curlArgs: c[2], nats: n[1]}
		return nil
	})
	return b
}

// postCall calls a tool by its URL and wants 200.
func postCall(t *testing.T, url, body string) callResp {
	t.Helper()
	var r callResp
	resp, err := httpc.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("POST %s: %s %+v %v", url, resp.Status, r, err)
	}
	return r
}

// releaseCount is how many releases `beeuni release ls --json` lists.
func releaseCount(t *testing.T, natsURL, project string) int {
	t.Helper()
	var list []struct {
		ID string `json:"id"`
	}
	out := cli(t, "release", "ls", "--json", "--limit", "0", "--nats", natsURL, "--project", project)
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("release ls --json: %v\n%s", err, out)
	}
	return len(list)
}

// TestUpDemo is the newcomer's path with the real binary: up, call with
// the printed curl line, commit, hook, see the new answer, Ctrl-C, up again.
func TestUpDemo(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	dir := t.TempDir()
	listen := freeAddr(t)
	args := []string{"up", "--demo", "--nats-port", "-1", "--listen", listen}
	up := startProc(t, "beeuni up", dir, nil, args...)
	b := waitBanner(t, up)
	if want := "http://" + listen + "/beeuni/tools/greet"; b.curlURL != want {
		t.Fatalf("the banner's curl line calls %s, want %s", b.curlURL, want)
	}
	r := postCall(t, b.curlURL, b.curlArgs)
	if !strings.HasPrefix(r.Output, "Hello, Ada") || r.IsError || r.Release != b.release {
		t.Fatalf("the printed curl line answered %+v, want Hello, Ada from %s", r, b.release)
	}

	demo := filepath.Join(dir, ".beeuni", "demo")
	src, err := os.ReadFile(filepath.Join(demo, "tools", "greet.ts"))
	if err != nil {
		t.Fatal(err)
	}
	changed := strings.Replace(string(src), "`Hello, ", "`Howdy, ", 1)
	if changed == string(src) {
		t.Fatalf("the demo's greet.ts has no `Hello, to change:\n%s", src)
	}
	head := commitIn(t, demo, "Say howdy", map[string]string{"tools/greet.ts": changed})
	resp, err := httpc.Post("http://"+listen+"/hooks/merge", "application/json", strings.NewReader(`{"commit":"`+head+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("merge hook: %s, want 202", resp.Status)
	}
	var r2 string
	waitFor(t, startTimeout, "the changed greet to answer", func() error {
		r := postCall(t, b.curlURL, b.curlArgs)
		if !strings.HasPrefix(r.Output, "Howdy, Ada") {
			return fmt.Errorf("greet answers %q from %s", r.Output, r.Release)
		}
		if r.Release == b.release {
			t.Fatalf("the changed tool answered from the old release %s", r.Release)
		}
		r2 = r.Release
		return nil
	})
	if n := releaseCount(t, b.nats, "demo"); n != 2 {
		t.Fatalf("release ls lists %d releases after one change, want 2", n)
	}
	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up exited %d after SIGINT, want 0", code)
	}

	// Again in the same folder: the same release at once, nothing rebuilt.
	up = startProc(t, "beeuni up (again)", dir, nil, args...)
	b = waitBanner(t, up)
	if b.release != r2 {
		t.Fatalf("beeuni up again serves %s first, want %s (its last release)", b.release, r2)
	}
	if r := postCall(t, b.curlURL, b.curlArgs); r.Release != r2 || !strings.HasPrefix(r.Output, "Howdy, Ada") {
		t.Fatalf("after a restart greet answered %+v, want Howdy from %s", r, r2)
	}
	waitFor(t, startTimeout, "the restarted controller to look at the branch", func() error {
		var s struct {
			LastCommit string `json:"last_commit"`
			Healthy    bool   `json:"healthy"`
		}
		if _, err := getJSON("http://"+listen+"/controller/status", &s); err != nil {
			return err
		}
		if !s.Healthy || s.LastCommit != head {
			return fmt.Errorf("controller status %+v", s)
		}
		return nil
	})
	if n := releaseCount(t, b.nats, "demo"); n != 2 {
		t.Fatalf("after a restart release ls lists %d releases, want still 2 (no release built again)", n)
	}
	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up (again) exited %d after SIGINT, want 0", code)
	}
}
