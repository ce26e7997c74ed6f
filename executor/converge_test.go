package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/release"
)

// A commit reaches the executor through the merge hook (served on the
// executor's address, as `beeuni up` does) and the new tool answers.
func TestConvergeCommitToCall(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	n.srv.HandlePublic("POST /hooks/merge", f.ctrl.Handler())
	n.waitConverged(f.first.ID)
	n.expectAnswer("", "v1", f.first.ID)

	files := cproject("v2")
	files["tools/shout.ts"] = `export default {
  description: 'Shout the text.',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  execute(args: { text: string }) { return args.text.toUpperCase() + '!' },
}
`
	files["beeuni.yaml"] = strings.Replace(convergeManifest, "  wait: tools/wait.ts\n", "  wait: tools/wait.ts\n  shout: tools/shout.ts\n", 1)
	commit := f.Commit("add shout", files)
	r := n.mustDo("POST", "/hooks/merge", `{"commit": "`+commit+`"}`)
	if r.status != http.StatusAccepted {
		t.Fatalf("merge hook: %d %s", r.status, r.body)
	}
	rec := f.WaitDesiredCommit(commit, convergeWait)
	n.waitConverged(rec.ID)
	got := n.call("shout", `{"text": "hi"}`)
	if got.Output != "HI!" || got.IsError || got.Release != rec.ID {
		t.Fatalf("shout: %+v, want HI! from %s", got, rec.ID)
	}
	n.expectAnswer("", "v2", rec.ID)
	// The event follows the switch: poll for it.
	waitSlow(t, convergeWait, func() error {
		if evs := f.executorEvents("executor.converged", "e1"); len(evs) != 2 || evs[1]["release"] != rec.ID {
			return fmt.Errorf("executor.converged events: %v, want 2, the last for %s", evs, rec.ID)
		}
		return nil
	})
}

// An executor started after two releases goes straight to the newest.
func TestConvergeLateJoiner(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	rec := f.release("v2", cproject("v2"))
	n := startNode(t, "late", t.TempDir(), f.natsURL)
	n.waitConverged(rec.ID)
	n.expectAnswer("", "v2", rec.ID)
	waitSlow(t, convergeWait, func() error { // the event follows the switch
		if evs := f.executorEvents("executor.converged", "late"); len(evs) != 1 || evs[0]["release"] != rec.ID {
			return fmt.Errorf("executor.converged events: %v, want one, for %s", evs, rec.ID)
		}
		return nil
	})
	n.waitDirs(rec.ID)
}

// The fleet report carries the executor's release, state, tools, failures
// and when it was last seen.
func TestConvergeFleetReport(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	before := time.Now().UTC().Add(-time.Second)
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.Harness = "experimental" })
	n.waitConverged(f.first.ID)
	var rep Report
	waitFor(t, convergeWait, func() error {
		var err error
		if rep, _, err = f.report("e1"); err != nil {
			return err
		}
		if rep.Release != f.first.ID || rep.State != "converged" {
			return fmt.Errorf("report %+v, want %s converged", rep, f.first.ID)
		}
		return nil
	})
	if rep.ID != "e1" || rep.Project != testProject || rep.Harness != "experimental" ||
		!slices.Equal(rep.Tools, []string{"answer", "env", "wait"}) || len(rep.Failed) != 0 || rep.Error != "" {
		t.Fatalf("report %+v", rep)
	}
	if rep.Addr != strings.TrimPrefix(n.url, "http://") {
		t.Fatalf("report addr %q, want the executor's address %s", rep.Addr, n.url)
	}
	if rep.LastSeen.Before(before) || rep.LastSeen.After(time.Now().Add(time.Second)) {
		t.Fatalf("last seen %v, want about now", rep.LastSeen)
	}
	// last_seen moves on while nothing changes: the fleet sees it alive.
	first := rep.LastSeen
	waitFor(t, convergeWait, func() error {
		r, _, err := f.report("e1")
		if err != nil {
			return err
		}
		if !r.LastSeen.After(first) {
			return fmt.Errorf("last seen still %v", r.LastSeen)
		}
		return nil
	})
}

