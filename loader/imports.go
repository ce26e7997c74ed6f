package loader

import (
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"
)

// readImports reads each file listed under imports: in from, depth first.
// A file already read (imported twice along different paths) is read once.
func (r *reader) readImports(from string, n *yaml.Node) {
	if isNull(n) {
		return
	}
	if n.Kind != yaml.SequenceNode {
		r.errorf(from, n.Line, "`imports:` must be a list of repo-relative YAML files (e.g. `imports: [tools.yaml]`); found %s", describe(n))
		return
	}
	listed := map[string]int{}
	for _, it := range n.Content {
		it = deref(it)
		if !isString(it) {
			r.errorf(from, it.Line, "each import must be a repo-relative path to a YAML file (e.g. `tools.yaml`); found %s", describe(it))
			continue
		}
		p, problem := cleanRepoPath(it.Value)
		if problem != "" {
			r.errorf(from, it.Line, "import `%s` %s", clip(it.Value), problem)
			continue
		}
		if ext := path.Ext(p); ext != ".yaml" && ext != ".yml" {
			r.errorf(from, it.Line, "import `%s` must be a YAML file ending in .yaml or .yml", p)
			continue
		}
		if first, dup := listed[p]; dup {
			r.warnf(from, it.Line, "imports `%s` again (first at line %d): remove this line", p, first)
			continue
		}
		listed[p] = it.Line
		if i := slices.Index(r.stack, p); i >= 0 {
			chain := strings.Join(append(slices.Clone(r.stack[i:]), p), " → ")
			r.errorf(from, it.Line, "imports `%s`, which is already being read: import cycle %s. Remove one of these imports", p, chain)
			continue
		}
		if r.seen[p] {
			continue
		}
		st, err := fs.Stat(r.fsys, p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			r.errorf(from, it.Line, "imports `%s`, which does not exist: create it or fix the path", p)
			continue
		case err != nil:
			r.errorf(from, it.Line, "imports `%s`, which cannot be read: %v", p, stripPathErr(err))
			continue
		case st.IsDir():
			r.errorf(from, it.Line, "imports `%s`, which is a folder: list a YAML file", p)
			continue
		}
		r.seen[p] = true
		data, ok := r.readText(p, st)
		if !ok {
			continue
		}
		r.readManifest(p, data)
	}
}

// cleanRepoPath checks that s is a path inside the repository, written from
// its root, and returns it cleaned ("./a//b.ts" -> "a/b.ts"). problem, when
// not empty, completes a sentence about the path and says what to change.
func cleanRepoPath(s string) (clean, problem string) {
	switch {
	case strings.TrimSpace(s) == "":
		return "", "is empty: write a path from the repository root"
	case strings.ContainsRune(s, '\\'):
		return "", "uses a backslash: write the path with forward slashes, from the repository root"
	case strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) >= 0:
		return "", "holds a control character: write a plain path from the repository root"
	case strings.HasPrefix(s, "/") || (len(s) >= 2 && s[1] == ':'):
		return "", "is an absolute path: write it relative to the repository root"
	}
	if slices.Contains(strings.Split(s, "/"), "..") {
		return "", "leaves the repository (`..`): write a path inside the repository, from its root"
	}
	c := path.Clean(s)
	if c == "." || !fs.ValidPath(c) {
		return "", "is not a path to a file: write a path from the repository root"
	}
	return c, ""
}
