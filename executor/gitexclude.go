package executor

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni/internal/atomicfile"
)

// excludeFromGit adds path, anchored at its work tree's root, to the
// repository's info/exclude: Git's own list of local ignores, never committed
// and never shown by git status, so a file the executor generates in a
// checkout stays out of the project's changes. Outside a repository it does
// nothing.
func excludeFromGit(path string) error {
	root, gitDir, ok := findGitDir(filepath.Dir(path))
	if !ok {
		return nil
	}
	rel, err := filepath.Rel(root, path)
	if err != nil {
		return err
	}
	line := "/" + escapeGitPattern(filepath.ToSlash(rel))
	// A linked work tree (.git is a file) shares info/ with its main one.
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		common = strings.TrimSpace(string(b))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
	}
	exclude := filepath.Join(common, "info", "exclude")
	old, err := os.ReadFile(exclude)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	for l := range strings.SplitSeq(string(old), "\n") {
		if strings.TrimRight(l, "\r") == line {
			return nil
		}
	}
	var b bytes.Buffer
	b.Write(old)
	if len(old) > 0 && !bytes.HasSuffix(old, []byte("\n")) {
		b.WriteByte('\n')
	}
	b.WriteString("# a file beeuni generates, kept out of git status\n" + line + "\n")
	if err := os.MkdirAll(filepath.Dir(exclude), 0o755); err != nil {
		return err
	}
	return atomicfile.Write(exclude, b.Bytes(), 0o644)
}

// findGitDir walks up from dir to the work tree that holds it and returns
// the root and its Git folder (.git, or where a .git file points).
func findGitDir(dir string) (root, gitDir string, ok bool) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", "", false
	}
	for {
		dotGit := filepath.Join(dir, ".git")
		if st, err := os.Stat(dotGit); err == nil {
			if st.IsDir() {
				return dir, dotGit, true
			}
			b, err := os.ReadFile(dotGit)
			if target, found := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:"); err == nil && found {
				target = strings.TrimSpace(target)
				if !filepath.IsAbs(target) {
					target = filepath.Join(dir, target)
				}
				return dir, target, true
			}
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", false
		}
		dir = parent
	}
}

// escapeGitPattern makes a path match itself only in a gitignore file (the
// caller anchors it with a leading slash, so # and ! need no escape).
func escapeGitPattern(p string) string {
	var b strings.Builder
	for _, r := range p {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	if strings.HasSuffix(p, " ") {
		return strings.TrimSuffix(b.String(), " ") + `\ `
	}
	return b.String()
}
