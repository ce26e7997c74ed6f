package release

import (
	"io/fs"
	"path"
	"strings"
	"testing"
)

// FuzzCheckPath: an accepted path is clean, relative and stays inside.
func FuzzCheckPath(f *testing.F) {
	for _, s := range []string{"a", "a/b", "../a", "a/../b", "/etc", "a//b", "a/./b", ".", "a/", "a\x00b", "..."} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		if CheckPath(p) != nil {
			return
		}
		if !fs.ValidPath(p) || path.Clean(p) != p || p == "." || strings.HasPrefix(p, "../") || strings.Contains(p, "\x00") {
			t.Fatalf("CheckPath accepted %q", p)
		}
	})
}

// FuzzCheckLinkTarget: an accepted target, resolved from the link's folder,
// stays inside the tree even when every named folder it passes through is
// itself a symlink (so no `..` follows a name).
func FuzzCheckLinkTarget(f *testing.F) {
	for _, s := range [][2]string{{"l", "a"}, {"d/l", "../a"}, {"d/l", "../../a"}, {"l", "/etc"}, {"l", "d/../.."}, {"d/e/l", "./../x/."}, {"l", ""}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, link, target string) {
		if CheckPath(link) != nil || CheckLinkTarget(link, target) != nil {
			return
		}
		resolved := path.Join(path.Dir(link), target)
		if strings.HasPrefix(target, "/") || resolved == ".." || strings.HasPrefix(resolved, "../") {
			t.Fatalf("CheckLinkTarget accepted %q -> %q (resolves to %q)", link, target, resolved)
		}
		named := false
		for seg := range strings.SplitSeq(target, "/") {
			if seg == ".." && named {
				t.Fatalf("accepted `..` after a name in %q", target)
			}
			named = named || (seg != "" && seg != "." && seg != "..")
		}
	})
}
