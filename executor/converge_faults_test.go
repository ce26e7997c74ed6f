package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/release"
)

// An executor restarted while NATS is down serves its last tool set at once,
// then converges on the release published while it was away.
func TestConvergeRestartWithNATSDown(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	n := startNode(t, "e1", data, f.natsURL)
	n.waitConverged(f.first.ID)
	f.NATS.Shutdown()
	n.stop()

	n = startNode(t, "e1", data, f.natsURL)
	if r := n.mustDo("GET", "/readyz", ""); r.status != http.StatusOK {
		t.Fatalf("readyz right after the restart with NATS down: %d %s", r.status, r.body)
	}
	n.expectAnswer("", "v1", f.first.ID)

	// A commit lands while NATS is down: the controller retries until NATS is back.
	commit := f.Commit("v2", cproject("v2"))
	f.ctrl.Nudge()
	f.NATS = natstest.Restart(t, f.NATS)
	rec := f.WaitDesiredCommit(commit, convergeWait)
	n.waitConverged(rec.ID)
	n.expectAnswer("", "v2", rec.ID)
	waitFor(t, convergeWait, func() error {
		if rep, _, err := f.report("e1"); err != nil || rep.Release != rec.ID || rep.State != "converged" {
			return fmt.Errorf("report %+v %v, want %s converged", rep, err, rec.ID)
		}
		return nil
	})
}

// A converge that fails because NATS went away mid-fetch is tried again and
// succeeds once NATS is back, though no new release was published.
func TestConvergeRetriesAfterNATSOutage(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	reached, resume := make(chan struct{}), make(chan struct{})
	var once sync.Once
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) {
		c.Failpoint = func(step string) {
			if step == "fetch" {
				once.Do(func() {
					close(reached)
					select {
					case <-resume:
					case <-time.After(convergeWait):
					}
				})
			}
		}
	})
	select {
	case <-reached: // one file fetched, the others not yet
	case <-time.After(convergeWait):
		t.Fatal("the executor never fetched")
	}
	f.NATS.Shutdown()
	close(resume)
	waitFor(t, convergeWait, func() error {
		if st := n.status(); st.Error == "" || st.Release != "" {
			return fmt.Errorf("status %+v, want a converge error and no release", st)
		}
		return nil
	})
	f.NATS = natstest.Restart(t, f.NATS)
	if st := n.waitConverged(f.first.ID); st.Error != "" {
		t.Fatalf("error %q after converging", st.Error)
	}
	n.expectAnswer("", "v1", f.first.ID)
}

