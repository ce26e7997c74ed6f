package release

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"path"
	"slices"
	"strings"
	"time"
)

// maxLinkHops bounds symlink resolution, as Linux does (ELOOP at 40).
const maxLinkHops = 40

// FS returns a read-only fs.FS over a release's entries, reading content
// from the repository, so the manifest can be validated without a checkout.
// Folders are implied by the entries' paths (an empty folder does not
// exist, as in Git). Symlinks behave as os.DirFS's do: Open, Stat and
// ReadFile follow them (inside the tree only), ReadDir and Lstat report
// them as symlinks (fs.ModeSymlink), ReadLink returns the target. File
// modification times are the zero time.
func (r *Repo) FS(ctx context.Context, entries []Entry) fs.FS {
	return newTreeFS(entries, func(e Entry) ([]byte, error) {
		rc, err := r.OpenBlob(ctx, e.Blob)
		if err != nil {
			return nil, err
		}
		defer rc.Close()
		b, err := io.ReadAll(rc)
		if err != nil {
			return nil, err
		}
		if err := VerifyContent(e, b); err != nil {
			return nil, err
		}
		return b, nil
	})
}

// newTreeFS is the fs.FS over entries whose content read returns, checked
// against the entry (a commit's blobs, or a work tree's tracked files).
func newTreeFS(entries []Entry, read func(Entry) ([]byte, error)) *treeFS {
	t := &treeFS{read: read, files: make(map[string]Entry, len(entries)), dirs: map[string][]string{".": nil}}
	for _, e := range entries {
		t.files[e.Path] = e
		child := e.Path
		for {
			dir := path.Dir(child)
			kids, seen := t.dirs[dir]
			t.dirs[dir] = append(kids, path.Base(child))
			if seen || dir == "." {
				break
			}
			child = dir
		}
	}
	for d, kids := range t.dirs {
		slices.Sort(kids)
		t.dirs[d] = slices.Compact(kids)
	}
	return t
}

type treeFS struct {
	read  func(Entry) ([]byte, error)
	files map[string]Entry    // path -> entry
	dirs  map[string][]string // folder ("." for the root) -> sorted child names
}

var (
	_ fs.ReadFileFS = (*treeFS)(nil)
	_ fs.ReadDirFS  = (*treeFS)(nil)
	_ fs.StatFS     = (*treeFS)(nil)
	_ fs.ReadLinkFS = (*treeFS)(nil)
)

// resolve follows symlinks in name (in the last element too when follow)
// and returns the path of what it names inside the tree.
func (t *treeFS) resolve(op, name string, follow bool) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	p, hops := name, 0
restart:
	if p == "." {
		return p, nil
	}
	segs := strings.Split(p, "/")
	for i := range segs {
		prefix := strings.Join(segs[:i+1], "/")
		e, ok := t.files[prefix]
		if !ok {
			if _, isDir := t.dirs[prefix]; isDir {
				continue
			}
			return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
		}
		last := i == len(segs)-1
		if e.Mode != ModeSymlink || (last && !follow) {
			if !last {
				return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist} // a file is not a folder
			}
			return prefix, nil
		}
		if hops++; hops > maxLinkHops {
			return "", &fs.PathError{Op: op, Path: name, Err: errors.New("too many levels of symbolic links")}
		}
		target, err := t.content(e)
		if err != nil {
			return "", &fs.PathError{Op: op, Path: name, Err: err}
		}
		next := path.Join(path.Dir(prefix), string(target), strings.Join(segs[i+1:], "/"))
		if strings.HasPrefix(target, "/") || next == ".." || strings.HasPrefix(next, "../") {
			return "", &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist} // leaves the tree
		}
		p = next
		goto restart
	}
	return p, nil
}

func (t *treeFS) content(e Entry) (string, error) {
	b, err := t.read(e)
	return string(b), err
}

func (t *treeFS) info(p string) fs.FileInfo {
	if e, ok := t.files[p]; ok {
		return &fileInfo{name: path.Base(p), size: e.Size, mode: entryMode(e.Mode)}
	}
	return &fileInfo{name: path.Base(p), mode: fs.ModeDir | 0o755}
}

func entryMode(m Mode) fs.FileMode {
	switch m {
	case ModeExecutable:
		return 0o755
	case ModeSymlink:
		return fs.ModeSymlink | 0o777
	}
	return 0o644
}

func (t *treeFS) Open(name string) (fs.File, error) {
	p, err := t.resolve("open", name, true)
	if err != nil {
		return nil, err
	}
	// Like os.Open, the file keeps the name it was opened by.
	info := t.info(p).(*fileInfo)
	info.name = path.Base(name)
	if e, ok := t.files[p]; ok {
		b, err := t.content(e)
		if err != nil {
			return nil, &fs.PathError{Op: "open", Path: name, Err: err}
		}
		return &file{info: info, Reader: strings.NewReader(b)}, nil
	}
	return &dirFile{fsys: t, path: p, info: info}, nil
}

func (t *treeFS) ReadFile(name string) ([]byte, error) {
	p, err := t.resolve("readfile", name, true)
	if err != nil {
		return nil, err
	}
	e, ok := t.files[p]
	if !ok {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: errors.New("is a directory")}
	}
	b, err := t.content(e)
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	return []byte(b), nil
}

func (t *treeFS) Stat(name string) (fs.FileInfo, error) {
	p, err := t.resolve("stat", name, true)
	if err != nil {
		return nil, err
	}
	fi := t.info(p).(*fileInfo)
	fi.name = path.Base(name)
	return fi, nil
}

func (t *treeFS) Lstat(name string) (fs.FileInfo, error) {
	p, err := t.resolve("lstat", name, false)
	if err != nil {
		return nil, err
	}
	return t.info(p), nil
}

func (t *treeFS) ReadLink(name string) (string, error) {
	p, err := t.resolve("readlink", name, false)
	if err != nil {
		return "", err
	}
	e, ok := t.files[p]
	if !ok || e.Mode != ModeSymlink {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	target, err := t.content(e)
	if err != nil {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: err}
	}
	return target, nil
}

func (t *treeFS) ReadDir(name string) ([]fs.DirEntry, error) {
	p, err := t.resolve("readdir", name, true)
	if err != nil {
		return nil, err
	}
	kids, ok := t.dirs[p]
	if !ok {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: errors.New("not a directory")}
	}
	out := make([]fs.DirEntry, len(kids))
	for i, k := range kids {
		out[i] = fs.FileInfoToDirEntry(t.info(path.Join(p, k)))
	}
	return out, nil
}

type fileInfo struct {
	name string
	size int64
	mode fs.FileMode
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.mode }
func (fi *fileInfo) ModTime() time.Time { return time.Time{} }
func (fi *fileInfo) IsDir() bool        { return fi.mode.IsDir() }
func (fi *fileInfo) Sys() any           { return nil }

type file struct {
	info fs.FileInfo
	*strings.Reader
}

func (f *file) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *file) Close() error               { return nil }

type dirFile struct {
	fsys *treeFS
	path string
	info fs.FileInfo
	rest []fs.DirEntry // nil until the first ReadDir
	read bool
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.info, nil }
func (d *dirFile) Close() error               { return nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.path, Err: errors.New("is a directory")}
}

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !d.read {
		all, err := d.fsys.ReadDir(d.path)
		if err != nil {
			return nil, err
		}
		d.rest, d.read = all, true
	}
	if n <= 0 {
		all := d.rest
		d.rest = nil
		return all, nil
	}
	if len(d.rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(d.rest))
	out := d.rest[:n]
	d.rest = d.rest[n:]
	return out, nil
}
