package bun

import (
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installGlob adds Bun.Glob's bindings: match, and the scans, which walk
// the file system through the policy. The folder scanned (cwd) must be
// readable, else EACCES names it; below it, what the policy refuses is
// skipped, as if absent (Bun has no policy; a scan that fails on the
// first private folder would make **/* useless in a checkout).
func installGlob(r *rt.Runtime, set func(string, any)) {
	vm := r.VM
	set("globMatch", func(pattern, p string) bool { return compileGlob(pattern).match(p) })
	prepare := func(pattern string, o *goja.Object) (*globScan, string) {
		cwd := r.Host.Directory
		if v := o.Get("cwd").String(); v != "" {
			cwd = v
			if !filepath.IsAbs(cwd) {
				cwd = filepath.Join(r.Host.Directory, cwd)
			}
		}
		root := r.Path(cwd, policy.Read, "scandir")
		limit := int64(r.Host.CallMemory)
		return &globScan{
			g: compileGlob(pattern), policy: r.Host.Policy, dot: o.Get("dot").ToBoolean(),
			absolute: o.Get("absolute").ToBoolean(), onlyFiles: o.Get("onlyFiles").ToBoolean(),
			limit: limit, shown: cwd,
		}, root
	}
	result := func(s *globScan) goja.Value {
		if s.over {
			r.Alloc(s.bytes) // throws: the list is over the call's memory
		}
		items := make([]any, len(s.found))
		for i, p := range s.found {
			items[i] = p
		}
		return vm.NewArray(items...)
	}
	set("globScanSync", func(pattern string, o *goja.Object) goja.Value {
		s, root := prepare(pattern, o)
		s.walk(r.Loop.Context(), root, "", s.g.start())
		return result(s)
	})
	set("globScan", func(pattern string, o *goja.Object) goja.Value {
		s, root := prepare(pattern, o)
		ctx := r.Loop.Context()
		return settleAsync(r, func() (any, error) {
			s.walk(ctx, root, "", s.g.start())
			return s, nil
		}, func(v any) goja.Value { return result(v.(*globScan)) }, "scandir", root)
	})
}

// globScan is one scan's settings and what it found so far.
type globScan struct {
	g                        *glob
	policy                   *policy.Policy
	dot, absolute, onlyFiles bool
	limit                    int64  // the call's memory (0: none): the list stops past it
	shown                    string // cwd as the tool gave it, for absolute results
	found                    []string
	bytes                    int64
	over                     bool
}

// walk lists dir (real path real, rel from the scan's root) with the
// pattern states st, adding matches and entering folders that may hold
// more. It stops when ctx ends (the call did) or the list is too large.
func (s *globScan) walk(ctx context.Context, real, rel string, st []int) {
	if ctx.Err() != nil || s.over {
		return
	}
	ents, err := os.ReadDir(real)
	if err != nil {
		return // unreadable folders are skipped, as Bun does
	}
	for _, e := range ents {
		name := e.Name()
		next := s.g.step(st, name, s.dot)
		if len(next) == 0 {
			continue
		}
		full := filepath.Join(real, name)
		checked, err := s.policy.Check(full, policy.Read)
		if err != nil {
			continue // refused by the policy: skipped, as if absent
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(checked)
			if err != nil {
				continue
			}
			isDir = fi.IsDir() // a link to a folder is listed, not entered (Bun's followSymlinks: false)
			if isDir && s.onlyFiles {
				continue
			}
			if isDir {
				s.add(path.Join(rel, name))
				continue
			}
		}
		p := path.Join(rel, name)
		if s.g.final(next) && (!isDir || !s.onlyFiles) {
			s.add(p)
		}
		if isDir && e.Type()&os.ModeSymlink == 0 && s.g.live(next) {
			s.walk(ctx, checked, p, next)
		}
	}
}

func (s *globScan) add(p string) {
	if s.absolute {
		p = filepath.Join(s.shown, p)
	}
	s.bytes += int64(len(p)) + 32 // the string and its slot in the array
	if s.limit > 0 && s.bytes > s.limit {
		s.over = true
		return
	}
	s.found = append(s.found, p)
}

// glob is a compiled pattern: its brace alternatives, each split into
// path segments ("**" is a segment of its own).
type glob struct {
	alts [][]string
}

func compileGlob(pattern string) *glob {
	g := &glob{}
	alts := expandBraces(pattern)
	if len(alts) > maxAlternatives {
		alts = alts[:maxAlternatives]
	}
	for _, alt := range alts {
		alt = strings.TrimPrefix(alt, "./")
		g.alts = append(g.alts, strings.Split(alt, "/"))
	}
	return g
}

// maxAlternatives bounds a pattern's brace expansion ({a,b}{c,d}...
// doubles with each brace): past it the later alternatives are dropped.
const maxAlternatives = 1 << 10

// States are alt<<16 | segment index.
const stateBits = 16

func (g *glob) closure(st []int) []int {
	var out []int
	for _, x := range st {
		a, i := x>>stateBits, x&(1<<stateBits-1)
		for {
			if !slices.Contains(out, a<<stateBits|i) {
				out = append(out, a<<stateBits|i)
			}
			if i < len(g.alts[a]) && g.alts[a][i] == "**" {
				i++
				continue
			}
			break
		}
	}
	return out
}

func (g *glob) start() []int {
	var st []int
	for a := range g.alts {
		st = append(st, a<<stateBits)
	}
	return g.closure(st)
}

// step consumes one path segment; dot lets wildcards match names that
// start with a dot.
func (g *glob) step(st []int, name string, dot bool) []int {
	var next []int
	hidden := strings.HasPrefix(name, ".")
	for _, x := range st {
		a, i := x>>stateBits, x&(1<<stateBits-1)
		segs := g.alts[a]
		if i >= len(segs) {
			continue
		}
		seg := segs[i]
		if seg == "**" {
			if !hidden || dot {
				next = append(next, x)
			}
			continue
		}
		if hidden && !dot && !strings.HasPrefix(seg, ".") {
			continue
		}
		if matchSegment(seg, name) {
			next = append(next, x+1)
		}
	}
	return g.closure(next)
}

// final reports whether a state set has matched a whole pattern.
func (g *glob) final(st []int) bool {
	for _, x := range st {
		if x&(1<<stateBits-1) == len(g.alts[x>>stateBits]) {
			return true
		}
	}
	return false
}

// live reports whether more segments may still match below.
func (g *glob) live(st []int) bool {
	for _, x := range st {
		if x&(1<<stateBits-1) < len(g.alts[x>>stateBits]) {
			return true
		}
	}
	return false
}

// match is Glob.match: the whole path against the pattern (no file
// system; dot names match like any other, as in Bun).
func (g *glob) match(p string) bool {
	p = strings.TrimPrefix(p, "./")
	st := g.start()
	for _, seg := range strings.Split(p, "/") {
		st = g.step(st, seg, true)
		if len(st) == 0 {
			return false
		}
	}
	return g.final(st)
}

// matchSegment matches one path segment against one pattern segment:
// * (any run), ? (one character), [abc], [a-z], [!a] or [^a], \ escapes.
func matchSegment(pat, name string) bool {
	p, n := []rune(pat), []rune(name)
	var rec func(i, j int) bool
	rec = func(i, j int) bool {
		for i < len(p) {
			switch p[i] {
			case '*':
				for i < len(p) && p[i] == '*' {
					i++
				}
				if i == len(p) {
					return true
				}
				for k := j; k <= len(n); k++ {
					if rec(i, k) {
						return true
					}
				}
				return false
			case '?':
				if j >= len(n) {
					return false
				}
				i, j = i+1, j+1
			case '[':
				if j >= len(n) {
					return false
				}
				end, ok := classMatch(p, i, n[j])
				if end < 0 {
					if n[j] != '[' { // an unclosed [ is a literal
						return false
					}
					i, j = i+1, j+1
					continue
				}
				if !ok {
					return false
				}
				i, j = end+1, j+1
			case '\\':
				if i+1 < len(p) {
					i++
				}
				fallthrough
			default:
				if j >= len(n) || p[i] != n[j] {
					return false
				}
				i, j = i+1, j+1
			}
		}
		return j == len(n)
	}
	return rec(0, 0)
}

// classMatch matches c against the class starting at p[i] == '['; end is
// the index of its ']' (-1: not closed).
func classMatch(p []rune, i int, c rune) (end int, ok bool) {
	k := i + 1
	neg := k < len(p) && (p[k] == '!' || p[k] == '^')
	if neg {
		k++
	}
	first := true
	for ; k < len(p); k++ {
		if p[k] == ']' && !first {
			return k, ok != neg
		}
		first = false
		lo := p[k]
		if lo == '\\' && k+1 < len(p) {
			k++
			lo = p[k]
		}
		hi := lo
		if k+2 < len(p) && p[k+1] == '-' && p[k+2] != ']' {
			hi = p[k+2]
			k += 2
		}
		if lo <= c && c <= hi {
			ok = true
		}
	}
	return -1, false
}

// expandBraces turns a{b,c}d into abd and acd (nested braces too); an
// unbalanced brace is a literal.
func expandBraces(s string) []string {
	depth, open := 0, -1
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			if depth == 0 {
				open = i
			}
			depth++
		case '}':
			if depth == 0 {
				continue
			}
			depth--
			if depth == 0 {
				var out []string
				for _, opt := range splitTop(s[open+1 : i]) {
					out = append(out, expandBraces(s[:open]+opt+s[i+1:])...)
				}
				return out
			}
		}
	}
	return []string{s}
}

// splitTop splits s at the commas outside nested braces.
func splitTop(s string) []string {
	var parts []string
	depth, last := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[last:i])
				last = i + 1
			}
		}
	}
	return append(parts, s[last:])
}
