package release

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testOpener serves a record's content from its repository's blobs.
func testOpener(tb testing.TB) (*Record, func(string) (io.ReadCloser, error)) {
	tb.Helper()
	r := newTestRepo(tb)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "export default {}\n", 0o644)
	r.write("bin/run", "#!/bin/sh\necho hi\n", 0o755)
	r.symlink("tools/b.ts", "a.ts")
	r.symlink("lib", "tools")
	s := r.build(r.commitAll("w"), nil)
	return s.Record("demo", 1, s.Time), r.open().ContentOpener(tb.Context(), s.Entries)
}

func TestWriteTree(t *testing.T) {
	rec, open := testOpener(t)
	dst := filepath.Join(t.TempDir(), "releases", "r1")
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteTree(dst, rec, open); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, content string
		mode          os.FileMode
	}{
		{"beeuni.yaml", "tools: []\n", 0o644},
		{"tools/a.ts", "export default {}\n", 0o644},
		{"bin/run", "#!/bin/sh\necho hi\n", 0o755},
		{"tools/b.ts", "export default {}\n", 0o644}, // through the symlink
		{"lib/a.ts", "export default {}\n", 0o644},   // through the folder symlink
	}
	for _, tc := range tests {
		full := filepath.Join(dst, tc.path)
		b, err := os.ReadFile(full)
		fi, serr := os.Stat(full)
		if err != nil || serr != nil || string(b) != tc.content || fi.Mode().Perm() != tc.mode {
			t.Errorf("%s: %q %v %v mode %v; want %q mode %v", tc.path, b, err, serr, fi.Mode(), tc.content, tc.mode)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, "tools/b.ts")); err != nil || target != "a.ts" {
		t.Errorf("tools/b.ts is not a symlink to a.ts: %q %v", target, err)
	}
	// Done already: a second call accepts the complete folder.
	if err := WriteTree(dst, rec, open); err != nil {
		t.Errorf("WriteTree over a complete dst = %v, want nil", err)
	}
	// A folder that differs is refused and left alone.
	os.WriteFile(filepath.Join(dst, "beeuni.yaml"), []byte("edited"), 0o644)
	err := WriteTree(dst, rec, open)
	if err == nil || !strings.Contains(err.Error(), "beeuni.yaml") {
		t.Errorf("WriteTree over a modified dst = %v, want an error naming beeuni.yaml", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "beeuni.yaml")); string(b) != "edited" {
		t.Errorf("WriteTree touched an existing dst")
	}
	assertNoTemps(t, filepath.Dir(dst), 1)
}

func TestWriteTreeFailureLeavesNothing(t *testing.T) {
	rec, open := testOpener(t)
	failing := func(after int, err error, corrupt bool) func(string) (io.ReadCloser, error) {
		n := 0
		return func(d string) (io.ReadCloser, error) {
			if n++; n > after {
				if corrupt {
					return io.NopCloser(bytes.NewReader([]byte("corrupted"))), nil
				}
				return nil, err
			}
			return open(d)
		}
	}
	tests := []struct {
		name    string
		open    func(string) (io.ReadCloser, error)
		wantErr error
	}{
		{"content store fails midway", failing(2, io.ErrUnexpectedEOF, false), io.ErrUnexpectedEOF},
		{"content store fails at once", failing(0, io.ErrUnexpectedEOF, false), io.ErrUnexpectedEOF},
		{"tampered content", failing(1, nil, true), ErrTampered},
		{"tampered symlink target", failing(2, nil, true), ErrTampered},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dst := filepath.Join(parent, "r1")
			err := WriteTree(dst, rec, tc.open)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if _, err := os.Lstat(dst); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("dst exists after a failure: %v", err)
			}
			assertNoTemps(t, parent, 0)
			// The next attempt, with the content back, succeeds.
			if err := WriteTree(dst, rec, open); err != nil {
				t.Fatalf("retry: %v", err)
			}
		})
	}
}

// A temp folder left by a crash is removed by the next WriteTree.
func TestWriteTreeCleansCrashLeftovers(t *testing.T) {
	rec, open := testOpener(t)
	parent := t.TempDir()
	stale := filepath.Join(parent, ".r1.tmp-123")
	os.MkdirAll(filepath.Join(stale, "half"), 0o755)
	if err := WriteTree(filepath.Join(parent, "r1"), rec, open); err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, parent, 1)
}

func TestWriteTreeRefusesEscapes(t *testing.T) {
	rec, open := testOpener(t)
	rec.Entries[0].Path = "../escape"
	rec.Digest = Digest(rec.Entries)
	rec.ID = FormatID(rec.Seq, rec.Digest)
	parent := t.TempDir()
	if err := WriteTree(filepath.Join(parent, "r"), rec, open); !errors.Is(err, ErrTampered) {
		t.Fatalf("err = %v, want a refusal", err)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(parent), "escape")); err == nil {
		t.Fatalf("a file was written outside dst")
	}
}

