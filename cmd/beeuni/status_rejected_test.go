package main

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/internal/gitrepo"
	"github.com/beeuni/beeuni/release"
)

// TestStatusNamesTheRejectedCommit: status names the newest rejected
// commit, its first finding and the release the fleet stays on; nothing
// once the newest release is the desired one.
func TestStatusNamesTheRejectedCommit(t *testing.T) {
	f := newOpFixture(t)
	finding := release.Finding{File: "beeuni.yaml", Line: 7, Severity: release.SeverityError, Message: "`bash` is a harness tool"}
	bad := f.putRelease(release.Record{Seq: 1, Subject: "First try", Status: release.StatusRejected,
		Findings: []release.Finding{finding, {File: "beeuni.yaml", Line: 9, Severity: release.SeverityError, Message: "other"}},
		Entries:  entries(map[string]string{"beeuni.yaml": "tools: {bash: x}"})})

	// The first commit rejected: nothing to stay on.
	r := f.run("", "status")
	for _, want := range []string{
		`Rejected: commit ` + shortHash(bad.Commit) + ` "First try" (release ` + bad.ID + ")\n  beeuni.yaml:7: error: `bash` is a harness tool\n",
		"  (1 more finding: beeuni release show " + bad.ID + ")\n",
		"  No release was published yet: fix the manifest and commit.\n",
		"Desired release: none yet (the first commit was rejected, see above).\n",
	} {
		if r.code != exitOK || !strings.Contains(r.stdout, want) {
			t.Errorf("status after a rejected first commit lacks %q:\n%s", want, r.stdout)
		}
	}

	good := f.putRelease(release.Record{Seq: 2, Subject: "Fix it", Status: release.StatusPublished, Entries: entries(map[string]string{"beeuni.yaml": "tools: {}"})})
	f.desire(good, false)
	bad2 := f.putRelease(release.Record{Seq: 3, Subject: "Break it again", Status: release.StatusRejected,
		Findings: []release.Finding{finding}, Entries: entries(map[string]string{"beeuni.yaml": "x"})})
	cases := []struct {
		name   string
		desire *release.Record
		replay bool
		want   *controller.Rejection
	}{
		{"rejected after a good one", good, false, &controller.Rejection{Release: bad2.ID, Commit: bad2.Commit, Subject: "Break it again",
			Finding: "beeuni.yaml:7: error: `bash` is a harness tool", Findings: 1, StaysOn: good.ID}},
		{"replayed while the head is rejected", good, true, &controller.Rejection{Release: bad2.ID, Commit: bad2.Commit, Subject: "Break it again",
			Finding: "beeuni.yaml:7: error: `bash` is a harness tool", Findings: 1, StaysOn: good.ID}},
	}
	for _, tc := range cases {
		f.desire(tc.desire, tc.replay)
		r := f.run("", "status", "--json")
		var got struct {
			Desired  string                `json:"desired"`
			Rejected *controller.Rejection `json:"rejected"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
			t.Fatalf("%s: status --json = %d %v\n%s", tc.name, r.code, err, r.stdout)
		}
		if got.Desired != tc.desire.ID || got.Rejected == nil || *got.Rejected != *tc.want {
			t.Errorf("%s: status --json desired %s rejected %+v, want %s and %+v", tc.name, got.Desired, got.Rejected, tc.desire.ID, tc.want)
		}
		text := f.run("", "status").stdout
		if !strings.Contains(text, "  The fleet stays on "+good.ID+" until a commit passes.\n") {
			t.Errorf("%s: status text does not say where the fleet stays:\n%s", tc.name, text)
		}
	}

	// A good commit after it: no rejection.
	fixed := f.putRelease(release.Record{Seq: 4, Subject: "Fix again", Status: release.StatusPublished, Entries: entries(map[string]string{"beeuni.yaml": "tools: {} "})})
	f.desire(fixed, false)
	if r := f.run("", "status", "--json"); strings.Contains(r.stdout, `"rejected"`) || r.code != exitOK {
		t.Errorf("status after the fix still reports a rejection:\n%s", r.stdout)
	}
	if r := f.run("", "status"); strings.Contains(r.stdout, "Rejected:") {
		t.Errorf("status text after the fix still reports a rejection:\n%s", r.stdout)
	}
}

// TestStatusFindsTheUpProject: without --project, a `beeuni up` recorded in
// .beeuni/up.json names the project and NATS from the folder it was run in
// and from the repository it serves; elsewhere the folder names it.
func TestStatusFindsTheUpProject(t *testing.T) {
	f := newOpFixture(t)
	root := t.TempDir()
	clone := filepath.Join(root, "beeuni")             // `up --demo` run in a clone of beeuni
	demo := filepath.Join(clone, ".beeuni", "demo")    // the demo repository it serves
	other := filepath.Join(clone, "examples", "other") // a repository of its own inside
	for _, d := range []string{clone, demo, other} {
		if err := gitrepo.Init(d); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(clone, "cmd")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeUpState(filepath.Join(clone, ".beeuni"), upState{Project: opProject, NATS: f.url, Repo: demo}); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, dir, want string
	}{
		{"the clone up was run in", clone, "demo"},
		{"a folder of the clone", sub, "demo"},
		{"the demo repository", demo, "demo"},
		{"another repository inside", other, "other"},
	}
	for _, tc := range cases {
		// No --nats: the up's NATS comes with its project.
		r := runOp(t, "", nil, "status", "--json", "--dir", tc.dir)
		if tc.want == "other" {
			// Not the up's repository: the folder names the project (and
			// the default NATS, which may be anyone's, is not asked).
			if r := runOp(t, "", nil, "status", "--nats", f.url, "--dir", tc.dir); !strings.Contains(r.stdout, "for project other.") {
				t.Errorf("%s: status = %+v, want project other", tc.name, r)
			}
			continue
		}
		var got struct{ Project string }
		if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK || got.Project != tc.want {
			t.Errorf("%s: status --dir %s = %+v (%v), want project %s", tc.name, tc.dir, r, err, tc.want)
		}
	}
	// --project still wins.
	if r := runOp(t, "", nil, "status", "--nats", f.url, "--project", "mine", "--dir", clone); !strings.Contains(r.stdout, "for project mine.") {
		t.Errorf("status --project mine = %+v", r)
	}
}

// TestSelfCommand: the commands beeuni prints run this beeuni as the user
// can: `go run ./cmd/beeuni` after `go run`, else the name or path.
func TestSelfCommand(t *testing.T) {
	root := t.TempDir()
	mod := filepath.Join(root, "clone")
	if err := os.MkdirAll(filepath.Join(mod, "cmd", "beeuni"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(mod, "go.mod"), filepath.Join(mod, "cmd", "beeuni", "main.go")} {
		if err := os.WriteFile(p, []byte("package main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	onPath := filepath.Join(root, "bin", "beeuni")
	if err := os.MkdirAll(filepath.Dir(onPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(onPath, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	local := filepath.Join(mod, "beeuni")
	if err := os.WriteFile(local, nil, 0o755); err != nil {
		t.Fatal(err)
	}
	lookPath := func(name string) (string, error) {
		if name == "beeuni" {
			return onPath, nil
		}
		return "", errors.New("not found")
	}
	cases := []struct {
		name, exe, cwd, gocache, want string
	}{
		{"go run, temp build", "/tmp/go-build123/b001/exe/beeuni", mod, "", "go run ./cmd/beeuni"},
		{"go run, cached build", "/home/u/.cache/go-build/3c/3c5f-d/beeuni", mod, "", "go run ./cmd/beeuni"},
		{"go run, GOCACHE elsewhere", "/var/gocache/3c/3c5f-d/beeuni", mod, "/var/gocache", "go run ./cmd/beeuni"},
		{"go run from a sub folder", "/tmp/go-build123/b001/exe/beeuni", filepath.Join(mod, "cmd"), "", "go run -C " + mod + " ./cmd/beeuni"},
		{"the binary on PATH", onPath, root, "", "beeuni"},
		{"a binary in the folder", local, mod, "", "./beeuni"},
		{"a binary below the folder", local, root, "", "./clone/beeuni"},
		{"a binary elsewhere", local, filepath.Join(root, "bin"), "", local},
		{"a test binary", "/tmp/go-build1/b001/beeuni.test", mod, "", "beeuni"},
	}
	for _, tc := range cases {
		if got := selfCommandFor(tc.exe, tc.cwd, tc.gocache, lookPath); got != tc.want {
			t.Errorf("%s: selfCommandFor(%s, %s) = %q, want %q", tc.name, tc.exe, tc.cwd, got, tc.want)
		}
	}
}