// A pointer signed by another key, a signed record whose entries do not match
// its digest, content whose bytes do not match its digest, and signed
// pointers and records that disagree (digest, id, project) or name a
// rejected release are refused; the executor keeps serving and says why in
// its status, report and a release_refused event.
func TestConvergeRefusesTampered(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	good := f.first
	n.waitConverged(good.ID)
	ctx := context.Background()
	_, otherKey, _ := ed25519GenerateKey(t)

	// A record that does not match its digest, correctly signed.
	altered := *good
	altered.Seq = good.Seq + 100
	altered.ID = release.FormatID(altered.Seq, altered.Digest)
	altered.Entries = slices.Clone(good.Entries)
	altered.Entries[0].Digest = strings.Repeat("0", 64)

	// A valid record with a new file whose stored bytes are not its digest.
	planted := "export default { description: 'p', execute() { return 'planted' } }\n"
	liar := *good
	liar.Seq = good.Seq + 200
	liar.Entries = append(slices.Clone(good.Entries), release.Entry{Path: "tools/zz.ts", Mode: release.ModeFile,
		Digest: sha256Hex("the real content\n"), Size: int64(len(planted))})
	liar.Digest = release.Digest(liar.Entries)
	liar.ID = release.FormatID(liar.Seq, liar.Digest)
	natstest.DamageContent(t, f.natsURL, sha256Hex("the real content\n"), []byte(planted))

	pointerTo := func(rec *release.Record) release.Pointer {
		return release.Pointer{Project: testProject, Release: rec.ID, Digest: rec.Digest, Seq: rec.Seq, At: time.Now().UTC()}
	}
	// Signatures and records that do not verify are refused for good;
	// content in NATS that does not match its signed digest is damaged
	// storage: never served, and tried again until the controller puts
	// the right bytes back.
	// Whole records, each refused for what the pointer or the record says.
	otherDigest := pointerTo(good)
	otherDigest.Digest = strings.Repeat("a", 64)
	otherProject := pointerTo(good)
	otherProject.Project = "other"
	moved := *good // stored under an id that is not its own
	moved.Seq = good.Seq + 300
	movedPtr := pointerTo(&moved)
	movedPtr.Release = release.FormatID(moved.Seq, moved.Digest)
	moved.Seq = good.Seq
	rejected := *good
	rejected.Seq = good.Seq + 400
	rejected.ID = release.FormatID(rejected.Seq, rejected.Digest)
	rejected.Status = release.StatusRejected
	foreign := *good
	foreign.Seq = good.Seq + 500
	foreign.ID = release.FormatID(foreign.Seq, foreign.Digest)
	foreign.Project = "other"
	cases := []struct {
		name    string
		rec     *release.Record // put signed by the controller's key first, if set
		pointer []byte
		want    string
		event   string
		events  int // of that type so far
	}{
		{"pointer signed by another key", nil, signed(t, otherKey, pointerTo(good)), "bad signature", "executor.release_refused", 1},
		{"record entries altered", &altered, signed(t, f.Key, pointerTo(&altered)), "tampered content", "executor.release_refused", 2},
		{"content bytes altered", &liar, signed(t, f.Key, pointerTo(&liar)), "NATS holds a damaged copy", "executor.converge_failed", 1},
	}
	for _, c := range cases {
		if c.rec != nil {
			key := c.rec.ID
			if c.rec == &moved {
				key = movedPtr.Release
			}
			if err := f.Bus.PutRelease(ctx, testProject, key, signed(t, f.Key, c.rec)); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := f.Bus.PutDesired(ctx, testProject, c.pointer); err != nil {
			t.Fatal(err)
		}
		waitFor(t, convergeWait, func() error {
			if st := n.status(); !strings.Contains(st.Error, c.want) {
				return fmt.Errorf("%s: status error %q, want it to say %q", c.name, st.Error, c.want)
			}
			return nil
		})
		st := n.status()
		if st.Release != good.ID {
			t.Fatalf("%s: serving %s, want %s kept", c.name, st.Release, good.ID)
		}
		n.expectAnswer("", "v1", good.ID)
		waitFor(t, convergeWait, func() error {
			rep, _, err := f.report("e1")
			if err != nil {
				return err
			}
			if rep.Release != good.ID || !strings.Contains(rep.Error, c.want) {
				return fmt.Errorf("%s: report %+v", c.name, rep)
			}
			return nil
		})
		waitSlow(t, convergeWait, func() error {
			if evs := f.executorEvents(c.event, "e1"); len(evs) < c.events {
				return fmt.Errorf("%s: %d %s events, want %d", c.name, len(evs), c.event, c.events)
			}
			return nil
		})
	}
	n.waitDirs(good.ID)
	if _, err := os.Stat(filepath.Join(casDir(n.dataDir), sha256Hex("the real content\n"))); !os.IsNotExist(err) {
		t.Fatalf("tampered content kept in the cache: %v", err)
	}

	// A good release after the refusals converges and clears the error.
	rec := f.release("v2", cproject("v2"))
	if st := n.waitConverged(rec.ID); st.Error != "" {
		t.Fatalf("error %q after converging", st.Error)
	}
}

// A secret set after start reaches the agents granted it at their next call,
// never the others, and its value appears in no log, status, report or event.
func TestConvergeSecrets(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL)
	n.waitConverged(f.first.ID)
	const value = "s3cr3t-value-7f1c2a"
	if got := n.callAs("researcher", "env", `{"name": "API_KEY"}`); got.Output != "(unset)" {
		t.Fatalf("before the secret is set: %q", got.Output)
	}
	if err := f.Bus.SetSecret(context.Background(), testProject, "API_KEY", value); err != nil {
		t.Fatal(err)
	}
	waitFor(t, convergeWait, func() error {
		if got := n.callAs("researcher", "env", `{"name": "API_KEY"}`); got.Output != value {
			return fmt.Errorf("researcher sees %q", got.Output)
		}
		return nil
	})
	for _, agent := range []string{"greeter", DefaultAgent} {
		if got := n.callAs(agent, "env", `{"name": "API_KEY"}`); got.Output != "(unset)" {
			t.Fatalf("%s, not granted API_KEY, sees %q", agent, got.Output)
		}
	}
	// A new release keeps the grant; the report is written again.
	rec := f.release("v2", cproject("v2"))
	n.waitConverged(rec.ID)
	if got := n.callAs("researcher", "env", `{"name": "API_KEY"}`); got.Output != value {
		t.Fatalf("after a release the researcher sees %q", got.Output)
	}
	waitFor(t, convergeWait, func() error {
		if rep, _, err := f.report("e1"); err != nil || rep.Release != rec.ID {
			return fmt.Errorf("report %+v %v", rep, err)
		}
		return nil
	})

	where := map[string][]byte{
		"executor logs":   []byte(n.logs.String()),
		"controller logs": []byte(f.ctrlLog.String()),
		"status":          n.mustDo("GET", "/beeuni/status", "").body,
		"tools list":      n.mustDo("GET", "/beeuni/tools?agent=researcher", "").body,
		"metrics":         n.mustDo("GET", "/metrics", "").body,
	}
	_, where["fleet report"], _ = f.report("e1")
	evs, err := f.Bus.ReadEvents(context.Background(), eventsFilterAll(), 1000)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		where["event "+e.Type] = append(where["event "+e.Type], e.Payload...)
	}
	if len(where["fleet report"]) == 0 || len(where["executor logs"]) == 0 {
		t.Fatal("nothing to search: the report or the logs are empty")
	}
	for name, b := range where {
		if bytes.Contains(b, []byte(value)) {
			t.Fatalf("the secret's value appears in the %s: %s", name, b)
		}
	}
}