// A release whose every module fails still switches and reports each
// failure: status, fleet report and a tools.load_failed event.
func TestConvergeAllToolsFail(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL)
	n.waitConverged(f.first.ID)
	rec := f.release("all broken", brokenProject())
	if rec.Status != release.StatusPublished {
		t.Fatalf("controller: release %s is %s, want published (module failures are warnings)", rec.ID, rec.Status)
	}
	st := n.waitConverged(rec.ID)
	if len(st.Tools) != 0 {
		t.Fatalf("tools %v, want none loaded", st.Tools)
	}
	failed := map[string]string{}
	for _, fl := range st.Failed {
		failed[fl.Name] = fl.Reason
	}
	for _, name := range []string{"answer", "env", "wait"} {
		if failed[name] == "" {
			t.Fatalf("failures %+v: %s missing or without a reason", st.Failed, name)
		}
	}
	r := n.mustDo("POST", "/beeuni/tools/answer", "")
	if r.status != http.StatusNotFound || !strings.Contains(string(r.body), "no tool named answer is loaded") {
		t.Fatalf("call answer: %d %s", r.status, r.body)
	}
	if r := n.mustDo("GET", "/readyz", ""); r.status != http.StatusOK {
		t.Fatalf("readyz: %d %s", r.status, r.body)
	}
	waitSlow(t, convergeWait, func() error {
		evs := f.executorEvents("tools.load_failed", "e1")
		if len(evs) != 1 || evs[0]["release"] != rec.ID {
			return fmt.Errorf("tools.load_failed events %v", evs)
		}
		if fs, _ := evs[0]["failures"].([]any); len(fs) != len(st.Failed) {
			return fmt.Errorf("event failures %v, want %d", evs[0]["failures"], len(st.Failed))
		}
		return nil
	})
	waitFor(t, convergeWait, func() error {
		rep, _, err := f.report("e1")
		if err != nil {
			return err
		}
		if rep.Release != rec.ID || rep.State != "converged" || len(rep.Failed) != len(st.Failed) {
			return fmt.Errorf("report %+v", rep)
		}
		return nil
	})
}

// A turn running across a release keeps its tool set until it ends; a
// session with no turn switches at once; a call in flight finishes on the
// set it started on; the old folder goes once the set is freed.
func TestConvergeTurnAcrossRelease(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL)
	r1 := f.first.ID
	n.waitConverged(r1)

	if tr := n.turn("POST", "a"); tr.Release != r1 {
		t.Fatalf("begin turn a: %+v", tr)
	}
	flag := filepath.Join(t.TempDir(), "go")
	inFlight := make(chan CallResponse, 1)
	go func() {
		r, err := n.do("POST", "/beeuni/tools/wait", `{"path": "`+flag+`"}`, HeaderSession, "c")
		var cr CallResponse
		if err != nil || r.status != 200 || json.Unmarshal(r.body, &cr) != nil {
			cr.Output = fmt.Sprintf("failed: %v %d %s", err, r.status, r.body)
		}
		inFlight <- cr
	}()
	waitFor(t, convergeWait, func() error {
		if n.srv.inFlight.Load() != 1 {
			return errNotYet
		}
		return nil
	})

	r2 := f.release("v2", cproject("v2")).ID
	n.waitConverged(r2)
	n.expectAnswer("b", "v2", r2)
	n.expectAnswer("", "v2", r2)
	n.expectAnswer("a", "v1", r1)
	n.waitDirs(r1, r2) // the turn and the call still use r1's folder

	if err := os.WriteFile(flag, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if cr := <-inFlight; cr.Output != "v1:done" || cr.Release != r1 {
		t.Fatalf("call in flight across the switch: %+v, want v1:done from %s", cr, r1)
	}
	n.expectAnswer("a", "v1", r1) // the turn still runs
	if tr := n.turn("DELETE", "a"); tr.Release != r2 {
		t.Fatalf("end turn a: %+v, want the session on %s", tr, r2)
	}
	n.expectAnswer("a", "v2", r2)
	n.waitDirs(r2)
}

