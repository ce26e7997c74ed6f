package process

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni/internal/gitrepo"
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
	if err := gitrepo.Init(dir); err != nil {
		tb.Fatal(err)
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
	h, err := gitrepo.Commit(dir, msg, files)
	if err != nil {
		tb.Fatal(err)
	}
	return h
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
