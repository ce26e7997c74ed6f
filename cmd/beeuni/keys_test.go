package main

import (
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
