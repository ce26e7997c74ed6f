package release

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func TestBuildHoldsOnlyTrackedFiles(t *testing.T) {
	r := newTestRepo(t)
	r.write(".gitignore", "node_modules/\n*.log\n", 0o644)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "export default {}\n", 0o644)
	r.write("run.sh", "#!/bin/sh\n", 0o755)
	r.symlink("tools/link.ts", "a.ts")
	r.write("node_modules/pkg/index.js", "module.exports = 1\n", 0o644)
	r.write("debug.log", "noise\n", 0o644)
	c := r.commitAll("add tools\n\nbody text")
	// Untracked after the commit, and a work-tree edit never committed.
	r.write("untracked.txt", "x", 0o644)
	r.write("beeuni.yaml", "tools: [changed]\n", 0o644)

	s := r.build(c, nil)
	want := []string{".gitignore 100644", "beeuni.yaml 100644", "run.sh 100755", "tools/a.ts 100644", "tools/link.ts 120000"}
	if got := paths(s); !slices.Equal(got, want) {
		t.Fatalf("entries = %q, want %q", got, want)
	}
	byPath := map[string]Entry{}
	for _, e := range s.Entries {
		byPath[e.Path] = e
	}
	if e := byPath["beeuni.yaml"]; e.Digest != sha("tools: []\n") || e.Size != int64(len("tools: []\n")) {
		t.Errorf("beeuni.yaml = %+v, want the committed content's digest and size", e)
	}
	if e := byPath["tools/link.ts"]; e.Digest != sha("a.ts") || e.Size != 4 {
		t.Errorf("symlink entry = %+v, want the digest of its target text", e)
	}
	if e := byPath["run.sh"]; e.Blob != plumbing.ComputeHash(plumbing.BlobObject, []byte("#!/bin/sh\n")).String() {
		t.Errorf("run.sh blob = %s, want the Git blob hash", e.Blob)
	}
	if !s.Valid() || len(s.Findings) != 0 {
		t.Errorf("findings = %v, want none", s.Findings)
	}
	if s.Subject != "add tools" || s.Author != "Ada <ada@example.com>" || s.Commit != c.String() || s.Time.IsZero() {
		t.Errorf("commit info = %q %q %q %v", s.Subject, s.Author, s.Commit, s.Time)
	}
	if s.Digest != Digest(s.Entries) || len(s.Digest) != 64 {
		t.Errorf("digest %q does not match the entries", s.Digest)
	}
}

func TestSameTreeSameDigest(t *testing.T) {
	r := newTestRepo(t)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "a\n", 0o644)
	c1 := r.commitAll("one")
	r.write("tools/b.ts", "b\n", 0o644)
	c2 := r.commitAll("two")
	r.remove("tools/b.ts")
	c3 := r.commitAll("three: back to one's tree")
	empty := r.commitIndex("empty commit, same tree as three")
	merge := r.commitTree(r.build(c2, nil).treeHash(t), "merge", c2, c3)

	// Another repository with the same files, committed by someone else.
	other := newTestRepo(t)
	other.write("tools/a.ts", "a\n", 0o644)
	other.write("beeuni.yaml", "tools: []\n", 0o644)
	oc := other.commitAll("elsewhere")

	d1 := r.build(c1, nil).Digest
	tests := []struct {
		name string
		snap *Snapshot
		same bool
	}{
		{"commit with another tree", r.build(c2, nil), false},
		{"commit back to the same tree", r.build(c3, nil), true},
		{"empty commit", r.build(empty, nil), true},
		{"merge commit with two's tree", r.build(merge, nil), false},
		{"another repository", other.build(oc, nil), true},
	}
	for _, tc := range tests {
		if got := tc.snap.Digest == d1; got != tc.same {
			t.Errorf("%s: same digest as c1 = %v, want %v", tc.name, got, tc.same)
		}
	}
	if m, two := r.build(merge, nil), r.build(c2, nil); m.Digest != two.Digest || m.Commit == two.Commit {
		t.Errorf("merge digest %s commit %s, two digest %s commit %s: want same digest, own commit", m.Digest, m.Commit, two.Digest, two.Commit)
	}
}

func (s *Snapshot) treeHash(tb testing.TB) plumbing.Hash {
	tb.Helper()
	return plumbing.NewHash(s.Tree)
}

