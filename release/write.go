package release

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// maxLinkTarget bounds the symlink target text read from the content store.
const maxLinkTarget = 4096

// WriteTree lays release rec out at dst for an executor: every entry with
// its mode (0644 or 0755; symlinks as symlinks), each file's SHA-256 checked
// against its entry while it is written (a mismatch is a *ContentError).
//
// The layout is atomic: everything is written into a temp folder next to
// dst (".<name>.tmp-*"), fsynced, then renamed to dst, so dst is either
// absent or complete; a failure removes the temp folder. Leftover temp
// folders of dst from a crash are removed first, so only one WriteTree may
// run for a given dst at a time.
//
// If dst exists, it is accepted as done when it holds exactly the release
// (every entry with its type, mode and content, and nothing else: each file
// is hashed again); otherwise WriteTree fails and leaves it untouched.
func WriteTree(dst string, rec *Record, open func(digest string) (io.ReadCloser, error)) error {
	return WriteTreeWith(dst, rec, open, WriteOptions{})
}

// WriteOptions change how WriteTreeWith lays a release out.
type WriteOptions struct {
	// Link, when set, names a local file that holds digest's content, or
	// says there is none. The file must be read-only (0444), its content
	// verified against digest and fsynced when it was stored (an executor's
	// content cache). Regular files are then hard-linked from it instead of
	// copied: no copy, no hashing again, no fsync per file (the inode's data
	// is durable already; the folder fsyncs, unless Volatile, and the
	// rename still make the layout atomic and durable).
	//
	// With Link the whole folder is read-only, since a link shares its
	// inode with the cache: files 0444, executables 0555 (those are copied,
	// a link cannot change the mode). A digest Link does not name, or whose
	// link fails (another file system), is copied from open as WriteTree
	// does.
	Link func(digest string) (path string, ok bool)

	// Reuse, when set, is the folder of an earlier layout that
	// WriteTreeWith may take over instead of making folders anew (making
	// one costs far more than renaming or unlinking): it is renamed into the
	// temp folder and emptied of every file and of the folders the release
	// does not have, then laid out as a new one. Absent, it is not used.
	Reuse string

	// Volatile skips the fsyncs of the layout's folders (copied files are
	// still fsynced). Set it only when the caller verifies the folder
	// against the record before every use and lays it out again when it
	// fails (the executor does, after a restart too): a layout lost to a
	// power cut is then rebuilt, and its durability is worth nothing.
	Volatile bool
}

// readOnly reports whether the layout's files are read-only.
func (o WriteOptions) readOnly() bool { return o.Link != nil }

// WriteTreeWith is WriteTree with options; see WriteOptions.
func WriteTreeWith(dst string, rec *Record, open func(digest string) (io.ReadCloser, error), opts WriteOptions) error {
	if err := VerifyRecord(rec); err != nil {
		return fmt.Errorf("lay out release %s: %w", rec.ID, err)
	}
	if _, err := os.Lstat(dst); err == nil {
		if err := checkTree(dst, rec, opts.readOnly()); err != nil {
			return fmt.Errorf("lay out release %s: %s exists and does not hold this release (%w); remove it", rec.ID, dst, err)
		}
		return nil
	}
	parent, base := filepath.Dir(dst), filepath.Base(dst)
	if stale, _ := filepath.Glob(filepath.Join(parent, "."+base+".tmp-*")); len(stale) > 0 {
		for _, s := range stale {
			os.RemoveAll(s)
		}
	}
	tmp, ok := takeOver(opts.Reuse, parent, base, rec)
	if !ok {
		var err error
		if tmp, err = os.MkdirTemp(parent, "."+base+".tmp-"); err != nil {
			return fmt.Errorf("lay out release %s: %w", rec.ID, err)
		}
	}
	if err := layOut(tmp, rec, open, opts); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("lay out release %s: %w", rec.ID, err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		os.RemoveAll(tmp)
		return fmt.Errorf("lay out release %s: %w", rec.ID, err)
	}
	if opts.Volatile {
		return nil
	}
	if err := syncDir(parent); err != nil {
		return fmt.Errorf("lay out release %s: sync %s: %w", rec.ID, parent, err)
	}
	return nil
}

// takeOver renames reuse to a temp folder of dst and empties it, keeping
// the folders rec needs; it reports false when there is nothing to take.
func takeOver(reuse, parent, base string, rec *Record) (string, bool) {
	if reuse == "" {
		return "", false
	}
	tmp := filepath.Join(parent, fmt.Sprintf(".%s.tmp-r%d", base, rand.Uint64()))
	if os.Rename(reuse, tmp) != nil {
		return "", false
	}
	keep := map[string]bool{}
	for _, e := range rec.Entries {
		for d := path.Dir(e.Path); d != "." && !keep[d]; d = path.Dir(d) {
			keep[d] = true
		}
	}
	if err := empty(tmp, "", keep); err != nil {
		os.RemoveAll(tmp)
		return "", false
	}
	return tmp, true
}