// 200 clients call while six releases converge: at each release they all
// call at once, so their calls meet the fetch, load and switch. No call
// fails, and each answer comes from the release it reports.
func TestConvergeCallsWhileReleasesSwitch(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v0"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL)
	n.waitConverged(f.first.ID)
	versions := map[string]string{f.first.ID: "v0"}

	const clients, releases = 200, 6
	type result struct {
		out, rel string
		err      error
	}
	// published[i] is closed once release i is published.
	published := make([]chan struct{}, releases+1)
	for i := range published {
		published[i] = make(chan struct{})
	}
	results := make(chan []result, clients)
	var calls sync.WaitGroup
	for c := range clients {
		calls.Go(func() {
			var mine []result
			// Every third client runs a turn across each switch.
			session := fmt.Sprintf("s%d", c)
			for p := 1; p <= releases; p++ {
				<-published[p]
				if c%3 == 0 {
					for _, m := range []string{"DELETE", "POST"} {
						r, err := n.do(m, "/beeuni/sessions/"+session+"/turn", "")
						if err == nil && r.status != 200 {
							err = fmt.Errorf("%s turn: status %d: %s", m, r.status, r.body)
						}
						if err != nil {
							mine = append(mine, result{err: err})
						}
					}
				}
				for range 2 {
					r, err := n.do("POST", "/beeuni/tools/answer", "", HeaderSession, session)
					if err == nil && r.status != 200 {
						err = fmt.Errorf("status %d: %s", r.status, r.body)
					}
					var cr CallResponse
					if err == nil {
						err = json.Unmarshal(r.body, &cr)
					}
					mine = append(mine, result{cr.Output, cr.Release, err})
				}
			}
			results <- mine
		})
	}
	var last *release.Record
	for i := 1; i <= releases; i++ {
		v := fmt.Sprintf("v%d", i)
		last = f.release(v, cproject(v))
		versions[last.ID] = v
		close(published[i])
		n.waitConverged(last.ID)
	}
	calls.Wait()
	close(results)
	seen := map[string]int{}
	total := 0
	for rs := range results {
		for _, r := range rs {
			total++
			if r.err != nil {
				t.Fatalf("call failed: %v", r.err)
			}
			if want, ok := versions[r.rel]; !ok || want != r.out {
				t.Fatalf("answer %q came from %s, whose version is %q", r.out, r.rel, want)
			}
			seen[r.rel]++
		}
	}
	t.Logf("%d calls; answers by release: %v", total, seen)
	if want := clients * releases * 2; total != want {
		t.Fatalf("%d answers, want %d", total, clients*releases*2)
	}
	if len(seen) < 4 {
		t.Fatalf("answers came from %d releases, want calls running across the switches", len(seen))
	}
	n.expectAnswer("", "v6", last.ID)
}

