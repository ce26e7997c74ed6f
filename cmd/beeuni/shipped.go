package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/release"
)

// shipView is the project as validate, tools ls and tools call see it: by
// default what Git would ship, the tracked files with their working-tree
// content, laid out and read the way the controller reads a commit's tree
// (release.OpenWorktree); with --worktree, or outside a Git repository,
// the working tree as it is.
type shipView struct {
	root  string            // the project folder on disk
	wt    *release.Worktree // nil: the working tree as it is
	notes []string          // what was checked, for stderr
}

// openView opens root's view; an unreadable repository is a failure.
func (a *app) openView(ctx context.Context, root string, worktree bool) (*shipView, bool) {
	v := &shipView{root: root}
	if worktree {
		return v, true
	}
	w, err := release.OpenWorktree(ctx, root)
	if errors.Is(err, release.ErrNotGit) {
		v.notes = append(v.notes, fmt.Sprintf("note: %s is not in a Git repository: checking the working tree as it is (the fleet gets only what a commit holds)", root))
		return v, true
	}
	if err != nil {
		a.errorf(nil, "%v (pass --worktree to check the working tree as it is)", err)
		return nil, false
	}
	v.wt = w
	if len(w.Unstaged) > 0 {
		v.notes = append(v.notes, fmt.Sprintf("note: checking the files Git tracks as they are in the working tree; not staged for commit: %s (the fleet gets these changes only once committed: git add %s)",
			strings.Join(w.Unstaged, ", "), strings.Join(w.Unstaged, " ")))
	}
	if len(w.Deleted) > 0 {
		v.notes = append(v.notes, fmt.Sprintf("note: tracked but deleted in the working tree, checked as gone: %s (commit the deletion with git rm, or restore them with git checkout)",
			strings.Join(w.Deleted, ", ")))
	}
	return v, true
}

// printNotes writes the view's notes to stderr.
func (a *app) printNotes(v *shipView) {
	for _, n := range v.notes {
		fmt.Fprintln(a.stderr, n)
	}
}

// read applies the manifest rules to the view's files.
func (v *shipView) read(h loader.Harness) *loader.Project {
	if v.wt == nil {
		return loader.Read(os.DirFS(v.root), h)
	}
	return loader.Read(v.wt.FS(), h)
}

// load lays the view out as an executor would get it and runs check on
// that folder; paths of the scratch folder in findings read as the
// project's. The working tree is checked in place.
func (v *shipView) load(ctx context.Context, check func(ctx context.Context, dir string) []loader.Finding) ([]loader.Finding, error) {
	if v.wt == nil {
		return check(ctx, v.root), nil
	}
	scratch, err := os.MkdirTemp("", "beeuni-validate-")
	if err != nil {
		return nil, fmt.Errorf("make a scratch folder to load the modules in: %w", err)
	}
	defer os.RemoveAll(scratch)
	dst := filepath.Join(scratch, "tree")
	if err := v.wt.LayOut(dst); err != nil {
		return nil, fmt.Errorf("lay out the tracked files to load them: %w", err)
	}
	out := check(ctx, dst)
	for i := range out {
		out[i].File = strings.ReplaceAll(out[i].File, dst, v.root)
		out[i].Message = strings.ReplaceAll(out[i].Message, dst, v.root)
	}
	return out, nil
}

// shipping are the view's errors about what Git would not ship: the
// findings a build of the tracked tree gives (symlinks leaving it), and
// every manifest file, declared module and file a module pulls in that
// exists in the working tree but is not tracked. Nil for the working tree.
func (v *shipView) shipping(h loader.Harness) []shipFinding {
	if v.wt == nil {
		return nil
	}
	var out []shipFinding
	seen := map[string]bool{}
	add := func(f loader.Finding, about string) {
		if k := f.String(); !seen[k] {
			seen[k] = true
			out = append(out, shipFinding{f, about})
		}
	}
	for _, f := range v.wt.Snapshot.Findings {
		add(loader.Finding{File: f.File, Line: f.Line, Severity: loader.Severity(f.Severity), Message: f.Message}, "")
	}
	// The working tree as it is says which files the project means to use.
	wp := loader.Read(os.DirFS(v.root), h)
	for _, f := range wp.Files() {
		if msg, bad := v.untracked(f); bad {
			add(loader.Finding{File: wp.Manifest, Severity: loader.SeverityError, Message: msg}, f)
		}
	}
	b := bundle.New(nil)
	for _, t := range wp.Tools {
		if t.IsBuiltin() || !v.exists(t.Source) {
			continue
		}
		if msg, bad := v.untracked(t.Source); bad {
			file, line := t.File, t.Line
			if file == "" {
				file = t.Source
			}
			add(loader.Finding{File: file, Line: line, Severity: loader.SeverityError, Message: msg}, t.Source)
		}
		inputs, err := b.Inputs(v.root, t.Source)
		if err != nil {
			continue // the load check reports a module that cannot be read
		}
		for _, in := range inputs {
			if in == t.Source || v.wt.Tracked(in) {
				continue
			}
			if pkg, dir, ok := v.untrackedPackage(in); ok {
				if !v.trackedPackage(t.Source, pkg) {
					add(loader.Finding{File: t.Source, Severity: loader.SeverityError, Message: v.packageMessage(pkg, dir)}, "")
				}
				continue
			}
			if msg, bad := v.untracked(in); bad {
				add(loader.Finding{File: t.Source, Severity: loader.SeverityError, Message: msg + " (" + t.Source + " imports it)"}, "")
			}
		}
	}
	return out
}

