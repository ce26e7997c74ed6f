package release

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/go-git/go-git/v5"
)

func openWorktree(tb testing.TB, dir string) *Worktree {
	tb.Helper()
	w, err := OpenWorktree(context.Background(), dir)
	if err != nil {
		tb.Fatalf("OpenWorktree: %v", err)
	}
	return w
}

// A clean work tree is the commit: same entries, same findings, same digest
// as the controller's build of it.
func TestWorktreeIsTheCommitsRelease(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitignore", "node_modules/\n", 0o644)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "export default {}\n", 0o644)
	r.write("run.sh", "#!/bin/sh\n", 0o755)
	r.symlink("tools/link.ts", "a.ts")
	r.symlink("tools/out.ts", "../../outside.ts")
	r.write("node_modules/zod/index.js", "module.exports = 1\n", 0o644)
	c := r.commitAll("tree")

	built := r.build(c, nil)
	w := openWorktree(t, r.dir)
	if !slices.Equal(w.Snapshot.Entries, built.Entries) {
		t.Errorf("entries:\nworktree %v\nbuild    %v", w.Snapshot.Entries, built.Entries)
	}
	if !slices.Equal(w.Snapshot.Findings, built.Findings) || len(built.Findings) != 1 {
		t.Errorf("findings:\nworktree %v\nbuild    %v", w.Snapshot.Findings, built.Findings)
	}
	if w.Snapshot.Digest != built.Digest {
		t.Errorf("digest %s, the build's %s", w.Snapshot.Digest, built.Digest)
	}
	if len(w.Unstaged)+len(w.Deleted) != 0 {
		t.Errorf("unstaged %v, deleted %v on a clean work tree", w.Unstaged, w.Deleted)
	}
}

func TestWorktreeHoldsTrackedFilesOnly(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitignore", "node_modules/\n", 0o644)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "committed\n", 0o644)
	r.write("tools/gone.ts", "x\n", 0o644)
	r.commitAll("tree")
	r.write("node_modules/zod/index.js", "module.exports = 1\n", 0o644) // ignored
	r.write("tools/new.ts", "untracked\n", 0o644)
	r.write("tools/a.ts", "edited, not staged\n", 0o644)
	r.remove("tools/gone.ts")
	r.write("tools/staged.ts", "staged\n", 0o644)
	wt, err := r.git.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := wt.Add("tools/staged.ts"); err != nil {
		t.Fatal(err)
	}

	w := openWorktree(t, r.dir)
	want := []string{".gitignore 100644", "beeuni.yaml 100644", "tools/a.ts 100644", "tools/staged.ts 100644"}
	if got := paths(w.Snapshot); !slices.Equal(got, want) {
		t.Fatalf("entries = %q, want %q", got, want)
	}
	if !slices.Equal(w.Unstaged, []string{"tools/a.ts"}) || !slices.Equal(w.Deleted, []string{"tools/gone.ts"}) {
		t.Errorf("unstaged %v, deleted %v", w.Unstaged, w.Deleted)
	}
	b, err := fs.ReadFile(w.FS(), "tools/a.ts")
	if err != nil || string(b) != "edited, not staged\n" {
		t.Errorf("tools/a.ts reads %q, %v: want the working tree's content", b, err)
	}
	if _, err := fs.Stat(w.FS(), "tools/new.ts"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an untracked file is in the view: %v", err)
	}
	for _, tc := range []struct {
		path             string
		dir              bool
		tracked, ignored bool
	}{
		{"tools", true, true, false},
		{"tools/a.ts", false, true, false},
		{"tools/new.ts", false, false, false},
		{"node_modules/zod", true, false, true},
		{"node_modules/zod/index.js", false, false, true},
	} {
		if got := w.Tracked(tc.path); got != tc.tracked {
			t.Errorf("Tracked(%s) = %v", tc.path, got)
		}
		if got := w.Ignored(tc.path, tc.dir); got != tc.ignored {
			t.Errorf("Ignored(%s) = %v", tc.path, got)
		}
	}

	dst := filepath.Join(t.TempDir(), "tree")
	if err := w.LayOut(dst); err != nil {
		t.Fatalf("LayOut: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(dst, "tools", "staged.ts")); err != nil || string(b) != "staged\n" {
		t.Errorf("laid out staged.ts = %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(dst, "tools", "new.ts")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("an untracked file was laid out: %v", err)
	}
}

// A project in a folder of the repository sees the tracked files under it,
// with paths from the project folder.
func TestWorktreeSubfolder(t *testing.T) {
	r := newTestRepo(t)
	r.write("top.txt", "x", 0o644)
	r.write("proj/beeuni.yaml", "tools: []\n", 0o644)
	r.commitAll("tree")
	w := openWorktree(t, filepath.Join(r.dir, "proj"))
	if got := paths(w.Snapshot); !slices.Equal(got, []string{"beeuni.yaml 100644"}) {
		t.Fatalf("entries = %q", got)
	}
}

func TestWorktreeNotGit(t *testing.T) {
	if _, err := OpenWorktree(context.Background(), t.TempDir()); !errors.Is(err, ErrNotGit) {
		t.Fatalf("err = %v, want ErrNotGit", err)
	}
	// A repository with no commit yet still has an index.
	dir := t.TempDir()
	if _, err := git.PlainInit(dir, false); err != nil {
		t.Fatal(err)
	}
	if w, err := OpenWorktree(context.Background(), dir); err != nil || len(w.Snapshot.Entries) != 0 {
		t.Fatalf("empty repository: %v, %v", w, err)
	}
}
