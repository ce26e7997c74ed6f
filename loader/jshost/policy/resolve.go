package policy

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
)

// maxLinks is how many symlinks one path may pass through (Linux: 40).
const maxLinks = 40

var errLoop = errors.New("too many levels of symbolic links")

// resolve follows the symlinks of an absolute clean path, one component
// at a time, as the kernel would. It returns the resolved path and every
// symlink it followed (as its own resolved location): following a link
// reads it. From the first component that does not exist (or cannot be
// looked at), the rest is appended as it is. With followLast false, a
// symlink in the last component is kept (lstat, unlink).
func resolve(path string, followLast bool) (string, []string, error) {
	var links []string
	rest := split(path)
	cur := "/"
	for hops := 0; len(rest) > 0; {
		part := rest[0]
		rest = rest[1:]
		next := filepath.Join(cur, part)
		if len(rest) == 0 && !followLast {
			return next, links, nil
		}
		fi, err := os.Lstat(next)
		if err != nil {
			return filepath.Join(append([]string{next}, rest...)...), links, nil
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			cur = next
			continue
		}
		if hops++; hops > maxLinks {
			return "", links, errLoop
		}
		links = append(links, next)
		target, err := os.Readlink(next)
		if err != nil {
			return filepath.Join(append([]string{next}, rest...)...), links, nil
		}
		if filepath.IsAbs(target) {
			cur = "/"
		}
		rest = append(split(filepath.Join(cur, target)), rest...)
		cur = "/"
	}
	return cur, links, nil
}

// split is the components of an absolute clean path.
func split(p string) []string {
	p = strings.Trim(filepath.Clean(p), "/")
	if p == "" {
		return nil
	}
	return strings.Split(p, "/")
}

// ownProcess reports whether path is under /proc/<n> where n is this
// process, one of its threads, or another process running the same
// binary (the controller, another executor): their memory, environment
// and command line hold beeuni's secrets.
func (p *Policy) ownProcess(path string) bool {
	rest, ok := strings.CutPrefix(path, "/proc/")
	if !ok {
		return false
	}
	id, _, _ := strings.Cut(rest, "/")
	n, err := strconv.Atoi(id)
	if err != nil || n <= 0 {
		return false
	}
	if n == p.pid {
		return true
	}
	if _, err := os.Lstat("/proc/self/task/" + id); err == nil {
		return true // a thread of this process
	}
	self := selfExe()
	if self == nil {
		return false
	}
	fi, err := os.Stat("/proc/" + id + "/exe")
	return err == nil && os.SameFile(fi, self)
}

// selfExe is this process's binary, to recognise other beeuni processes.
var selfExe = sync.OnceValue(func() os.FileInfo {
	fi, err := os.Stat("/proc/self/exe")
	if err != nil {
		return nil
	}
	return fi
})
