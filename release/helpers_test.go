package release

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// testRepo is a real on-disk Git repository made with go-git.
type testRepo struct {
	tb   testing.TB
	dir  string
	git  *git.Repository
	n    int // commits made, for distinct times
	repo *Repo
}

func newTestRepo(tb testing.TB) *testRepo {
	tb.Helper()
	dir := tb.TempDir()
	r, err := git.PlainInit(dir, false)
	if err != nil {
		tb.Fatalf("init repo: %v", err)
	}
	return &testRepo{tb: tb, dir: dir, git: r}
}

// open returns the release.Repo reading this repository (opened once).
func (t *testRepo) open() *Repo {
	t.tb.Helper()
	if t.repo == nil {
		r, err := OpenRepo(t.dir)
		if err != nil {
			t.tb.Fatalf("OpenRepo: %v", err)
		}
		t.repo = r
		t.tb.Cleanup(func() { r.Close() })
	}
	return t.repo
}

func (t *testRepo) write(path, content string, perm os.FileMode) {
	t.tb.Helper()
	full := filepath.Join(t.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.tb.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), perm); err != nil {
		t.tb.Fatal(err)
	}
	if err := os.Chmod(full, perm); err != nil {
		t.tb.Fatal(err)
	}
}

func (t *testRepo) symlink(path, target string) {
	t.tb.Helper()
	full := filepath.Join(t.dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.tb.Fatal(err)
	}
	os.Remove(full)
	if err := os.Symlink(target, full); err != nil {
		t.tb.Fatal(err)
	}
}

func (t *testRepo) remove(path string) {
	t.tb.Helper()
	if err := os.RemoveAll(filepath.Join(t.dir, filepath.FromSlash(path))); err != nil {
		t.tb.Fatal(err)
	}
}

func (t *testRepo) sig() *object.Signature {
	t.n++
	return &object.Signature{Name: "Ada", Email: "ada@example.com", When: time.Date(2026, 1, 2, 3, 4, t.n, 0, time.UTC)}
}

// commitAll stages every change of the work tree (as `git add -A` does,
// so ignored files stay out) and commits.
func (t *testRepo) commitAll(msg string) plumbing.Hash {
	t.tb.Helper()
	wt, err := t.git.Worktree()
	if err != nil {
		t.tb.Fatal(err)
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		t.tb.Fatalf("add: %v", err)
	}
	return t.commitIndex(msg)
}

func (t *testRepo) commitIndex(msg string) plumbing.Hash {
	t.tb.Helper()
	wt, err := t.git.Worktree()
	if err != nil {
		t.tb.Fatal(err)
	}
	h, err := wt.Commit(msg, &git.CommitOptions{All: true, Author: t.sig(), AllowEmptyCommits: true})
	if err != nil {
		t.tb.Fatalf("commit: %v", err)
	}
	return h
}

// blob stores content as a blob object.
func (t *testRepo) blob(content string) plumbing.Hash {
	t.tb.Helper()
	o := t.git.Storer.NewEncodedObject()
	o.SetType(plumbing.BlobObject)
	w, _ := o.Writer()
	w.Write([]byte(content))
	w.Close()
	h, err := t.git.Storer.SetEncodedObject(o)
	if err != nil {
		t.tb.Fatal(err)
	}
	return h
}

// tree stores a tree object with entries exactly as given (no sorting, no
// checks), to make trees go-git's work tree would refuse.
func (t *testRepo) tree(entries ...object.TreeEntry) plumbing.Hash {
	t.tb.Helper()
	var raw bytes.Buffer
	for _, e := range entries {
		fmt.Fprintf(&raw, "%o %s\x00", uint32(e.Mode), e.Name)
		raw.Write(e.Hash[:])
	}
	o := t.git.Storer.NewEncodedObject()
	o.SetType(plumbing.TreeObject)
	w, _ := o.Writer()
	w.Write(raw.Bytes())
	w.Close()
	h, err := t.git.Storer.SetEncodedObject(o)
	if err != nil {
		t.tb.Fatal(err)
	}
	return h
}

// commitTree stores a commit of tree with the given parents.
func (t *testRepo) commitTree(tree plumbing.Hash, msg string, parents ...plumbing.Hash) plumbing.Hash {
	t.tb.Helper()
	s := t.sig()
	c := &object.Commit{Author: *s, Committer: *s, Message: msg, TreeHash: tree, ParentHashes: parents}
	o := t.git.Storer.NewEncodedObject()
	if err := c.Encode(o); err != nil {
		t.tb.Fatal(err)
	}
	h, err := t.git.Storer.SetEncodedObject(o)
	if err != nil {
		t.tb.Fatal(err)
	}
	return h
}

func regular(name string, h plumbing.Hash) object.TreeEntry {
	return object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: h}
}

func (t *testRepo) build(commit plumbing.Hash, prev *Snapshot) *Snapshot {
	t.tb.Helper()
	s, err := t.open().Build(context.Background(), commit, prev)
	if err != nil {
		t.tb.Fatalf("Build %s: %v", commit, err)
	}
	return s
}

func paths(s *Snapshot) []string {
	var out []string
	for _, e := range s.Entries {
		out = append(out, e.Path+" "+string(e.Mode))
	}
	return out
}

func mustJSON(tb testing.TB, v any) []byte {
	tb.Helper()
	b, err := json.MarshalIndent(v, "", " ")
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// sameJSON fails unless a and b encode to the same bytes.
func sameJSON(tb testing.TB, what string, a, b any) {
	tb.Helper()
	ja, jb := mustJSON(tb, a), mustJSON(tb, b)
	if !bytes.Equal(ja, jb) {
		tb.Fatalf("%s differ:\n--- full\n%s\n--- incremental\n%s", what, ja, jb)
	}
}
