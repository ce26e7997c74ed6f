package process

import (
	"encoding/json"
	"fmt"
	"slices"
	"syscall"
	"testing"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// TestControllerKilledBetweenBuildAndPublish kills the controller (SIGKILL,
// its "built" failpoint) after a release is stored and before it is
// published, twice; each restart publishes it exactly once.
func TestControllerKilledBetweenBuildAndPublish(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "ctlcrash"
	repo := newRepo(t, project)
	data := dataDir(t, "controller")
	ctx := t.Context()

	var commits, ids []string
	for i, files := range []map[string]string{v1Files(), v2Files()} {
		ctl := startController(t, nf, project, repo.dir, data, "BEEUNI_FAILPOINT=built")
		commit := repo.commit(fmt.Sprintf("release %d", i+1), files)
		ctl.hook(t)
		if !ctl.waitExit(startTimeout) {
			t.Fatalf("the controller did not die at its built failpoint for commit %s", commit)
		}
		if sig, ok := ctl.killedBy(); !ok || sig != syscall.SIGKILL {
			t.Fatalf("the controller ended with %v, want SIGKILL at its built failpoint", ctl.cmd.ProcessState)
		}
		recs, err := nf.releases(ctx, project)
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(ids) {
			t.Fatalf("killed before publishing, NATS already has %d releases, want %d", len(recs), len(ids))
		}

		ctl = ctl.restart(t)
		id := ctl.published(t, commit)
		commits, ids = append(commits, commit), append(ids, id)
		ctl.stop(syscall.SIGTERM)
	}

	// Once more without a crash: the head is not built or published again.
	ctl := startController(t, nf, project, repo.dir, data)
	waitFor(t, startTimeout, "the controller to look at the branch", func() error {
		s, err := ctl.status()
		if err != nil {
			return err
		}
		if !s.Healthy || s.LastCommit != commits[1] {
			return fmt.Errorf("controller status %+v", s)
		}
		return nil
	})

	recs, err := nf.releases(ctx, project)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range recs {
		got = append(got, fmt.Sprintf("%d %s %s", r.Seq, r.Commit, r.Status))
	}
	slices.Sort(got)
	want := []string{"1 " + commits[0] + " " + release.StatusPublished, "2 " + commits[1] + " " + release.StatusPublished}
	if !slices.Equal(got, want) {
		t.Fatalf("releases on NATS (seq commit status):\n%v\nwant exactly one per commit:\n%v", got, want)
	}
	built := builtEvents(t, nf, project)
	if !slices.Equal(built, ids) {
		t.Fatalf("release.built events name %v, want exactly one per release %v", built, ids)
	}
	if ptr, commit, err := nf.desired(ctx, project); err != nil || ptr.Release != ids[1] || commit != commits[1] {
		t.Fatalf("the desired release is %s of commit %s (%v), want %s", ptr.Release, commit, err, ids[1])
	}
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
	ex.converged(t, ids[1])
	checkWhole(t, ex, map[string]string{ids[1]: "v2"})
}

// builtEvents are the release ids of every release.built event of project.
// (The stream drops a re-sent event with the same message id within its
// dedup window, so the release records above are the stronger check: a
// commit built twice would show as a second record with its own sequence.)
func builtEvents(t *testing.T, nf *natsFix, project string) []string {
	t.Helper()
	evs, err := nf.bus.ReadEvents(t.Context(), events.EventFilter{Project: project, Type: "release.built"}, 100)
	if err != nil {
		t.Fatalf("read release.built events: %v", err)
	}
	var ids []string
	for _, e := range evs {
		var p struct {
			Release string `json:"release"`
		}
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			t.Fatalf("release.built event %d: %v: %s", e.Seq, err, e.Payload)
		}
		ids = append(ids, p.Release)
	}
	return ids
}