// A burst of 10 releases ends on the newest and never moves back: the
// executor is held while it loads the first, the nine others land, and it
// goes straight to the newest. A replay moves the fleet back, and the next
// commit forward again.
func TestConvergeBurstAndReplay(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v0"))
	var gate atomic.Pointer[chan struct{}]
	reached := make(chan string, 1)
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) {
		c.Failpoint = func(step string) {
			if g := gate.Load(); step == "loaded" && g != nil && gate.CompareAndSwap(g, nil) {
				reached <- step
				select {
				case <-*g:
				case <-time.After(convergeWait):
				}
			}
		}
	})
	n.waitConverged(f.first.ID)
	open := make(chan struct{})
	gate.Store(&open)

	// Watch every release the executor serves while the burst lands.
	var (
		mu     sync.Mutex
		served []string
	)
	watchCtx, stopWatch := context.WithCancel(context.Background())
	var watchWG sync.WaitGroup
	watchWG.Go(func() {
		// Look once more after the stop: the switch may land while this
		// goroutine sleeps, and the test stops it as soon as it converged.
		for {
			if cur := n.srv.Current(); cur != nil {
				mu.Lock()
				if len(served) == 0 || served[len(served)-1] != cur.Release() {
					served = append(served, cur.Release())
				}
				mu.Unlock()
			}
			if watchCtx.Err() != nil {
				return
			}
			time.Sleep(time.Millisecond)
		}
	})
	recs := []*release.Record{f.first}
	for i := 1; i <= 10; i++ {
		recs = append(recs, f.release(fmt.Sprintf("v%d", i), cproject(fmt.Sprintf("v%d", i))))
		if i == 1 {
			select {
			case <-reached: // the executor has loaded v1 and waits to switch
			case <-time.After(convergeWait):
				t.Fatal("the executor never loaded the first release of the burst")
			}
		}
	}
	close(open)
	last := recs[10]
	n.waitConverged(last.ID)
	stopWatch()
	watchWG.Wait()
	n.expectAnswer("", "v10", last.ID)
	var prev uint64
	for _, id := range served {
		seq, _, err := release.ParseID(id)
		if err != nil {
			t.Fatal(err)
		}
		if seq < prev {
			t.Fatalf("served %v: moved back from r%d to %s", served, prev, id)
		}
		prev = seq
	}
	if !slices.Equal(served, []string{f.first.ID, last.ID}) {
		t.Fatalf("served %v during the burst, want %s then straight to the newest, %s", served, f.first.ID, last.ID)
	}
	n.waitDirs(last.ID) // the discarded load's folder is gone

	// Replay release 3 through the control subject, as `beeuni release replay` does.
	back := recs[3]
	body, _ := json.Marshal(controller.ReplayRequest{Release: back.ID})
	if _, err := f.Bus.Control(context.Background(), testProject, "replay", body); err != nil {
		t.Fatal(err)
	}
	n.waitConverged(back.ID)
	n.expectAnswer("", "v3", back.ID)

	next := f.release("v11", cproject("v11"))
	n.waitConverged(next.ID)
	n.expectAnswer("", "v11", next.ID)

	// Every convergence is an event, the replayed release's second one too.
	waitSlow(t, convergeWait, func() error {
		var got []string
		for _, e := range f.executorEvents("executor.converged", "e1") {
			got = append(got, fmt.Sprint(e["release"]))
		}
		if want := []string{f.first.ID, last.ID, back.ID, next.ID}; !slices.Equal(got, want) {
			return fmt.Errorf("executor.converged events for %v, want %v", got, want)
		}
		return nil
	})
	n.waitDirs(next.ID)

	// An older release without the replay mark (a stale or re-sent pointer)
	// is ignored: only a replay moves the fleet back.
	stale := recs[5]
	if _, err := f.Bus.PutDesired(context.Background(), testProject, signed(t, f.Key, release.Pointer{Project: testProject,
		Release: stale.ID, Digest: stale.Digest, Seq: stale.Seq, At: time.Now().UTC()})); err != nil {
		t.Fatal(err)
	}
	waitFor(t, convergeWait, func() error {
		if !containsAll(n.logs.String(), "ignoring an older release", "release="+stale.ID) {
			return fmt.Errorf("the pointer to %s was not ignored", stale.ID)
		}
		return nil
	})
	n.expectAnswer("", "v11", next.ID)
}
