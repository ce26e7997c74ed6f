package process

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// gitRepo is a real Git repository in a temp folder, on branch main.
type gitRepo struct {
	tb  testing.TB
	dir string
}

// newRepo makes a repository under a folder named project (the folder name
// is the default project name of the commands).
func newRepo(tb testing.TB, project string) *gitRepo {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), project)
	_, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"}})
	if err != nil {
		tb.Fatalf("git init %s: %v", dir, err)
	}
	return &gitRepo{tb: tb, dir: dir}
}

// commit writes files (path -> content) and commits them; it returns the
// commit id.
func (r *gitRepo) commit(msg string, files map[string]string) string {
	r.tb.Helper()
	return commitIn(r.tb, r.dir, msg, files)
}

// commitIn commits files to the repository at dir.
func commitIn(tb testing.TB, dir, msg string, files map[string]string) string {
	tb.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		tb.Fatalf("open repository %s: %v", dir, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		tb.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
		if _, err := wt.Add(name); err != nil {
			tb.Fatalf("git add %s: %v", name, err)
		}
	}
	sig := &object.Signature{Name: "e2e", Email: "e2e@example.com", When: time.Now()}
	h, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig})
	if err != nil {
		tb.Fatalf("git commit in %s: %v", dir, err)
	}
	return h.String()
}

// module is the source of a small tool module that answers "<name> <version>
// <args.name>", so an answer names the release it came from.
func module(name, version string) string {
	return fmt.Sprintf(`export default {
  description: 'Says %[1]s, version %[2]s.',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  execute(args: { name?: string }) { return '%[1]s %[2]s ' + (args.name ?? '') },
}
`, name, version)
}

// v1Files is release 1 of the usual project: greet only.
func v1Files() map[string]string {
	return map[string]string{
		"beeuni.yaml":    "tools:\n  greet: tools/greet.ts\n",
		"tools/greet.ts": module("greet", "v1"),
	}
}

// v2Files is release 2: greet changed, farewell added.
func v2Files() map[string]string {
	return map[string]string{
		"beeuni.yaml":       "tools:\n  greet: tools/greet.ts\n  farewell: tools/farewell.ts\n",
		"tools/greet.ts":    module("greet", "v2"),
		"tools/farewell.ts": module("farewell", "v2"),
	}
}
