package process

import (
	"bytes"
	"os"
	"testing"
)

// TestReleaseBinaryHasNoFailpoint: the binary as it ships holds no test
// switch. BEEUNI_FAILPOINT, which kills the failpoint build at a step (see
// the crash tests), is not in it, and setting it changes nothing: the
// controller publishes past "built" and the executor converges past
// "fetch", both alive.
func TestReleaseBinaryHasNoFailpoint(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	for _, b := range []struct {
		path string
		want bool
	}{{bin, true}, {releaseBin, false}} {
		data, err := os.ReadFile(b.path)
		if err != nil {
			t.Fatal(err)
		}
		if got := bytes.Contains(data, []byte("BEEUNI_FAILPOINT")); got != b.want {
			t.Fatalf("%s holds BEEUNI_FAILPOINT: %v, want %v", b.path, got, b.want)
		}
	}

	nf := newNATS(t)
	const project = "nofailpoint"
	repo := newRepo(t, project)
	commit := repo.commit("greet v1", v1Files())
	ctl := startControllerBinary(t, releaseBin, nf, project, repo.dir, dataDir(t, "controller"), "BEEUNI_FAILPOINT=built")
	r1 := ctl.published(t, commit)
	ex := startExecutorBinary(t, releaseBin, nf.url(), project, "a", dataDir(t, "executor"), ctl.trustKey(), "BEEUNI_FAILPOINT=fetch")
	ex.converged(t, r1)
	if got := ex.mustCall(t, "greet", `{"name":"Ada"}`); got.Output != "greet v1 Ada" {
		t.Fatalf("greet answered %+v", got)
	}
	for _, p := range []*proc{ctl.proc, ex.proc} {
		if err := p.alive(); err != nil {
			t.Fatal(err)
		}
	}
}
