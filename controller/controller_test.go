package controller

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/internal/modcheck"
	"github.com/beeuni/beeuni/release"
)

func TestPublishesHeadOnce(t *testing.T) {
	f := newFixture(t)
	commit := f.Commit("first tools", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	// Untracked and ignored files never enter a release.
	os.WriteFile(filepath.Join(f.RepoDir, "untracked.txt"), []byte("x"), 0o644)
	c := f.start(nil)
	rec := f.WaitDesiredCommit(commit, waitFor)
	if rec.Status != release.StatusPublished || rec.Seq != 1 || rec.Subject != "first tools" || !strings.Contains(rec.Author, "ada@example.com") {
		t.Fatalf("record = %+v", rec)
	}
	var paths []string
	for _, e := range rec.Entries {
		paths = append(paths, e.Path)
	}
	if !slices.Equal(paths, []string{"beeuni.yaml", "tools/greet.ts"}) {
		t.Fatalf("entries = %v, want exactly the tracked files", paths)
	}
	if len(rec.Tools) != 2 || rec.Tools[1].Name != "greet" || rec.Tools[1].Digest == "" {
		t.Fatalf("tools = %+v", rec.Tools)
	}
	for _, e := range rec.Entries {
		if has, err := f.Bus.HasContent(context.Background(), e.Digest); err != nil || !has {
			t.Fatalf("content of %s not published: %v", e.Path, err)
		}
	}
	// Nudges and restarts with no new commit publish nothing again.
	c.Nudge()
	c.Nudge()
	c.stop()
	c = f.start(nil)
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); !st.Healthy || st.LastCommit != commit {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
	if got := f.EventTypes(); !slices.Equal(got, []string{"release.built"}) {
		t.Fatalf("events = %v, want one release.built", got)
	}
}

func TestRejectedCommitKeepsLastGood(t *testing.T) {
	f := newFixture(t)
	good := f.Commit("good", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	goodRec := f.WaitDesiredCommit(good, waitFor)

	bad := f.Commit("bad", map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:image_search\n"})
	c.Nudge()
	natstest.WaitFor(t, waitFor, func() error {
		if got := f.EventTypes(); len(got) != 2 {
			return fmt.Errorf("events %v, want the bad commit %s handled", got, bad)
		}
		return nil
	})
	p, err := f.Desired()
	if err != nil || p.Release != goodRec.ID {
		t.Fatalf("desired = %+v, %v; want the last good release %s", p, err, goodRec.ID)
	}
	ids, err := f.Bus.ListReleases(context.Background(), "demo")
	if err != nil || len(ids) != 2 {
		t.Fatalf("releases = %v, %v", ids, err)
	}
	var rejected *release.Record
	for _, id := range ids {
		if r := f.record(id); r.Commit == bad {
			rejected = r
		}
	}
	if rejected == nil || rejected.Status != release.StatusRejected || len(rejected.Findings) != 1 ||
		!strings.Contains(rejected.Findings[0].Message, "must be `beeuni:web_search` (the Beeuni tool)") || rejected.Findings[0].Line != 2 {
		t.Fatalf("rejected record = %+v", rejected)
	}
	if got := f.EventTypes(); !slices.Equal(got, []string{"release.built", "release.rejected"}) {
		t.Fatalf("events = %v", got)
	}
	// A rejected release never reaches the fleet, not even by a replay.
	if _, err := c.Replay(context.Background(), rejected.ID); err == nil || !strings.Contains(err.Error(), "was rejected") {
		t.Fatalf("replay of the rejected %s: %v", rejected.ID, err)
	}
	if p, err := f.Desired(); err != nil || p.Release != goodRec.ID || p.Replay {
		t.Fatalf("desired after the refused replay = %+v, %v", p, err)
	}
}

func TestModuleThatDoesNotLoadIsAWarning(t *testing.T) {
	f := newFixture(t)
	commit := f.Commit("broken tool", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": "export default { description: 'x', parameters: { type: 'object' }, execute() { return 1 }\n"})
	f.start(nil)
	rec := f.WaitDesiredCommit(commit, waitFor)
	if len(rec.Warnings) != 1 || !strings.Contains(rec.Warnings[0].Message, "tool greet does not load") || rec.Warnings[0].File != "tools/greet.ts" {
		t.Fatalf("warnings = %+v", rec.Warnings)
	}
}

// TestModulesNotCheckedWithoutLandlock: where the kernel lacks Landlock the
// check process refuses to run; the release is still published, and its
// record says which modules were not checked, and why.
func TestModulesNotCheckedWithoutLandlock(t *testing.T) {
	f := newFixture(t)
	commit := f.Commit("a tool", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	none := 0
	f.start(func(c *Config) { c.CheckModules = checkModules(modcheck.Options{KernelABI: &none}) })
	rec := f.WaitDesiredCommit(commit, waitFor)
	if len(rec.Warnings) != 1 || rec.Warnings[0].File != "tools/greet.ts" ||
		!strings.Contains(rec.Warnings[0].Message, "tool greet was not load-checked: modules not checked: the check process refused to run: this kernel has no Landlock") {
		t.Fatalf("warnings = %+v", rec.Warnings)
	}
}

// TestDataFolderMade: a controller whose data folder does not exist yet
// makes it, and the release is checked and carries its bundles (the bench
// once ran every release unchecked and without bundles for lack of it).
func TestDataFolderMade(t *testing.T) {
	f := newFixture(t)
	commit := f.Commit("a tool", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	f.start(func(c *Config) { c.DataDir = filepath.Join(t.TempDir(), "not", "yet") })
	rec := f.WaitDesiredCommit(commit, waitFor)
	if len(rec.Warnings) != 0 || rec.Bundles == nil {
		t.Fatalf("warnings %+v, bundles %+v: want none and a bundle pack", rec.Warnings, rec.Bundles)
	}
}

func TestBurstCoversCommits(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	f.WaitDesiredCommit(first, waitFor)
	second := f.Commit("two", map[string]string{"a.txt": "a"})
	third := f.Commit("three", map[string]string{"b.txt": "b"})
	c.Nudge()
	rec := f.WaitDesiredCommit(third, waitFor)
	if !slices.Equal(rec.Covers, []string{third, second}) || rec.Seq != 2 || rec.Previous == "" {
		t.Fatalf("covers = %v seq %d previous %q", rec.Covers, rec.Seq, rec.Previous)
	}
}

// TestStatusToken: with a token, /status needs it (the scheme in any
// case); the merge hook needs only its HMAC.
func TestStatusToken(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(func(cfg *Config) { cfg.HookSecret, cfg.Token = "hook", "ctl-token" })
	f.WaitDesiredCommit(first, waitFor)
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	cases := []struct {
		method, path, auth string
		want               int
	}{
		{"GET", "/status", "", http.StatusUnauthorized},
		{"GET", "/status", "Bearer wrong", http.StatusUnauthorized},
		{"GET", "/status", "bearer ctl-token", http.StatusOK},
		{"GET", "/status", "Bearer ctl-token", http.StatusOK},
		{"POST", "/hooks/merge", "", http.StatusAccepted},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		if tc.auth != "" {
			req.Header.Set("Authorization", tc.auth)
		}
		if tc.method == "POST" {
			req.Header.Set("X-Beeuni-Signature", Sign("hook", nil))
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s %s %q: %s, want %d", tc.method, tc.path, tc.auth, resp.Status, tc.want)
		}
	}
}

func TestMergeHook(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(func(cfg *Config) { cfg.HookSecret = "s3cret" })
	f.WaitDesiredCommit(first, waitFor)
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()

	body := []byte(`{"commit": "` + first + `"}`)
	cases := []struct {
		name string
		body []byte
		sig  string
		want int
	}{
		{"no signature", body, "", http.StatusUnauthorized},
		{"wrong signature", body, Sign("other", body), http.StatusUnauthorized},
		{"malformed signature", body, "sha256=zz", http.StatusUnauthorized},
		{"not json", []byte("{"), Sign("s3cret", []byte("{")), http.StatusBadRequest},
		{"good, empty body", nil, Sign("s3cret", nil), http.StatusAccepted},
		{"good", body, Sign("s3cret", body), http.StatusAccepted},
	}
	for _, tc := range cases {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hooks/merge", bytes.NewReader(tc.body))
		if tc.sig != "" {
			req.Header.Set("X-Beeuni-Signature", tc.sig)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: status %d, want %d", tc.name, resp.StatusCode, tc.want)
		}
	}
	// A signed hook makes the controller look at once (the poll is an hour).
	second := f.Commit("two", map[string]string{"c.txt": "c"})
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/hooks/merge", bytes.NewReader(body))
	req.Header.Set("X-Beeuni-Signature", Sign("s3cret", body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	f.WaitDesiredCommit(second, waitFor)
}

func TestReplayHoldsUntilNewCommit(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	r1 := f.WaitDesiredCommit(first, waitFor)
	second := f.Commit("two", map[string]string{"tools/greet.ts": strings.Replace(greetTool, "hello", "hi", 1)})
	c.Nudge()
	f.WaitDesiredCommit(second, waitFor)

	// Replay over NATS, as `beeuni release replay` does.
	ans, err := f.Bus.Control(context.Background(), "demo", "replay", []byte(`{"release": "`+r1.ID+`"}`))
	if err != nil || !strings.Contains(string(ans), r1.ID) {
		t.Fatalf("replay: %s, %v", ans, err)
	}
	p, err := f.Desired()
	if err != nil || p.Release != r1.ID || !p.Replay {
		t.Fatalf("desired after replay = %+v, %v", p, err)
	}
	// It holds across polls and restarts ...
	c.Nudge()
	c.stop()
	c = f.start(nil)
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); !st.Healthy || st.Pinned != r1.ID {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
	if p, _ := f.Desired(); p.Release != r1.ID {
		t.Fatalf("replay did not hold: desired %s", p.Release)
	}
	// ... and yields to a new commit.
	third := f.Commit("three", map[string]string{"d.txt": "d"})
	c.Nudge()
	rec := f.WaitDesiredCommit(third, waitFor)
	if rec.Seq != 3 {
		t.Fatalf("seq = %d", rec.Seq)
	}
	// The status follows the desired pointer's put: poll it.
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); st.Pinned != "" {
			return fmt.Errorf("pin kept after a new commit: %+v", st)
		}
		return nil
	})
	// A rejected or unknown release cannot be replayed.
	if _, err := f.Bus.Control(context.Background(), "demo", "replay", []byte(`{"release": "r9-000000000000"}`)); err == nil {
		t.Fatal("replay of an unknown release succeeded")
	}
}

func TestGitUnreachableThenBack(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	r1 := f.WaitDesiredCommit(first, waitFor)

	// A commit lands just as the repository becomes unreachable.
	second := f.Commit("two", map[string]string{"e.txt": "e"})
	hidden := f.RepoDir + ".away"
	if err := os.Rename(f.RepoDir, hidden); err != nil {
		t.Fatal(err)
	}
	c.Nudge()
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); st.Healthy || !strings.Contains(st.Error, "open repository") {
			return fmt.Errorf("status %+v, want an unreachable-repository error", st)
		}
		return nil
	})
	if p, _ := f.Desired(); p.Release != r1.ID {
		t.Fatalf("fleet lost its release while git was away: %+v", p)
	}
	if err := os.Rename(hidden, f.RepoDir); err != nil {
		t.Fatal(err)
	}
	// No nudge: the backoff retry finds it.
	f.WaitDesiredCommit(second, waitFor)
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); !st.Healthy {
			return fmt.Errorf("status %+v", st)
		}
		return nil
	})
}

