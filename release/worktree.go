package release

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/gitignore"
)

// ErrNotGit is OpenWorktree's error for a folder in no Git repository.
var ErrNotGit = errors.New("not a git repository")

// Worktree is what Git would ship from a work tree: the files the index
// tracks, with their content as it is in the working tree (what
// `git commit -a` would record). Nothing untracked or ignored is in it. Its
// Snapshot is judged by the rules a build applies to a commit's tree (names,
// modes, symlinks leaving the tree), so `beeuni validate` and the controller
// cannot disagree about a tree.
type Worktree struct {
	// Root is the project folder, absolute; paths are relative to it.
	Root string
	// Snapshot holds the tracked files as entries, and the findings a build
	// of the same tree would give. It has no commit.
	Snapshot *Snapshot
	// Unstaged are tracked files whose working-tree content differs from
	// what the index holds (changes not staged for commit); Deleted are
	// tracked files missing from the working tree. Both are taken as they
	// are in the working tree.
	Unstaged, Deleted []string

	repoRoot string           // the repository's work tree
	prefix   string           // Root relative to repoRoot, slash-separated, "" or ending in "/"
	dirs     map[string]bool  // folders holding a tracked file
	indexed  map[string]bool  // every tracked path, entries dropped for a finding included
	fsys     billy.Filesystem // the work tree, for its ignore files
	excludes []gitignore.Pattern
	ignore   gitignore.Matcher // read on first use: only a finding needs it
}

// OpenWorktree reads the index of the repository holding dir (dir or a
// folder above it) and the working-tree content of every file it tracks
// under dir. A folder in no repository gives ErrNotGit.
func OpenWorktree(ctx context.Context, dir string) (*Worktree, error) {
	root, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if errors.Is(err, git.ErrRepositoryNotExists) {
		return nil, ErrNotGit
	}
	if err != nil {
		return nil, fmt.Errorf("open the Git repository of %s: %w", root, err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, fmt.Errorf("%s: %w (a bare repository has no files to check)", root, err)
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return nil, fmt.Errorf("read the Git index of %s: %w", root, err)
	}
	w := &Worktree{Root: root, repoRoot: wt.Filesystem.Root(), dirs: map[string]bool{".": true}, indexed: map[string]bool{}}
	// Both sides with symlinks resolved, so a project reached through a
	// symlinked folder still finds its place in the repository.
	realRoot, err1 := filepath.EvalSymlinks(root)
	realRepo, err2 := filepath.EvalSymlinks(w.repoRoot)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	rel, err := filepath.Rel(realRepo, realRoot)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil, fmt.Errorf("%s is not inside the work tree %s", root, w.repoRoot)
	}
	if rel != "." {
		w.prefix = filepath.ToSlash(rel) + "/"
	}
	w.fsys, w.excludes = wt.Filesystem, wt.Excludes

	b := &builder{pending: map[plumbing.Hash][]int{}}
	seen := map[string]bool{}
	for _, ie := range idx.Entries {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p, ok := strings.CutPrefix(ie.Name, w.prefix)
		if !ok || seen[p] || ie.Mode == filemode.Submodule {
			continue
		}
		seen[p] = true // a conflicted file has one entry per stage
		w.indexed[p] = true
		if err := checkSegments(p); err != nil {
			b.errorf(p, "path %q %v; remove it from the repository", p, err) // a build's words
			continue
		}
		e, content, err := w.readEntry(p)
		if errors.Is(err, fs.ErrNotExist) {
			w.Deleted = append(w.Deleted, p)
			continue
		}
		if err != nil {
			return nil, err
		}
		if e.Mode == "" {
			continue // a folder where the index has a file: git commit -a would not record it either
		}
		if e.Blob != ie.Hash.String() {
			w.Unstaged = append(w.Unstaged, p)
		}
		b.entries = append(b.entries, e)
		if e.Mode == ModeSymlink {
			if f, bad := linkFinding(e.Path, content); bad {
				b.findings = append(b.findings, f)
				b.entries[len(b.entries)-1].Mode = "" // dropped in finish, as a build does
			}
		}
	}
	snap := &Snapshot{}
	b.finish(snap)
	w.Snapshot = snap
	for p := range w.indexed {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			w.dirs[d] = true
		}
	}
	slices.Sort(w.Unstaged)
	slices.Sort(w.Deleted)
	return w, nil
}

