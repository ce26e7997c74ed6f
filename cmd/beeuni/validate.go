package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/beeuni/beeuni/loader"
)

// loadCheck bundles and loads every module of a read project and returns a
// finding for each that would not load (`validate --load`). validate offers
// the --load flag only when it is given one.
type loadCheck func(ctx context.Context, dir string, p *loader.Project) []loader.Finding

// validate is `beeuni validate`: every manifest rule, the findings as
// `FILE:LINE: error|warning: MESSAGE` sorted by file and line, then a count
// line: `beeuni.yaml is valid: N tools[, M warnings]` when there is no error,
// else `N errors[, M warnings]`. Exit 1 on errors, 0 on warnings alone.
func (a *app) validate(ctx context.Context, args []string) int {
	return a.validateWith(ctx, args, loadAndLint)
}

func (a *app) validateWith(ctx context.Context, args []string, load loadCheck) int {
	usage := "validate [--dir DIR] [--worktree] [--harness H]"
	if load != nil {
		usage = "validate [--dir DIR] [--load] [--worktree] [--harness H]"
	}
	fl := a.newFlags("validate", usage)
	var pc projectCmd
	addProjectFlags(fl, &pc)
	var doLoad *bool
	if load != nil {
		doLoad = fl.Bool("load", false, "also bundle and load every module, reporting each that would not load, and warn about schemas a provider would reject")
	}
	worktree := addWorktreeFlag(fl)
	_, h, root, code, ok := a.parseProject(fl, &pc, args, takesNoArgs("validate"))
	if !ok {
		return code
	}
	if !a.manifestExists(root) {
		fmt.Fprintln(a.stdout, "1 error")
		return exitFailure
	}
	v, ok := a.openView(ctx, root, *worktree)
	if !ok {
		return exitFailure
	}
	a.printNotes(v)
	p := v.read(h)
	findings := merge(p.Findings, v.shipping(h))
	if doLoad != nil && *doLoad && !p.HasErrors() {
		loaded, err := v.load(ctx, func(ctx context.Context, dir string) []loader.Finding { return load(ctx, dir, p) })
		if err != nil {
			a.errorf(nil, "validate --load: %v", err)
			return exitFailure
		}
		findings = append(append([]loader.Finding(nil), findings...), loaded...)
		sortFindings(findings)
	}
	errs, warns := 0, 0
	for _, f := range findings {
		fmt.Fprintln(a.stdout, f.String())
		if f.Severity == loader.SeverityError {
			errs++
		} else {
			warns++
		}
	}
	fmt.Fprintln(a.stdout, countLine(errs, warns, len(p.Tools)))
	if errs > 0 {
		return exitFailure
	}
	return exitOK
}

// addWorktreeFlag adds --worktree: check the working tree as it is instead
// of what Git would ship.
func addWorktreeFlag(fl *flag.FlagSet) *bool {
	return fl.Bool("worktree", false, "check the working tree as it is, untracked and ignored files included, instead of what Git would ship (the tracked files)")
}

// countLine is validate's last line.
func countLine(errs, warns, tools int) string {
	w := ""
	if warns > 0 {
		w = ", " + plural(warns, "warning")
	}
	if errs > 0 {
		return plural(errs, "error") + w
	}
	return loader.ManifestName + " is valid: " + plural(tools, "tool") + w
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// projectCmd holds the flags of the commands that read a project folder
// (validate, tools ls, tools call): --dir and --harness.
type projectCmd struct{ dir, harness string }

func addProjectFlags(fl *flag.FlagSet, p *projectCmd) {
	fl.StringVar(&p.dir, "dir", "", "the project folder, which holds beeuni.yaml (default: the current folder)")
	fl.StringVar(&p.harness, "harness", string(loader.HarnessDefault), "the harness whose rules apply: default or experimental")
}

// parseProject parses args, lets check refuse the positional arguments and
// resolves --harness and --dir; each refusal is bad usage. When ok is false
// the command returns code.
func (a *app) parseProject(fl *flag.FlagSet, p *projectCmd, args []string, check func(pos []string) error) (pos []string, h loader.Harness, root string, code int, ok bool) {
	if pos, code, ok = a.parseArgs(fl, args, check); !ok {
		return nil, "", "", code, false
	}
	if h, root, code, ok = a.resolveProject(p); !ok {
		return nil, "", "", code, false
	}
	return pos, h, root, exitOK, true
}

// parseArgs parses args and lets check refuse the positional arguments
// (bad usage, with the usage printed).
func (a *app) parseArgs(fl *flag.FlagSet, args []string, check func(pos []string) error) ([]string, int, bool) {
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return nil, code, false
	}
	if err := check(pos); err != nil {
		a.errorf(nil, "%v", err)
		fl.Usage()
		return nil, exitUsage, false
	}
	return pos, exitOK, true
}

// resolveProject checks --harness and --dir; a bad value is bad usage.
func (a *app) resolveProject(p *projectCmd) (loader.Harness, string, int, bool) {
	h, err := loader.ParseHarness(p.harness)
	if err != nil {
		a.errorf(nil, "--harness: %v", err)
		return "", "", exitUsage, false
	}
	root, err := projectDir(p.dir)
	if err != nil {
		a.errorf(nil, "%v", err)
		return "", "", exitUsage, false
	}
	return h, root, exitOK, true
}

// takesNoArgs refuses any positional argument of command name.
func takesNoArgs(name string) func([]string) error {
	return func(pos []string) error {
		if len(pos) > 0 {
			return fmt.Errorf("%s takes no arguments, got %q", name, pos[0])
		}
		return nil
	}
}

// manifestExists says where it looked and what to do when root has no
// beeuni.yaml. Other problems with the file (a folder, unreadable) are
// findings of loader.Read.
func (a *app) manifestExists(root string) bool {
	_, err := os.Stat(filepath.Join(root, loader.ManifestName))
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(a.stdout, "%s: error: no %s in %s: create one that lists the project's tools (examples/demo/beeuni.yaml shows one), or pass --dir with the folder that holds it\n",
			loader.ManifestName, loader.ManifestName, root)
		return false
	}
	return true
}
