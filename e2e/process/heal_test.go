package process

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events/natstest"
)

// poisonFile rewrites a laid-out file in place, keeping its size and mode,
// as a tool could before the JS host's policy: through the hard link the
// executor's content cache changes too.
func poisonFile(t *testing.T, p, old, new string) {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	evil := bytes.Replace(b, []byte(old), []byte(new), 1)
	if len(old) != len(new) || bytes.Equal(evil, b) {
		t.Fatalf("poison %s: %q -> %q changes nothing or the size", p, old, new)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, evil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// greetAnswers waits until greet answers from release id and checks it
// answers the signed module's words.
func greetAnswers(t *testing.T, ex *executorProc, id string) {
	t.Helper()
	ex.converged(t, id)
	if r := ex.mustCall(t, "greet", `{"name":"Ada"}`); r.Output != "greet v1 Ada" || r.Release != id {
		t.Fatalf("greet answered %q from %s: want the signed module's \"greet v1 Ada\" from %s", r.Output, r.Release, id)
	}
}

// TestCachePoisonHealed: a file written into the executor's release folder
// (and so its content cache) is never served under a signed id: not by a
// later release that has the file unchanged, not after a restart.
func TestCachePoisonHealed(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "poison"
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	data := dataDir(t, "executor")
	ex := startExecutor(t, nf.url(), project, "a", data, ctl.trustKey())
	greetAnswers(t, ex, r1)

	poisonFile(t, filepath.Join(data, "releases", r1, "tools/greet.ts"), "v1", "XX")
	r2 := ctl.published(t, repo.commit("notes", map[string]string{"notes.txt": "greet.ts unchanged\n"}))
	greetAnswers(t, ex, r2)

	poisonFile(t, filepath.Join(data, "releases", r2, "tools/greet.ts"), "v1", "YY")
	ex.kill()
	ex = ex.restart(t)
	greetAnswers(t, ex, r2)
}

// TestCorruptStateAndLostContent: random bytes in both bbolt files, and a
// content object deleted and another damaged in NATS. The controller and
// the executor restart without a crash loop, each keeps the corrupt file
// aside and converges; the next commit, which changes neither file, puts
// the objects back, and an executor with an empty cache converges on it.
func TestCorruptStateAndLostContent(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "corrupt"
	repo := newRepo(t, project)
	ctlData, exData := dataDir(t, "controller"), dataDir(t, "executor")
	ctl := startController(t, nf, project, repo.dir, ctlData)
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	ex := startExecutor(t, nf.url(), project, "a", exData, ctl.trustKey())
	greetAnswers(t, ex, r1)

	ex.kill()
	ctl.kill()
	for _, db := range []string{filepath.Join(ctlData, "controller.db"), filepath.Join(exData, "executor.db")} {
		scribbleFile(t, db)
	}
	rec, err := nf.record(t.Context(), project, r1)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range rec.Entries {
		switch e.Path {
		case "tools/greet.ts":
			natstest.DamageContent(t, nf.url(), e.Digest, nil)
		case "beeuni.yaml":
			natstest.DamageContent(t, nf.url(), e.Digest, []byte("tools: {}\n"))
		}
	}

	ctl = ctl.restart(t)
	ex = ex.restart(t)
	greetAnswers(t, ex, r1) // from its own verified cache
	for _, p := range []string{ctlData, exData} {
		if m, _ := filepath.Glob(filepath.Join(p, "*.db.corrupt-*")); len(m) != 1 {
			t.Errorf("%s: corrupt files kept aside %v, want one", p, m)
		}
	}
	fresh := startExecutor(t, nf.url(), project, "b", dataDir(t, "executor-b"), ctl.trustKey())
	r2 := ctl.published(t, repo.commit("notes", map[string]string{"notes.txt": "greet.ts unchanged\n"}))
	if r2 == r1 || !strings.HasPrefix(r2, "r2-") {
		t.Fatalf("after the rebuild the controller published %s (r1 was %s): want the sequence to go on", r2, r1)
	}
	greetAnswers(t, ex, r2)
	greetAnswers(t, fresh, r2)
	for _, p := range []*proc{ctl.proc, ex.proc, fresh.proc} {
		if err := p.alive(); err != nil {
			t.Error(err)
		}
	}
}

// scribbleFile overwrites most of a file with bytes that are no bbolt page.
func scribbleFile(t *testing.T, p string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	junk := bytes.Repeat([]byte(fmt.Sprintf("%x", p)), int(fi.Size())/len(p)+1)[:fi.Size()]
	if err := os.WriteFile(p, junk, 0o600); err != nil {
		t.Fatal(err)
	}
}