func TestBuildInvalidTrees(t *testing.T) {
	r := newTestRepo(t)
	ok := r.blob("ok\n")
	link := func(name, target string) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Symlink, Hash: r.blob(target)}
	}
	dir := func(name string, entries ...object.TreeEntry) object.TreeEntry {
		return object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: r.tree(entries...)}
	}
	tests := []struct {
		name       string
		entries    []object.TreeEntry
		wantFile   string // the finding's file; "" for a valid release
		wantPaths  []string
		submodules []string
	}{
		{"absolute symlink", []object.TreeEntry{regular("a", ok), link("evil", "/etc/passwd")}, "evil", []string{"a 100644"}, nil},
		{"symlink climbing out", []object.TreeEntry{link("up", "../outside")}, "up", nil, nil},
		{"nested symlink climbing out", []object.TreeEntry{dir("d", link("l", "../../x"))}, "d/l", nil, nil},
		{"nested symlink to the root", []object.TreeEntry{dir("d", link("l", "../a")), regular("a", ok)}, "", []string{"a 100644", "d/l 120000"}, nil},
		{"dotdot after a name", []object.TreeEntry{link("l", "d/../a"), regular("a", ok)}, "l", []string{"a 100644"}, nil},
		{"tree entry named ..", []object.TreeEntry{regular("a", ok), dir("..", regular("x", ok))}, "..", []string{"a 100644"}, nil},
		{"nested file named ..", []object.TreeEntry{dir("d", regular("..", ok), regular("f", ok))}, "d/..", []string{"d/f 100644"}, nil},
		{"entry named .", []object.TreeEntry{regular(".", ok)}, ".", nil, nil},
		{"gitlink is skipped", []object.TreeEntry{regular("a", ok), dir("vendor", object.TreeEntry{Name: "lib", Mode: filemode.Submodule, Hash: plumbing.NewHash("0123456789012345678901234567890123456789")})}, "", []string{"a 100644"}, []string{"vendor/lib"}},
		{"symlink to a folder inside", []object.TreeEntry{dir("d", regular("f", ok)), link("l", "./d/")}, "", []string{"d/f 100644", "l 120000"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := r.build(r.commitTree(r.tree(tc.entries...), tc.name), nil)
			if got := paths(s); !slices.Equal(got, tc.wantPaths) {
				t.Errorf("entries = %q, want %q", got, tc.wantPaths)
			}
			if tc.wantFile == "" {
				if !s.Valid() {
					t.Errorf("findings = %v, want a valid release", s.Findings)
				}
			} else if s.Valid() || len(s.Findings) != 1 || s.Findings[0].File != tc.wantFile || !strings.Contains(s.Findings[0].Message, tc.wantFile) {
				t.Errorf("findings = %v, want one error naming %s", s.Findings, tc.wantFile)
			}
			var subs []string
			for _, sm := range s.Submodules {
				subs = append(subs, sm.Path)
			}
			if !slices.Equal(subs, tc.submodules) {
				t.Errorf("submodules = %q, want %q", subs, tc.submodules)
			}
		})
	}
}

// A symlink committed from a real work tree that points outside the
// repository is refused like a hand-made one.
func TestBuildWorkTreeSymlinkOut(t *testing.T) {
	r := newTestRepo(t)
	r.write("a.txt", "a", 0o644)
	r.symlink("passwd", "/etc/passwd")
	r.symlink("sub/up", "../../outside")
	r.symlink("sub/in", "../a.txt")
	s := r.build(r.commitAll("links"), nil)
	var files []string
	for _, f := range s.Findings {
		files = append(files, f.File)
	}
	if want := []string{"passwd", "sub/up"}; !slices.Equal(files, want) {
		t.Fatalf("findings on %q, want %q (findings %v)", files, want, s.Findings)
	}
	if want := []string{"a.txt 100644", "sub/in 120000"}; !slices.Equal(paths(s), want) {
		t.Fatalf("entries = %q, want %q", paths(s), want)
	}
}

// Build reads the commit's objects, never the work tree: even a deleted
// work tree does not matter.
func TestBuildIgnoresWorkTree(t *testing.T) {
	r := newTestRepo(t)
	r.write("f", "committed", 0o644)
	c := r.commitAll("f")
	before := r.build(c, nil)
	if err := os.RemoveAll(filepath.Join(r.dir, "f")); err != nil {
		t.Fatal(err)
	}
	r.write("g", "new", 0o644)
	if after := r.build(c, nil); after.Digest != before.Digest || len(after.Entries) != 1 {
		t.Fatalf("work tree changes entered the build: %q", paths(after))
	}
}
