package release

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// CheckPath accepts a release path: valid UTF-8, slash-separated, relative,
// with no empty, `.` or `..` segment and no NUL byte. Any path it accepts is an fs.ValidPath
// that stays inside the folder it is joined to.
func CheckPath(p string) error {
	if p == "" {
		return errors.New("empty path")
	}
	if strings.HasPrefix(p, "/") {
		return fmt.Errorf("path %q is absolute; release paths are relative to the repository root", p)
	}
	for seg := range strings.SplitSeq(p, "/") {
		if err := checkName(seg); err != nil {
			return fmt.Errorf("path %q: %w", p, err)
		}
	}
	return nil
}

// checkName accepts one tree entry name.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("has an empty segment")
	case name == "." || name == "..":
		return fmt.Errorf("has a %q segment, which could leave the release folder", name)
	case strings.ContainsRune(name, '/'):
		return fmt.Errorf("segment %q contains a slash", name)
	case strings.IndexByte(name, 0) >= 0:
		return errors.New("contains a NUL byte")
	case !utf8.ValidString(name):
		// JSON (the record) cannot carry it unchanged, nor can an fs.FS.
		return errors.New("is not valid UTF-8; rename it")
	}
	return nil
}

// CheckLinkTarget accepts the target of the symlink at linkPath when it stays
// inside the tree. The rule is lexical and deliberately strict, so that it can
// be decided from the link alone, whatever other links the tree holds:
// the target is relative, `..` segments may only lead it (a `..` after a name
// could climb out of a folder reached through another symlink), and the
// leading `..` segments may not climb above the root. The target need not
// exist. `.` and empty segments are ignored.
func CheckLinkTarget(linkPath, target string) error {
	if target == "" {
		return fmt.Errorf("symlink %s has an empty target", linkPath)
	}
	if strings.IndexByte(target, 0) >= 0 || !utf8.ValidString(target) {
		return fmt.Errorf("symlink %s: target is not valid UTF-8 text", linkPath)
	}
	if strings.HasPrefix(target, "/") {
		return fmt.Errorf("symlink %s points to the absolute path %s, outside the repository; make it a relative path inside the repository", linkPath, target)
	}
	depth := strings.Count(linkPath, "/") // folders above the link
	ups, named := 0, false
	for seg := range strings.SplitSeq(target, "/") {
		switch seg {
		case "", ".":
		case "..":
			if named {
				return fmt.Errorf("symlink %s -> %s: `..` after a folder name is not allowed (it may leave the repository through another symlink); write the target with leading `..` only", linkPath, target)
			}
			ups++
			if ups > depth {
				return fmt.Errorf("symlink %s -> %s points outside the repository; make it point to a file inside the repository", linkPath, target)
			}
		default:
			named = true
		}
	}
	return nil
}
