package compat

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/beeuni/beeuni/internal/gitrepo"
)

// An answer is what one runtime gave for one case: the output the model
// reads, or the error it reads.
type answer struct {
	Err  bool
	Text string
}

// goldenText is the answer as golden/<case>.txt holds it.
func (a answer) goldenText() string {
	if a.Err {
		return errorPrefix + a.Text + "\n"
	}
	return a.Text + "\n"
}

// errorPrefix marks a golden file whose answer is an error.
const errorPrefix = "!error: "

func parseGolden(s string) answer {
	s = strings.TrimRight(s, "\n")
	if t, ok := strings.CutPrefix(s, errorPrefix); ok {
		return answer{Err: true, Text: t}
	}
	return answer{Text: s}
}

// callTimeout bounds one runtime's call of one case: generous, since
// beeuni bundles a large package in tens of seconds today.
const callTimeout = 3 * time.Minute

// commitTime is the fixed author and commit time of every case project, so
// tools that print commit ids print the same ones in every runtime and run.
var commitTime = time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)

// project makes the case's project in a new folder under base: its files,
// beeuni.yaml (unless the folder has one), a .gitignore for node_modules,
// all committed to a real Git repository at a fixed time, then the
// packages it needs laid into node_modules.
func (r *run) project(c *testCase, base string) (string, error) {
	dir := filepath.Join(base, "project")
	if err := copyTree(filepath.Join(r.casesDir, c.Dir), dir, false); err != nil {
		return "", err
	}
	if _, err := os.Stat(filepath.Join(dir, "beeuni.yaml")); err != nil {
		if err := os.WriteFile(filepath.Join(dir, "beeuni.yaml"), []byte(c.manifestYAML()), 0o644); err != nil {
			return "", err
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("node_modules/\n.compat-node/\n.compat-opencode.mjs\n"), 0o644); err != nil {
		return "", err
	}
	if err := commitAll(dir); err != nil {
		return "", err
	}
	if len(c.Packages) > 0 {
		if r.inst == nil {
			return "", errors.New("the case needs packages and none are installed")
		}
		if err := r.inst.linkModules(dir, c.Packages); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// commitAll makes dir a Git repository with its files in one commit.
func commitAll(dir string) error {
	if err := gitrepo.Init(dir); err != nil {
		return err
	}
	repo, err := git.PlainOpen(dir)
	if err != nil {
		return err
	}
	wt, err := repo.Worktree()
	if err != nil {
		return err
	}
	if err := wt.AddGlob("."); err != nil {
		return fmt.Errorf("git add: %w", err)
	}
	sig := &object.Signature{Name: "Ada", Email: "ada@example.com", When: commitTime}
	_, err = wt.Commit("the case", &git.CommitOptions{Author: sig, Committer: sig})
	return err
}

// callBeeuni runs `beeuni tools call` in the project.
func (r *run) callBeeuni(ctx context.Context, c *testCase, dir string) answer {
	args := []string{"tools", "call", c.Tool, "--args", string(c.Args)}
	if c.Harness != "" {
		args = append(args, "--harness", c.Harness)
	}
	stdout, stderr, err := r.exec(ctx, c, dir, r.beeuni, args...)
	if err != nil {
		return answer{Err: true, Text: beeuniError(stderr, err)}
	}
	return answer{Text: strings.TrimSuffix(stdout, "\n")}
}

// beeuniError is the error text of a failed `tools call`: stderr less the
// log records the tool's console wrote, and less the warnings that Git
// ignores a package when an error follows them (a case's packages are
// linked after its commit, so every package case warns so).
func beeuniError(stderr string, err error) string {
	var keep, warnings []string
	for _, l := range strings.Split(strings.TrimRight(stderr, "\n"), "\n") {
		switch {
		case strings.HasPrefix(l, "time="):
		case strings.Contains(l, ": warning: ") && strings.Contains(l, "which Git ignores"):
			warnings = append(warnings, l)
		default:
			keep = append(keep, l)
		}
	}
	if len(keep) == 0 {
		keep = warnings
	}
	// "no tool named X is loaded" is the consequence: the warning that
	// says why the module did not load goes first, for the report.
	if len(keep) > 1 && strings.Contains(keep[0], "no tool named") {
		keep = append(keep[1:], keep[0])
	}
	if s := strings.TrimSpace(strings.Join(keep, "\n")); s != "" {
		return s
	}
	return err.Error()
}

// callRunner runs runner/run.mjs on Bun or Node in the project.
func (r *run) callRunner(ctx context.Context, c *testCase, dir, runtimeName string) answer {
	var bin string
	var pre []string
	switch runtimeName {
	case "bun":
		bin, pre = r.inst.bun(), []string{"--no-install"}
	case "node":
		bin = "node"
	}
	args := append(pre, r.runner, dir, c.Module, c.Tool, string(c.Args), c.Form)
	stdout, stderr, err := r.exec(ctx, c, dir, bin, args...)
	if err != nil {
		if _, msg, ok := strings.Cut(stderr, runnerErrorMark); ok {
			return answer{Err: true, Text: strings.TrimSuffix(msg, "\n")}
		}
		return answer{Err: true, Text: fmt.Sprintf("%s did not run the case: %v: %s", runtimeName, err, lastLines(stderr, 5))}
	}
	return answer{Text: strings.TrimSuffix(stdout, "\n")}
}

// runnerErrorMark is run.mjs's ERROR_MARK.
const runnerErrorMark = "\x00compat-error:"

// exec runs one process in dir with the corpus environment.
func (r *run) exec(ctx context.Context, c *testCase, dir, bin string, args ...string) (string, string, error) {
	ctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = r.environ(c, dir)
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	if ctx.Err() != nil {
		err = fmt.Errorf("no answer in %s", callTimeout)
	}
	return out.String(), errb.String(), err
}

// environ is the same environment for every runtime: the machine's PATH and
// HOME, UTC, a fixed locale, the loopback stub's URL and the case's own.
func (r *run) environ(c *testCase, dir string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + os.Getenv("HOME"),
		"TZ=UTC",
		"LANG=C.UTF-8",
		"COMPAT_HTTP=" + r.stubURL,
		"COMPAT_DIR=" + dir,
		"COMPAT_ESBUILD=" + r.esbuildPath(),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com",
		"GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE=2024-01-02T03:04:05Z", "GIT_COMMITTER_DATE=2024-01-02T03:04:05Z",
	}
	for k, v := range c.Env {
		env = append(env, k+"="+v)
	}
	return env
}

func (r *run) esbuildPath() string {
	if r.inst == nil {
		return ""
	}
	return r.inst.esbuild()
}

// normalize replaces what legitimately differs between runtimes and runs:
// the project's folder (each runtime has its own copy), the loopback stub's
// address, and newlines at the very end. Nothing else is rewritten.
func (r *run) normalize(a answer, dir string) answer {
	repl := []string{dir, "$DIR"}
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		repl = append([]string{real, "$DIR"}, repl...)
	}
	repl = append(repl, r.stubURL, "$HTTP", r.stubHost, "$HTTP_HOST")
	// `tools call` prints the output less its last newline; the runners
	// print it whole.
	a.Text = strings.TrimRight(strings.NewReplacer(repl...).Replace(a.Text), "\n")
	return a
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
