package release

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Problem is one way a laid-out release differs from its record.
type Problem struct {
	Path   string // slash-separated, inside the folder
	Digest string // the entry's content digest; "" for a file the release does not have
	Reason string
}

func (p Problem) String() string { return p.Path + ": " + p.Reason }

// VerifyTree checks the release folder dir against rec, as an executor
// does before it serves a folder: every entry is there with its type, its
// mode as laid out (read-only with WriteOptions.Link) and its SHA-256, and
// nothing else is (a file added beside a module could change what an
// import resolves to). It returns every problem; none means dir holds
// exactly the release. Every file is read and hashed.
func VerifyTree(dir string, rec *Record, readOnly bool) []Problem {
	if fi, err := os.Lstat(dir); err != nil || !fi.IsDir() {
		reason := "the release folder is not a folder"
		if err != nil {
			reason = err.Error()
		}
		return []Problem{{Path: ".", Reason: reason}}
	}
	want := make(map[string]Entry, len(rec.Entries))
	for _, e := range rec.Entries {
		want[e.Path] = e
	}
	var problems []Problem
	seen := make(map[string]bool, len(rec.Entries))
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if err != nil {
			problems = append(problems, Problem{Path: rel, Reason: err.Error()})
			return nil
		}
		if d.IsDir() {
			return nil
		}
		e, ok := want[rel]
		if !ok {
			problems = append(problems, Problem{Path: rel, Reason: "not in the release"})
			return nil
		}
		seen[rel] = true
		if err := verifyFile(p, e, d, readOnly); err != nil {
			problems = append(problems, Problem{Path: rel, Digest: e.Digest, Reason: err.Error()})
		}
		return nil
	})
	if err != nil {
		problems = append(problems, Problem{Path: ".", Reason: err.Error()})
	}
	for _, e := range rec.Entries {
		if !seen[e.Path] {
			problems = append(problems, Problem{Path: e.Path, Digest: e.Digest, Reason: "missing"})
		}
	}
	return problems
}

// hashBufs are the buffers files are hashed through.
var hashBufs = sync.Pool{New: func() any { b := make([]byte, 64<<10); return &b }}

// verifyFile checks one laid-out entry: type, mode, size and SHA-256.
func verifyFile(p string, e Entry, d fs.DirEntry, readOnly bool) error {
	info, err := d.Info()
	if err != nil {
		return err
	}
	if e.Mode == ModeSymlink {
		if info.Mode()&fs.ModeSymlink == 0 {
			return fmt.Errorf("is %s, the release has a symlink", info.Mode().Type())
		}
		target, err := os.Readlink(p)
		if err != nil {
			return err
		}
		return VerifyContent(e, []byte(target))
	}
	if !info.Mode().IsRegular() || info.Mode().Perm() != layoutPerm(e.Mode, readOnly) {
		return fmt.Errorf("has mode %s, the release says %s", info.Mode(), e.Mode)
	}
	if info.Size() != e.Size {
		return fmt.Errorf("%w: it has %d bytes, the release says %d", ErrTampered, info.Size(), e.Size)
	}
	f, err := os.Open(p)
	if err != nil {
		return err
	}
	defer f.Close()
	buf := hashBufs.Get().(*[]byte)
	defer hashBufs.Put(buf)
	h := sha256.New()
	// Read through the pooled buffer by hand: io.Copy would take
	// *os.File's WriteTo path and allocate a buffer per file.
	for {
		n, err := f.Read(*buf)
		h.Write((*buf)[:n])
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
	}
	var sum [sha256.Size]byte
	if got := hex.EncodeToString(h.Sum(sum[:0])); got != e.Digest {
		return &ContentError{Path: e.Path, Want: e.Digest, Got: got}
	}
	return nil
}
