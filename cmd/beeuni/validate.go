package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

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
	usage := "validate [--dir DIR] [--harness H]"
	if load != nil {
		usage = "validate [--dir DIR] [--load] [--harness H]"
	}
	fl := a.newFlags("validate", usage)
	dir := fl.String("dir", "", "the project folder, which holds beeuni.yaml (default: the current folder)")
	harness := fl.String("harness", string(loader.HarnessDefault), "the harness whose rules apply: default or experimental")
	var doLoad *bool
	if load != nil {
		doLoad = fl.Bool("load", false, "also bundle and load every module, reporting each that would not load, and warn about schemas a provider would reject")
	}
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		a.errorf(nil, "validate takes no arguments, got %q", pos[0])
		fl.Usage()
		return exitUsage
	}
	h, root, code, ok := a.projectFlags(*harness, *dir)
	if !ok {
		return code
	}
	if !a.manifestExists(root) {
		fmt.Fprintln(a.stdout, "1 error")
		return exitFailure
	}
	p := loader.Read(os.DirFS(root), h)
	findings := p.Findings
	if doLoad != nil && *doLoad && !p.HasErrors() {
		findings = append(append([]loader.Finding(nil), findings...), load(ctx, root, p)...)
		sort.SliceStable(findings, func(i, j int) bool {
			if findings[i].File != findings[j].File {
				return findings[i].File < findings[j].File
			}
			return findings[i].Line < findings[j].Line
		})
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

// projectFlags checks --harness and --dir; a bad value is bad usage.
func (a *app) projectFlags(harness, dir string) (loader.Harness, string, int, bool) {
	h, err := loader.ParseHarness(harness)
	if err != nil {
		a.errorf(nil, "--harness: %v", err)
		return "", "", exitUsage, false
	}
	root, err := projectDir(dir)
	if err != nil {
		a.errorf(nil, "%v", err)
		return "", "", exitUsage, false
	}
	return h, root, exitOK, true
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