// Old release folders go once their set is freed, stale ones at restart;
// a replay of a release whose old set a turn still holds keeps the folder.
func TestConvergeReleaseFolders(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	n := startNode(t, "e1", data, f.natsURL)
	r1 := f.first.ID
	n.waitConverged(r1)
	n.waitDirs(r1)

	if tr := n.turn("POST", "a"); tr.Release != r1 {
		t.Fatalf("begin a: %+v", tr)
	}
	r2 := f.release("v2", cproject("v2")).ID
	n.waitConverged(r2)
	n.waitDirs(r1, r2) // turn a holds r1

	// Replay r1 while turn a still holds the old r1 set.
	body, _ := json.Marshal(controller.ReplayRequest{Release: r1})
	if _, err := f.Bus.Control(context.Background(), testProject, "replay", body); err != nil {
		t.Fatal(err)
	}
	n.waitConverged(r1)
	n.expectAnswer("b", "v1", r1)
	n.turn("DELETE", "a") // frees the old r1 set: the folder is the current set's
	n.waitDirs(r1)
	waitFor(t, convergeWait, func() error {
		if len(n.releaseDirs()) != 1 {
			return errNotYet
		}
		return nil
	})
	if _, err := os.Stat(filepath.Join(releasesDir(data), r1, "beeuni.yaml")); err != nil {
		t.Fatalf("the served release's folder was removed: %v", err)
	}

	// Stale folders (a crash mid-converge) are removed at restart.
	n.stop()
	for _, d := range []string{"r99-000000000000", ".r98-000000000000.tmp-123"} {
		if err := os.MkdirAll(filepath.Join(releasesDir(data), d, "tools"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(casDir(data), ".fetch-123"), []byte("partial"), 0o644); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, "e1", data, f.natsURL)
	n.expectAnswer("", "v1", r1)
	n.waitDirs(r1)
	if _, err := os.Stat(filepath.Join(casDir(data), ".fetch-123")); !os.IsNotExist(err) {
		t.Fatalf("a partial fetch survived the restart: %v", err)
	}
	r3 := f.release("v3", cproject("v3")).ID
	n.waitConverged(r3)
	n.waitDirs(r3)
}

// Tools work on the executor's workspace, not on the release folder: what
// the memory tool writes survives the next release.
func TestConvergeWorkspaceSurvivesReleases(t *testing.T) {
	t.Parallel()
	withMemory := func(version string) map[string]string {
		files := cproject(version)
		files["beeuni.yaml"] = strings.Replace(convergeManifest, "tools:\n", "tools:\n  memory: beeuni:memory\n", 1)
		return files
	}
	f := newFleet(t, withMemory("v1"))
	ws := t.TempDir()
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.Workspace = ws })
	n.waitConverged(f.first.ID)
	got := n.call("memory", `{"command": "create", "path": "memory/notes/a.md", "file_text": "remember me"}`)
	if got.IsError {
		t.Fatalf("memory create: %+v", got)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "memory", "notes", "a.md")); err != nil || string(b) != "remember me" {
		t.Fatalf("the note is not in the workspace: %q, %v", b, err)
	}
	rec := f.release("v2", withMemory("v2"))
	n.waitConverged(rec.ID)
	got = n.call("memory", `{"command": "view", "path": "memory/notes/a.md"}`)
	if got.IsError || !strings.Contains(got.Output, "remember me") || got.Release != rec.ID {
		t.Fatalf("after the switch: %+v, want the note from %s", got, rec.ID)
	}
}