// shipFinding is a finding about what Git would not ship; about, when set,
// is the manifest file or declared module it is about, which the tracked
// tree lacks.
type shipFinding struct {
	loader.Finding
	about string
}

// merge adds the shipping findings to the tracked tree's, in file and line
// order. A tracked-tree error that a file "does not exist" while it exists
// on disk and Git does not ship it is replaced, at its own line, by the
// shipping finding's message: that is what to change.
func merge(tracked []loader.Finding, shipping []shipFinding) []loader.Finding {
	if len(shipping) == 0 {
		return tracked
	}
	out := append([]loader.Finding(nil), tracked...)
	for _, s := range shipping {
		i := -1
		if s.about != "" {
			i = slices.IndexFunc(out, func(f loader.Finding) bool {
				return f.Severity == loader.SeverityError && (strings.HasSuffix(f.Message, "`: "+s.about+" does not exist: create the module or fix the path") ||
					strings.HasPrefix(f.Message, "imports `"+s.about+"`, which does not exist:") ||
					(f.File == s.about && strings.HasPrefix(f.Message, "not found at the repository root")))
			})
		}
		if i < 0 {
			out = append(out, s.Finding)
			continue
		}
		out[i].Message = s.Message
	}
	sortFindings(out)
	return out
}

func (v *shipView) exists(p string) bool {
	_, err := os.Lstat(filepath.Join(v.root, filepath.FromSlash(p)))
	return err == nil
}

// untracked says what to do about p when it is on disk but Git does not
// track it.
func (v *shipView) untracked(p string) (string, bool) {
	if v.wt.Tracked(p) || !v.exists(p) {
		return "", false
	}
	if v.wt.Ignored(p, false) {
		return fmt.Sprintf("%s is ignored by Git (.gitignore), so the fleet never gets it: run git add -f %s, or stop ignoring it", p, p), true
	}
	return fmt.Sprintf("%s is not tracked by Git: run git add %s", p, p), true
}

// untrackedPackage finds the outermost package folder on p's way
// (node_modules/NAME or node_modules/@scope/NAME) that Git does not track.
func (v *shipView) untrackedPackage(p string) (name, dir string, ok bool) {
	segs := strings.Split(p, "/")
	for i := 0; i < len(segs)-1; i++ {
		if segs[i] != "node_modules" {
			continue
		}
		n := 1
		if strings.HasPrefix(segs[i+1], "@") && i+2 < len(segs)-1 {
			n = 2
		}
		dir = strings.Join(segs[:i+1+n], "/")
		if !v.wt.Tracked(dir) {
			return strings.Join(segs[i+1:i+1+n], "/"), dir, true
		}
	}
	return "", "", false
}

// trackedPackage reports whether Git ships package pkg where Node would
// look for it from module src (a node_modules in its folder or above):
// then the fleet resolves that copy and the load check judges it.
func (v *shipView) trackedPackage(src, pkg string) bool {
	for d := path.Dir(src); ; d = path.Dir(d) {
		if v.wt.Tracked(path.Join(d, "node_modules", pkg)) {
			return true
		}
		if d == "." {
			return false
		}
	}
}

func (v *shipView) packageMessage(pkg, dir string) string {
	notFound := fmt.Sprintf("Cannot find package '%s'", pkg)
	if v.wt.Ignored(dir, true) {
		return fmt.Sprintf("the package %q is found only in %s, which Git ignores, so the fleet answers %s: commit the package (git add -f %s, or vendor it into a folder Git tracks), or stop importing it",
			pkg, dir, notFound, dir)
	}
	return fmt.Sprintf("the package %q is found only in %s, which Git does not track, so the fleet answers %s: run git add %s, or stop importing it",
		pkg, dir, notFound, dir)
}

// sortFindings orders findings by file and line, keeping the order within.
func sortFindings(fs []loader.Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].File != fs[j].File {
			return fs[i].File < fs[j].File
		}
		return fs[i].Line < fs[j].Line
	})
}
