package policy

import (
	"os"
	"path/filepath"
	"slices"
)

// Roots lists what a confined child process may reach, for a launcher to
// turn into Landlock rules (which only allow: there is no "deny below"):
// the files and folders it may read, and those it may also write. A
// folder with a denied path inside is replaced by its entries, read now,
// recursively, so that no root holds a denied path; what is created in
// such a folder later is not covered (the child cannot reach it, which
// fails closed); a rule on a path that does not exist splits nothing.
// Symlinks are left out: their targets are listed where
// they live.
func (p *Policy) Roots() (read, write []string) {
	read = p.expand("/", readOnly, nil)
	write = p.expand("/", readWrite, nil)
	return read, write
}

// Lists are the folders of the workspace that Roots splits because a path
// inside them is denied (a checkout's .beeuni in `beeuni up`): a child may
// list them (Landlock's read_dir, names only), so that git and ls work on
// the checkout. Listing reaches below too: the names in the denied folder
// are visible to the child, never what its files hold.
func (p *Policy) Lists() []string {
	var out []string
	for _, r := range p.rules {
		dir := filepath.Dir(r.path)
		if r.level != none || r.path == dir || !within(dir, p.workspace) || !exists(r.path) || !p.allows(dir, readOnly) {
			continue
		}
		if !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}

// allows reports whether the resolved path grants at least lv.
func (p *Policy) allows(path string, lv level) bool {
	r := p.decide(path)
	if r.origin != fromPrivate && p.ownProcess(path) {
		return false
	}
	return r.level >= lv
}

// expand appends the roots under path that grant lv.
func (p *Policy) expand(path string, lv level, out []string) []string {
	ok := p.allows(path, lv)
	if !p.mixedBelow(path, lv, ok) {
		if ok {
			out = append(out, path)
		}
		return out
	}
	ents, err := os.ReadDir(path)
	if err != nil {
		return out
	}
	for _, e := range ents {
		if e.Type()&os.ModeSymlink != 0 {
			continue
		}
		out = p.expand(filepath.Join(path, e.Name()), lv, out)
	}
	return out
}

// mixedBelow reports whether some path strictly inside dir is decided
// otherwise than dir (ok): a rule there, or /proc's own-process rule.
func (p *Policy) mixedBelow(dir string, lv level, ok bool) bool {
	if ok && (dir == "/" || dir == "/proc") {
		return true // this process's /proc entries are among the others
	}
	return slices.ContainsFunc(p.rules, func(r rule) bool {
		return r.path != dir && within(r.path, dir) && (r.level >= lv) != ok && exists(r.path)
	})
}

// exists: a rule on a path that is not there now splits no folder (a
// checkout whose .beeuni was never made stays one root, so a child can
// list it); beeuni makes its state before it runs tools.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}
