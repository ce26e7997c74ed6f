package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The beeuni binary is built once, on first use, into binDir (removed by
// TestMain); buildErr says why it could not be built, and then every binary
// test fails: a setup that cannot build the command is broken.
var (
	binDir    string
	binPath   string
	buildErr  error
	buildOnce sync.Once
)

func TestMain(m *testing.M) {
	tmp, err := os.MkdirTemp("", "beeuni-bin-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binDir = tmp
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

func buildBinary() {
	binPath = filepath.Join(binDir, "beeuni")
	out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
	if err != nil {
		buildErr = fmt.Errorf("go build ./cmd/beeuni: %v\n%s", err, out)
	}
}

// runBin runs the built binary in dir.
func runBin(tb testing.TB, dir string, args ...string) result {
	tb.Helper()
	buildOnce.Do(buildBinary)
	if buildErr != nil {
		tb.Fatalf("the beeuni binary did not build: %v", buildErr)
	}
	cmd := exec.Command(binPath, args...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		tb.Fatalf("run beeuni: %v", err)
	}
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// TestBinary runs the built command in a project folder, with no --dir: the
// way a project author does.
func TestBinary(t *testing.T) {
	dir := copyProject(t, "testdata/projects/notools")
	if r := runBin(t, dir, "validate"); r.code != 0 || r.stdout != "beeuni.yaml is valid: 5 tools\n" {
		t.Fatalf("validate: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBin(t, dir, "tools", "eject", "web_search"); r.code != 0 || r.stdout != referenceEject {
		t.Fatalf("eject: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	if r := runBin(t, dir, "tools", "eject", "web_search"); r.code != 1 || r.stderr != "beeuni: tools eject web_search: tools/web_search.ts already exists: move it away, or pass --force to overwrite it with the Beeuni source\n" {
		t.Fatalf("second eject: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	ls := runBin(t, dir, "tools", "ls")
	want := "NAME            KIND                 SOURCE\n" +
		"web_search      beeuni (overridden)  tools/web_search.ts\n" +
		"image_search    beeuni               beeuni:image_search\n" +
		"scrape_webpage  beeuni               beeuni:scrape_webpage\n" +
		"memory          beeuni               beeuni:memory\n" +
		"show            beeuni               beeuni:show\n"
	if ls.code != 0 || ls.stdout != want {
		t.Fatalf("tools ls: exit %d:\n%s%s", ls.code, ls.stdout, ls.stderr)
	}
	empty := t.TempDir()
	if r := runBin(t, empty, "validate"); r.code != 1 {
		t.Fatalf("validate with no beeuni.yaml: exit %d: %s", r.code, r.stdout)
	}
}
