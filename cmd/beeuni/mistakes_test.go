package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni/internal/gitrepo"
)

// TestBinaryUnknownKeyWarning: the usual typo, `tool:` for `tools:`, is a
// warning naming the key meant, not a silent "valid: 5 tools".
func TestBinaryUnknownKeyWarning(t *testing.T) {
	dir := t.TempDir()
	if err := gitrepo.Init(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := gitrepo.Commit(dir, "typo", map[string]string{
		"beeuni.yaml": "# demo\nname: demo\ntool:\n  show: beeuni:show\nagents:\n  x:\n    tool: [read]\n",
	}); err != nil {
		t.Fatal(err)
	}
	r := runBin(t, dir, "validate")
	want := "beeuni.yaml:3: warning: unknown key \"tool\": did you mean \"tools\"?\n" +
		"beeuni.yaml:7: warning: unknown key \"tool\": did you mean \"tools\"?\n" +
		"beeuni.yaml is valid: 5 tools, 2 warnings\n"
	if r.code != 0 || r.stdout != want {
		t.Fatalf("validate: exit %d\n got %q\nwant %q\nstderr %s", r.code, r.stdout, want, r.stderr)
	}
}

// TestEjectAgainAfterDelete: the reference refuses only when the file exists
// or the entry points at another module; a deleted copy is written again.
func TestEjectAgainAfterDelete(t *testing.T) {
	dir := copyProject(t, "testdata/projects/notools")
	if r := runIn(t, "tools", "eject", "--dir", dir, "web_search"); r.code != 0 || r.stdout != referenceEject {
		t.Fatalf("eject: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	manifest := readTree(t, dir)["beeuni.yaml"]
	if err := os.Remove(filepath.Join(dir, "tools", "web_search.ts")); err != nil {
		t.Fatal(err)
	}
	if r := runIn(t, "tools", "eject", "--dir", dir, "web_search"); r.code != 0 || r.stdout != referenceEject {
		t.Fatalf("eject after the copy was deleted: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	tree := readTree(t, dir)
	if tree["beeuni.yaml"] != manifest || tree["tools/web_search.ts"] == "" {
		t.Fatalf("after the second eject: beeuni.yaml %q (was %q), module %d bytes", tree["beeuni.yaml"], manifest, len(tree["tools/web_search.ts"]))
	}
}