// readEntry reads the working-tree file at p as an entry: its mode, size,
// Git blob hash and SHA-256. A folder gives an entry without a mode.
func (w *Worktree) readEntry(p string) (Entry, []byte, error) {
	full := w.path(p)
	st, err := os.Lstat(full)
	if err != nil {
		return Entry{}, nil, err
	}
	var content []byte
	e := Entry{Path: p}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		target, err := os.Readlink(full)
		if err != nil {
			return Entry{}, nil, err
		}
		e.Mode, content = ModeSymlink, []byte(filepath.ToSlash(target))
	case st.Mode().IsRegular():
		if content, err = os.ReadFile(full); err != nil {
			return Entry{}, nil, err
		}
		e.Mode = ModeFile
		if st.Mode()&0o111 != 0 {
			e.Mode = ModeExecutable
		}
	default:
		return Entry{}, nil, nil
	}
	sum := sha256.Sum256(content)
	e.Size, e.Digest = int64(len(content)), hex.EncodeToString(sum[:])
	e.Blob = plumbing.ComputeHash(plumbing.BlobObject, content).String()
	return e, content, nil
}

func (w *Worktree) path(p string) string { return filepath.Join(w.Root, filepath.FromSlash(p)) }

// Tracked reports whether Git tracks p (slash-separated, relative to
// Root), or a file in folder p. A tracked file the snapshot leaves out for
// a finding (a symlink leaving the tree) is tracked: the finding says why.
func (w *Worktree) Tracked(p string) bool {
	p = path.Clean(p)
	return w.dirs[p] || w.indexed[p]
}

// Ignored reports whether .gitignore (or .git/info/exclude) hides p, a
// path relative to Root. Not safe for concurrent use.
func (w *Worktree) Ignored(p string, isDir bool) bool {
	if w.ignore == nil {
		patterns, _ := gitignore.ReadPatterns(w.fsys, nil) // an unreadable ignore file only changes wording
		w.ignore = gitignore.NewMatcher(append(patterns, w.excludes...))
	}
	return w.ignore.Match(strings.Split(w.prefix+path.Clean(p), "/"), isDir)
}

// FS is the tracked files as an fs.FS (the controller validates a commit
// through the same kind of view, Repo.FS). Content is read from the working
// tree and must still match the entry: a file changed since OpenWorktree
// reads as an error.
func (w *Worktree) FS() fs.FS {
	return newTreeFS(w.Snapshot.Entries, w.content)
}

func (w *Worktree) content(e Entry) ([]byte, error) {
	var b []byte
	var err error
	if e.Mode == ModeSymlink {
		var t string
		t, err = os.Readlink(w.path(e.Path))
		b = []byte(filepath.ToSlash(t))
	} else {
		b, err = os.ReadFile(w.path(e.Path))
	}
	if err != nil {
		return nil, err
	}
	if err := VerifyContent(e, b); err != nil {
		return nil, fmt.Errorf("%s changed while it was checked: run the command again", e.Path)
	}
	return b, nil
}

// LayOut writes the tracked files into dst as WriteTree lays a release out
// for an executor, so modules load from exactly what Git would ship.
func (w *Worktree) LayOut(dst string) error {
	rec := &Record{Entries: w.Snapshot.Entries, Digest: w.Snapshot.Digest}
	byDigest := make(map[string]Entry, len(rec.Entries))
	for _, e := range rec.Entries {
		byDigest[e.Digest] = e
	}
	return WriteTree(dst, rec, func(digest string) (io.ReadCloser, error) {
		e, ok := byDigest[digest]
		if !ok {
			return nil, fmt.Errorf("no tracked file has content %s", digest)
		}
		b, err := w.content(e)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(bytes.NewReader(b)), nil
	})
}

// checkSegments is checkName over each segment of an index path.
func checkSegments(p string) error {
	for seg := range strings.SplitSeq(p, "/") {
		if err := checkName(seg); err != nil {
			return err
		}
	}
	return nil
}