// empty removes from dir (rel inside the layout) every file, and every
// folder not in keep; kept folders get mode 0755 again.
func empty(dir, rel string, keep map[string]bool) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, d := range entries {
		full, r := filepath.Join(dir, d.Name()), path.Join(rel, d.Name())
		if d.IsDir() && keep[r] {
			if err := os.Chmod(full, 0o755); err != nil {
				return err
			}
			if err := empty(full, r, keep); err != nil {
				return err
			}
			continue
		}
		if err := os.RemoveAll(full); err != nil {
			return err
		}
	}
	return nil
}

func layOut(root string, rec *Record, open func(string) (io.ReadCloser, error), opts WriteOptions) error {
	if err := os.Chmod(root, 0o755); err != nil {
		return err
	}
	dirs := map[string]bool{root: true}
	for _, e := range rec.Entries {
		full := filepath.Join(root, filepath.FromSlash(e.Path))
		dir := filepath.Dir(full)
		if !dirs[dir] {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
			for d := dir; d != root && !dirs[d]; d = filepath.Dir(d) {
				dirs[d] = true
			}
		}
		if err := writeEntry(full, e, open, opts); err != nil {
			return err
		}
	}
	if opts.Volatile {
		return nil
	}
	// Sync folders deepest first so every name is durable before the rename.
	order := make([]string, 0, len(dirs))
	for d := range dirs {
		order = append(order, d)
	}
	slices.SortFunc(order, func(a, b string) int { return len(b) - len(a) })
	for _, d := range order {
		if err := syncDir(d); err != nil {
			return fmt.Errorf("sync %s: %w", d, err)
		}
	}
	return nil
}

func writeEntry(full string, e Entry, open func(string) (io.ReadCloser, error), opts WriteOptions) error {
	if e.Mode == ModeSymlink {
		return writeSymlink(full, e, open)
	}
	perm := layoutPerm(e.Mode, opts.readOnly())
	if e.Mode == ModeFile && opts.Link != nil {
		if src, ok := opts.Link(e.Digest); ok && linkFile(src, full, e, perm) {
			return nil
		}
	}
	rc, err := open(e.Digest)
	if err != nil {
		return fmt.Errorf("fetch content of %s (%s): %w", e.Path, e.Digest, err)
	}
	defer rc.Close()
	return copyFile(full, e, rc, perm)
}

// layoutPerm is the permission a laid-out file of mode m gets.
func layoutPerm(m Mode, readOnly bool) fs.FileMode {
	perm := entryMode(m).Perm()
	if readOnly {
		perm &^= 0o222
	}
	return perm
}

// linkFile hard-links src to full and reports whether the result is a
// regular file of e's size with mode perm; otherwise it removes the link
// and the caller copies instead.
func linkFile(src, full string, e Entry, perm fs.FileMode) bool {
	if os.Link(src, full) != nil {
		return false
	}
	fi, err := os.Lstat(full)
	if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm() == perm && fi.Size() == e.Size {
		return true
	}
	os.Remove(full)
	return false
}

func writeSymlink(full string, e Entry, open func(string) (io.ReadCloser, error)) error {
	rc, err := open(e.Digest)
	if err != nil {
		return fmt.Errorf("fetch content of %s (%s): %w", e.Path, e.Digest, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, maxLinkTarget+1))
	if err != nil {
		return fmt.Errorf("fetch content of %s: %w", e.Path, err)
	}
	if err := VerifyContent(e, b); err != nil {
		return err
	}
	if err := CheckLinkTarget(e.Path, string(b)); err != nil {
		return err
	}
	return os.Symlink(string(b), full)
}

// copyFile writes rc to full with mode perm, checking its SHA-256 and size
// against e, and fsyncs it.
func copyFile(full string, e Entry, rc io.Reader, perm fs.FileMode) error {
	f, err := os.OpenFile(full, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return err
	}
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), rc)
	if err == nil {
		if got := hex.EncodeToString(h.Sum(nil)); got != e.Digest {
			err = &ContentError{Path: e.Path, Want: e.Digest, Got: got}
		} else if n != e.Size {
			err = fmt.Errorf("%w: %s has %d bytes, the release says %d", ErrTampered, e.Path, n, e.Size)
		}
	}
	if err == nil {
		err = f.Chmod(perm) // the umask may have narrowed it
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", e.Path, err)
	}
	return nil
}

// checkTree reports the first way dir differs from rec's entries.
func checkTree(dir string, rec *Record, readOnly bool) error {
	switch problems := VerifyTree(dir, rec, readOnly); len(problems) {
	case 0:
		return nil
	case 1:
		return errors.New(problems[0].String())
	default:
		return fmt.Errorf("%s (and %d more)", problems[0], len(problems)-1)
	}
}
