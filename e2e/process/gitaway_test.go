package process

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// TestGitUnreachable moves the watched repository away under a running
// controller process: its /status shows the error while the fleet keeps
// its release; once the repository is back it recovers and publishes the
// commit made meanwhile.
func TestGitUnreachable(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "gitaway"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	c1 := repo.commit("greet v1", v1Files())
	r1 := ctl.published(t, c1)
	ex := startExecutor(t, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey())
	ex.converged(t, r1)

	away := repo.dir + ".away"
	if err := os.Rename(repo.dir, away); err != nil {
		t.Fatal(err)
	}
	ctl.hook(t)
	waitFor(t, startTimeout, "the controller to report the repository unreachable", func() error {
		s, err := ctl.status()
		if err != nil {
			return err
		}
		if s.Healthy || !strings.Contains(s.Error, repo.dir) {
			return fmt.Errorf("controller status %+v, want unhealthy with an error naming %s", s, repo.dir)
		}
		return nil
	})
	c2 := commitIn(t, away, "greet v2, farewell", v2Files())
	ctl.hook(t) // a merge hook while Git is away changes nothing
	s, err := ctl.status()
	if err != nil {
		t.Fatal(err)
	}
	if s.Healthy || s.Desired != r1 {
		t.Fatalf("controller status with Git away: %+v, want unhealthy, still on %s", s, r1)
	}
	if got := checkWhole(t, ex, map[string]string{r1: "v1"}); got != r1 {
		t.Fatalf("with Git away the executor serves %s, want %s", got, r1)
	}

	if err := os.Rename(away, repo.dir); err != nil {
		t.Fatal(err)
	}
	r2 := ctl.published(t, c2)
	waitFor(t, startTimeout, "the controller healthy again", func() error {
		s, err := ctl.status()
		if err != nil {
			return err
		}
		if !s.Healthy || s.Error != "" || s.LastCommit != c2 {
			return fmt.Errorf("controller status %+v", s)
		}
		return nil
	})
	ex.converged(t, r2)
	checkWhole(t, ex, map[string]string{r2: "v2"})
}
