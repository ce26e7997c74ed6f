package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5"

	"github.com/beeuni/beeuni/internal/gitrepo"
)

const okTool = "export default { description: 'Fine.', parameters: { type: 'object' }, execute: () => 'ok' }\n"

// gitProject makes a Git repository in a temp folder with committed files,
// then writes the untracked ones.
func gitProject(tb testing.TB, committed, untracked map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	if err := gitrepo.Init(dir); err != nil {
		tb.Fatal(err)
	}
	if _, err := gitrepo.Commit(dir, "project", committed); err != nil {
		tb.Fatal(err)
	}
	writeFiles(tb, dir, untracked)
	return dir
}

// commitLink commits a symlink at name (slash path) pointing to target.
func commitLink(tb testing.TB, dir, name, target string) {
	tb.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.Symlink(target, p); err != nil {
		tb.Fatal(err)
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		tb.Fatal(err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := wt.Add(name); err != nil {
		tb.Fatal(err)
	}
	if _, err := gitrepo.Commit(dir, "link "+name, nil); err != nil {
		tb.Fatal(err)
	}
}

// commitTree makes dir a Git repository with every file in it committed.
func commitTree(tb testing.TB, dir string) string {
	tb.Helper()
	files := readTree(tb, dir)
	if err := gitrepo.Init(dir); err != nil {
		tb.Fatal(err)
	}
	if _, err := gitrepo.Commit(dir, "project", files); err != nil {
		tb.Fatal(err)
	}
	return dir
}

func writeFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// cliRun is one command and what it must print.
type cliRun struct {
	args           []string
	code           int
	stdout, stderr string // each must be contained ("" matches anything)
	notStderr      string // must not be contained, when set
}

// TestValidateChecksWhatGitShips: the verdict before the merge is the
// fleet's after it, and --worktree gives the old verdict of the bare
// working tree. The real binary, run in the project folder.
func TestValidateChecksWhatGitShips(t *testing.T) {
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"l.ts": okTool})
	cases := []struct {
		name  string
		dir   func(tb testing.TB) string
		runs  []cliRun
		clean bool // no note on stderr
	}{
		{
			name: "a declared module Git does not track",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  x: tools/x.ts\n"},
					map[string]string{"tools/x.ts": okTool})
			},
			runs: []cliRun{
				// In place of the fleet's "does not exist", what to change.
				{args: []string{"validate"}, code: 1, stdout: "beeuni.yaml:3: error: tools/x.ts is not tracked by Git: run git add tools/x.ts\n1 error\n"},
				{args: []string{"validate", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
				{args: []string{"tools", "ls"}, code: 1, stderr: "tools/x.ts is not tracked by Git: run git add tools/x.ts"},
				{args: []string{"tools", "ls", "--worktree"}, code: 0, stdout: "x     project  tools/x.ts\n"},
				// tools call runs the working tree, and says first what Git would not ship.
				{args: []string{"tools", "call", "x"}, code: 0, stdout: "ok\n", stderr: "beeuni.yaml:3: warning: tools/x.ts is not tracked by Git: run git add tools/x.ts"},
			},
			clean: true,
		},
		{
			name: "a declared module Git ignores",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  s: tools/s.ts\n", ".gitignore": "tools/s.ts\n"},
					map[string]string{"tools/s.ts": okTool})
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: "beeuni.yaml:3: error: tools/s.ts is ignored by Git (.gitignore), so the fleet never gets it: run git add -f tools/s.ts, or stop ignoring it\n1 error\n"},
				{args: []string{"validate", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "manifest files Git does not track",
			dir: func(tb testing.TB) string {
				return gitProject(tb, nil, map[string]string{
					"beeuni.yaml": "imports: [more.yaml]\ntools:\n  show: beeuni:show\n",
					"more.yaml":   "tools:\n  x: tools/x.ts\n",
					"tools/x.ts":  okTool,
				})
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: "beeuni.yaml: error: beeuni.yaml is not tracked by Git: run git add beeuni.yaml\n" +
					"beeuni.yaml: error: more.yaml is not tracked by Git: run git add more.yaml\n" +
					"more.yaml:2: error: tools/x.ts is not tracked by Git: run git add tools/x.ts\n3 errors\n"},
				{args: []string{"validate", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a file a module imports that Git does not track",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{
					"beeuni.yaml": "tools:\n  show: beeuni:show\n  a: tools/a.ts\n",
					"tools/a.ts":  "import { h } from './h'\nexport default { description: 'A.', parameters: { type: 'object' }, execute: () => h }\n",
				}, map[string]string{"tools/h.ts": "export const h = 'hi'\n"})
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: "tools/a.ts: error: tools/h.ts is not tracked by Git: run git add tools/h.ts (tools/a.ts imports it)\n"},
				{args: []string{"validate", "--load"}, code: 1, stdout: "tools/a.ts: error: tool a does not load: tools/a.ts:1:19: Could not resolve \"./h\""},
				{args: []string{"validate", "--load", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a package found only in a node_modules Git ignores",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{
					"beeuni.yaml": "tools:\n  show: beeuni:show\n  a: tools/a.ts\n",
					".gitignore":  "node_modules/\n",
					"tools/a.ts":  "import { z } from 'zod'\nexport default { description: 'Zod.', parameters: { type: 'object' }, execute: () => typeof z }\n",
				}, map[string]string{
					"node_modules/zod/package.json": `{"name": "zod", "main": "index.js"}`,
					"node_modules/zod/index.js":     "exports.z = {}\n",
				})
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: `tools/a.ts: error: the package "zod" is found only in node_modules/zod, which Git ignores, so the fleet answers Cannot find package 'zod': commit the package (git add -f node_modules/zod, or vendor it into a folder Git tracks), or stop importing it`},
				{args: []string{"validate", "--load"}, code: 1, stdout: "tools/a.ts: error: tool a does not load: Cannot find package 'zod'\n"},
				{args: []string{"validate", "--load", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a package in a node_modules Git does not track, then committed",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{
					"beeuni.yaml": "tools:\n  show: beeuni:show\n  a: tools/a.ts\n",
					"tools/a.ts":  "import { z } from 'zod'\nexport default { description: 'Zod.', parameters: { type: 'object' }, execute: () => typeof z }\n",
				}, map[string]string{
					"node_modules/zod/package.json": `{"name": "zod", "main": "index.js"}`,
					"node_modules/zod/index.js":     "exports.z = {}\n",
				})
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: `tools/a.ts: error: the package "zod" is found only in node_modules/zod, which Git does not track, so the fleet answers Cannot find package 'zod': run git add node_modules/zod, or stop importing it`},
				{args: []string{"validate", "--worktree", "--load"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a vendored package: committed, it ships",
			dir: func(tb testing.TB) string {
				return gitProject(tb, map[string]string{
					"beeuni.yaml":                   "tools:\n  show: beeuni:show\n  a: tools/a.ts\n",
					"tools/a.ts":                    "import { z } from 'zod'\nexport default { description: 'Zod.', parameters: { type: 'object' }, execute: () => typeof z }\n",
					"node_modules/zod/package.json": `{"name": "zod", "main": "index.js"}`,
					"node_modules/zod/index.js":     "exports.z = {}\n",
				}, nil)
			},
			runs: []cliRun{
				{args: []string{"validate", "--load"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a committed symlink that leaves the repository",
			dir: func(tb testing.TB) string {
				repo := gitProject(tb, map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  l: tools/l.ts\n"}, nil)
				target, err := filepath.Rel(filepath.Join(repo, "tools"), filepath.Join(outside, "l.ts"))
				if err != nil {
					tb.Fatal(err)
				}
				commitLink(tb, repo, "tools/l.ts", target)
				return repo
			},
			runs: []cliRun{
				{args: []string{"validate"}, code: 1, stdout: "tools/l.ts: error: symlink tools/l.ts -> ../../"},
				{args: []string{"validate"}, code: 1, stdout: "points outside the repository; make it point to a file inside the repository\n"},
				{args: []string{"validate", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n"},
			},
			clean: true,
		},
		{
			name: "a tracked module changed and not staged: the working tree's content is checked, and said so",
			dir: func(tb testing.TB) string {
				dir := gitProject(tb, map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  x: tools/x.ts\n", "tools/x.ts": okTool}, nil)
				writeFiles(tb, dir, map[string]string{"tools/x.ts": "export default {\n"})
				return dir
			},
			runs: []cliRun{
				{args: []string{"validate", "--load"}, code: 1, stdout: "tools/x.ts: error: tool x does not load: tools/x.ts:2:1: Expected identifier but found end of file",
					stderr: "note: checking the files Git tracks as they are in the working tree; not staged for commit: tools/x.ts (the fleet gets these changes only once committed: git add tools/x.ts)\n"},
			},
		},
		{
			name: "not a Git repository: the working tree, with a note",
			dir: func(tb testing.TB) string {
				return writeProject(tb, map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  x: tools/x.ts\n", "tools/x.ts": okTool})
			},
			runs: []cliRun{
				{args: []string{"validate", "--load"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n", stderr: "is not in a Git repository: checking the working tree as it is"},
				{args: []string{"validate", "--worktree"}, code: 0, stdout: "beeuni.yaml is valid: 2 tools\n", notStderr: "note:"},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := tc.dir(t)
			for _, run := range tc.runs {
				r := runBin(t, dir, run.args...)
				if r.code != run.code || !strings.Contains(r.stdout, run.stdout) || !strings.Contains(r.stderr, run.stderr) ||
					(run.notStderr != "" && strings.Contains(r.stderr, run.notStderr)) || (tc.clean && strings.Contains(r.stderr, "note:")) {
					t.Errorf("beeuni %s: exit %d\n-- stdout:\n%s-- stderr:\n%s-- want exit %d, stdout containing %q, stderr containing %q",
						strings.Join(run.args, " "), r.code, r.stdout, r.stderr, run.code, run.stdout, run.stderr)
				}
			}
		})
	}
}