func TestNATSDownThenBackPublishesOnce(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	r1 := f.WaitDesiredCommit(first, waitFor)

	// NATS goes away; a commit lands; the controller builds and stores it but
	// cannot publish, and says so.
	opts := f.NATS.Options()
	opts.Port = f.NATS.Port()
	f.NATS.Shutdown()
	second := f.Commit("two", map[string]string{"tools/greet.ts": strings.Replace(greetTool, "hello", "hey", 1)})
	c.Nudge()
	natstest.WaitFor(t, waitFor, func() error {
		if st := c.Status(); st.Healthy || st.Pending == "" {
			return fmt.Errorf("status %+v, want built-but-unpublished", st)
		}
		return nil
	})
	// A replay now would be undone by the pending publish: it is refused.
	if _, err := c.Replay(context.Background(), r1.ID); err == nil || !strings.Contains(err.Error(), "is still being published") {
		t.Fatalf("replay while %s is pending: %v", c.Status().Pending, err)
	}
	// The controller is killed here and a new one starts when NATS is back:
	// the pending release is published, not built again.
	c.stop()
	natstest.WaitFor(t, waitFor, func() error {
		e, err := events.StartEmbedded(opts)
		if err == nil {
			f.NATS = e
			t.Cleanup(e.Shutdown)
		}
		return err
	})
	c = f.start(nil)
	rec := f.WaitDesiredCommit(second, waitFor)
	if rec.Seq != 2 {
		t.Fatalf("seq = %d: the commit was built twice", rec.Seq)
	}
	if got := f.EventTypes(); !slices.Equal(got, []string{"release.built", "release.built"}) {
		t.Fatalf("events = %v, want two release.built", got)
	}
}

// TestUnknownKeyWarningInRecord: the controller reads the manifest with the
// validate command's parser, so a typo's warning reaches the release record.
func TestUnknownKeyWarningInRecord(t *testing.T) {
	f := newFixture(t)
	commit := f.Commit("typo", map[string]string{"beeuni.yaml": "agents:\n  x:\n    tool: [read]\n"})
	f.start(nil)
	rec := f.WaitDesiredCommit(commit, waitFor)
	want := release.Finding{File: "beeuni.yaml", Line: 3, Severity: release.SeverityWarning, Message: `unknown key "tool": did you mean "tools"?`}
	if len(rec.Warnings) != 1 || rec.Warnings[0] != want {
		t.Fatalf("warnings = %+v, want [%+v]", rec.Warnings, want)
	}
}