func assertNoTemps(tb testing.TB, parent string, want int) {
	tb.Helper()
	entries, err := os.ReadDir(parent)
	if err != nil {
		tb.Fatal(err)
	}
	if len(entries) != want {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		tb.Fatalf("%s holds %q, want %d entries (no temp folders)", parent, names, want)
	}
}

// cacheOf stores the content of rec's entries in a folder the way an
// executor's cache does (read-only files named by digest) and returns a Link
// naming them.
func cacheOf(tb testing.TB, rec *Record, open func(string) (io.ReadCloser, error)) (string, func(string) (string, bool)) {
	tb.Helper()
	dir := tb.TempDir()
	for _, e := range rec.Entries {
		rc, err := open(e.Digest)
		if err != nil {
			tb.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Digest), b, 0o444); err != nil && !errors.Is(err, os.ErrPermission) {
			tb.Fatal(err)
		}
		os.Chmod(filepath.Join(dir, e.Digest), 0o444)
	}
	return dir, func(d string) (string, bool) { return filepath.Join(dir, d), true }
}

func TestWriteTreeWithLink(t *testing.T) {
	rec, open := testOpener(t)
	cache, link := cacheOf(t, rec, open)
	byPath := map[string]Entry{}
	for _, e := range rec.Entries {
		byPath[e.Path] = e
	}
	// A cache file that is not read-only is not linked: it is copied.
	os.Chmod(filepath.Join(cache, byPath["beeuni.yaml"].Digest), 0o644)
	dst := filepath.Join(t.TempDir(), "r1")
	if err := WriteTreeWith(dst, rec, open, WriteOptions{Link: link}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path, content string
		mode          os.FileMode
		linked        bool
	}{
		{"beeuni.yaml", "tools: []\n", 0o444, false},
		{"tools/a.ts", "export default {}\n", 0o444, true},
		{"bin/run", "#!/bin/sh\necho hi\n", 0o555, false}, // a link cannot change the mode
	}
	for _, tc := range tests {
		full := filepath.Join(dst, tc.path)
		b, err := os.ReadFile(full)
		fi, serr := os.Lstat(full)
		ci, cerr := os.Stat(filepath.Join(cache, byPath[tc.path].Digest))
		if err != nil || serr != nil || cerr != nil || string(b) != tc.content || fi.Mode() != tc.mode || os.SameFile(fi, ci) != tc.linked {
			t.Errorf("%s: %q %v %v %v mode %v linked %v; want %q mode %v linked %v", tc.path, b, err, serr, cerr, fi.Mode(),
				os.SameFile(fi, ci), tc.content, tc.mode, tc.linked)
		}
	}
	if target, err := os.Readlink(filepath.Join(dst, "tools/b.ts")); err != nil || target != "a.ts" {
		t.Errorf("tools/b.ts is not a symlink to a.ts: %q %v", target, err)
	}
	// Done already: the read-only folder is accepted as this release.
	if err := WriteTreeWith(dst, rec, open, WriteOptions{Link: link}); err != nil {
		t.Errorf("WriteTreeWith over a complete dst = %v, want nil", err)
	}
	// A Link naming nothing falls back to copying from open.
	dst2 := filepath.Join(t.TempDir(), "r1")
	none := func(d string) (string, bool) { return filepath.Join(cache, "missing-"+d), true }
	if err := WriteTreeWith(dst2, rec, open, WriteOptions{Link: none}); err != nil {
		t.Fatal(err)
	}
	if err := checkTree(dst2, rec, true); err != nil {
		t.Errorf("layout without cache files: %v", err)
	}
}

func TestWriteTreeReuse(t *testing.T) {
	rec, open := testOpener(t)
	parent := t.TempDir()
	spare := filepath.Join(parent, "spare")
	// An earlier layout, with what the release does not have: a stray file,
	// a stray folder, a symlink where the release has a folder.
	for _, d := range []string{"tools/old", "gone/deep"} {
		if err := os.MkdirAll(filepath.Join(spare, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, p := range []string{"tools/a.ts", "tools/old/x.ts", "gone/deep/y", "stray"} {
		if err := os.WriteFile(filepath.Join(spare, p), []byte("old"), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("tools", filepath.Join(spare, "bin")); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(spare)
	if err != nil {
		t.Fatal(err)
	}
	_, link := cacheOf(t, rec, open)
	dst := filepath.Join(parent, "r1")
	if err := WriteTreeWith(dst, rec, open, WriteOptions{Link: link, Reuse: spare}); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(dst)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) {
		t.Errorf("the spare folder was not taken over")
	}
	if err := checkTree(dst, rec, true); err != nil {
		t.Errorf("reused layout: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(dst, "tools/old")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a folder the release does not have survived: %v", err)
	}
	assertNoTemps(t, parent, 1)
	// No spare any more: the next layout makes its folders.
	dst2 := filepath.Join(parent, "r2")
	if err := WriteTreeWith(dst2, rec, open, WriteOptions{Link: link, Reuse: spare}); err != nil {
		t.Fatal(err)
	}
	assertNoTemps(t, parent, 2)
}
