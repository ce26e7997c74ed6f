package release

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// TreeRef is one folder of a build and its Git tree hash.
type TreeRef struct {
	Path string `json:"path"` // "" for the root
	Hash string `json:"hash"`
}

// Snapshot is the result of a build: a commit's tree as release entries.
// Keep the last one to build the next commit incrementally; it is
// JSON-encodable so it can be kept across restarts.
type Snapshot struct {
	Commit  string    `json:"commit"`
	Tree    string    `json:"tree"`
	Subject string    `json:"subject"`
	Author  string    `json:"author"` // Name <email>
	Time    time.Time `json:"time"`   // commit time
	Digest  string    `json:"digest"`
	// Entries are sorted by path.
	Entries []Entry `json:"entries"`
	// Trees lists every folder in walk order (sorted by path+"/").
	Trees      []TreeRef   `json:"trees,omitempty"`
	Submodules []Submodule `json:"submodules,omitempty"`
	// Findings are the tree's errors (symlinks leaving the tree, `..` paths,
	// unsupported modes); any makes the release invalid.
	Findings []Finding `json:"findings,omitempty"`
}

// Valid reports whether the tree gave no error finding.
func (s *Snapshot) Valid() bool { return !hasError(s.Findings) }

// Record makes the release record of the snapshot; the controller fills in
// previous, covers, status, tools, warnings and manifest findings.
func (s *Snapshot) Record(project string, seq uint64, builtAt time.Time) *Record {
	return &Record{
		ID:         FormatID(seq, s.Digest),
		Project:    project,
		Seq:        seq,
		Digest:     s.Digest,
		Commit:     s.Commit,
		Subject:    s.Subject,
		Author:     s.Author,
		Time:       s.Time,
		BuiltAt:    builtAt,
		Tools:      []ToolRef{},
		Findings:   slices.Clone(s.Findings),
		Submodules: slices.Clone(s.Submodules),
		Entries:    slices.Clone(s.Entries),
	}
}

// Snapshot returns what a record keeps of its build: enough to reuse the
// digest of every unchanged blob in the next build (but not to skip whole
// folders, which needs the tree hashes only a Snapshot holds).
func (r *Record) Snapshot() *Snapshot {
	return &Snapshot{Commit: r.Commit, Digest: r.Digest, Entries: slices.Clone(r.Entries)}
}

// Build makes the snapshot of commit. With prev (the previous build, may be
// nil) it walks only folders whose tree hash changed and hashes only blobs
// whose Git hash is new; the result is the same as a full build's.
func (r *Repo) Build(ctx context.Context, commit plumbing.Hash, prev *Snapshot) (*Snapshot, error) {
	o, err := r.acquire(ctx)
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", commit, err)
	}
	b := &builder{o: o, prev: prev}
	snap, err := b.walkCommit(commit)
	r.release(o)
	if err != nil {
		return nil, fmt.Errorf("build %s: %w", commit, err)
	}
	if b.reusedAll {
		return snap, nil
	}
	if err := r.hashPending(ctx, b); err != nil {
		return nil, fmt.Errorf("build %s: %w", commit, err)
	}
	b.finish(snap)
	return snap, nil
}

// builder holds one build's state; it is used by one goroutine, except
// for pending hashes filled in by hashPending's workers (distinct slots).
type builder struct {
	o         *objReader
	prev      *Snapshot
	byBlob    []blobSlot // entries to take from any previous entry of the same blob
	reusedAll bool

	entries    []Entry
	trees      []TreeRef
	submodules []Submodule
	findings   []Finding
	pending    map[plumbing.Hash][]int // blob -> indexes in entries to fill
}

type blobSlot struct {
	i int // in entries
	h plumbing.Hash
}

// reuseByBlob fills the byBlob entries from a previous entry with the same
// blob (its size and digest depend only on the blob), else queues them.
func (b *builder) reuseByBlob() {
	if len(b.byBlob) == 0 {
		return
	}
	found := make(map[string]int, len(b.byBlob)) // blob -> index in prev.Entries
	for _, s := range b.byBlob {
		found[b.entries[s.i].Blob] = -1
	}
	left := len(found)
	for i, pe := range b.prev.Entries {
		if j, ok := found[pe.Blob]; ok && j < 0 {
			found[pe.Blob] = i
			if left--; left == 0 {
				break
			}
		}
	}
	for _, s := range b.byBlob {
		e := &b.entries[s.i]
		if i := found[e.Blob]; i >= 0 {
			e.Size, e.Digest = b.prev.Entries[i].Size, b.prev.Entries[i].Digest
			continue
		}
		b.pending[s.h] = append(b.pending[s.h], s.i)
	}
}

func (b *builder) walkCommit(commit plumbing.Hash) (*Snapshot, error) {
	data, err := b.o.read(plumbing.CommitObject, commit)
	if err != nil {
		return nil, err
	}
	c, err := object.DecodeCommit(b.o.s, decoded(plumbing.CommitObject, commit, data))
	if err != nil {
		return nil, fmt.Errorf("decode commit %s: %w", commit, err)
	}
	subject, _, _ := strings.Cut(strings.TrimSpace(c.Message), "\n")
	snap := &Snapshot{
		Commit:  commit.String(),
		Tree:    c.TreeHash.String(),
		Subject: strings.TrimSpace(subject),
		Author:  fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
		Time:    c.Committer.When,
	}
	if p := b.prev; p != nil && p.Tree == snap.Tree {
		// Same tree, same release: only the commit differs.
		b.reusedAll = true
		snap.Digest = p.Digest
		snap.Entries = slices.Clone(p.Entries)
		snap.Trees = slices.Clone(p.Trees)
		snap.Submodules = slices.Clone(p.Submodules)
		snap.Findings = slices.Clone(p.Findings)
		return snap, nil
	}
	b.pending = make(map[plumbing.Hash][]int)
	if b.prev != nil {
		b.entries = make([]Entry, 0, len(b.prev.Entries)+16)
	}
	if err := b.walk("", c.TreeHash); err != nil {
		return nil, err
	}
	b.reuseByBlob()
	return snap, nil
}

func (b *builder) walk(dir string, h plumbing.Hash) error {
	if b.reuseTree(dir, h) {
		return nil
	}
	data, err := b.o.read(plumbing.TreeObject, h)
	if err != nil {
		return err
	}
	t, err := object.DecodeTree(b.o.s, decoded(plumbing.TreeObject, h, data))
	if err != nil {
		return fmt.Errorf("decode tree %s (%s): %w", h, displayDir(dir), err)
	}
	b.trees = append(b.trees, TreeRef{Path: dir, Hash: h.String()})
	for _, te := range t.Entries {
		p := te.Name
		if dir != "" {
			p = dir + "/" + te.Name
		}
		if err := checkName(te.Name); err != nil {
			b.errorf(p, "path %q %v; remove it from the repository", p, err)
			continue
		}
		var mode Mode
		switch te.Mode {
		case filemode.Dir:
			if err := b.walk(p, te.Hash); err != nil {
				return err
			}
			continue
		case filemode.Regular, filemode.Deprecated:
			mode = ModeFile
		case filemode.Executable:
			mode = ModeExecutable
		case filemode.Symlink:
			mode = ModeSymlink
		case filemode.Submodule:
			b.submodules = append(b.submodules, Submodule{Path: p, Commit: te.Hash.String()})
			continue
		default:
			b.errorf(p, "%s has unsupported Git mode %o; a release holds files, executables and symlinks", p, uint32(te.Mode))
			continue
		}
		b.addEntry(Entry{Path: p, Mode: mode, Blob: te.Hash.String()}, te.Hash)
	}
	return nil
}

// addEntry takes the digest from the previous build when the same path had
// the same blob (and, for a symlink, was a symlink: its target was checked),
// or when any non-symlink entry had the same blob; else it queues the blob.
func (b *builder) addEntry(e Entry, h plumbing.Hash) {
	if p := b.prev; p != nil {
		i, found := slices.BinarySearchFunc(p.Entries, e.Path, func(x Entry, path string) int { return strings.Compare(x.Path, path) })
		if found && p.Entries[i].Blob == e.Blob && (e.Mode != ModeSymlink || p.Entries[i].Mode == ModeSymlink) {
			e.Size, e.Digest = p.Entries[i].Size, p.Entries[i].Digest
			b.entries = append(b.entries, e)
			return
		}
		if e.Mode != ModeSymlink {
			// Looked up by blob among all previous entries after the walk,
			// in one pass for all such entries.
			b.byBlob = append(b.byBlob, blobSlot{len(b.entries), h})
			b.entries = append(b.entries, e)
			return
		}
	}
	b.pending[h] = append(b.pending[h], len(b.entries))
	b.entries = append(b.entries, e)
}

// reuseTree copies folder dir from the previous build when its tree hash is
// unchanged: its entries, folders, submodules and findings depend only on
// the tree and the folder's path.
func (b *builder) reuseTree(dir string, h plumbing.Hash) bool {
	p := b.prev
	if p == nil || dir == "" {
		return false
	}
	key := dir + "/"
	i := sort.Search(len(p.Trees), func(i int) bool { return compareDirs(p.Trees[i].Path, dir) >= 0 })
	if i == len(p.Trees) || p.Trees[i].Path != dir || p.Trees[i].Hash != h.String() {
		return false
	}
	hi := sort.Search(len(p.Trees), func(i int) bool { return p.Trees[i].Path+"/" >= dir+"0" })
	b.trees = append(b.trees, p.Trees[i:hi]...)
	b.entries = append(b.entries, prefixRange(p.Entries, key, func(e Entry) string { return e.Path })...)
	b.submodules = append(b.submodules, prefixRange(p.Submodules, key, func(s Submodule) string { return s.Path })...)
	b.findings = append(b.findings, prefixRange(p.Findings, key, func(f Finding) string { return f.File })...)
	return true
}

// prefixRange returns the run of xs (sorted by key) whose key starts with
// prefix, which ends in "/": keys from prefix up to prefix with "/" -> "0".
func prefixRange[T any](xs []T, prefix string, key func(T) string) []T {
	end := prefix[:len(prefix)-1] + "0"
	lo := sort.Search(len(xs), func(i int) bool { return key(xs[i]) >= prefix })
	hi := sort.Search(len(xs), func(i int) bool { return key(xs[i]) >= end })
	return xs[lo:hi]
}

func (b *builder) errorf(path, format string, args ...any) {
	b.findings = append(b.findings, Finding{File: path, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
}

// finish drops rejected entries, puts everything in order and digests.
func (b *builder) finish(snap *Snapshot) {
	entries := b.entries[:0]
	for _, e := range b.entries {
		if e.Mode != "" {
			entries = append(entries, e)
		}
	}
	// A canonical Git tree walks in path order; a hand-made one may not.
	if !slices.IsSortedFunc(entries, compareEntries) {
		slices.SortStableFunc(entries, compareEntries)
	}
	for i := 1; i < len(entries); i++ {
		if entries[i].Path == entries[i-1].Path {
			b.errorf(entries[i].Path, "%s appears twice in the tree; the tree object is malformed", entries[i].Path)
		}
	}
	byDir := func(x, y TreeRef) int { return compareDirs(x.Path, y.Path) }
	if !slices.IsSortedFunc(b.trees, byDir) {
		slices.SortStableFunc(b.trees, byDir)
	}
	slices.SortStableFunc(b.submodules, func(x, y Submodule) int { return strings.Compare(x.Path, y.Path) })
	slices.SortStableFunc(b.findings, func(x, y Finding) int {
		if c := strings.Compare(x.File, y.File); c != 0 {
			return c
		}
		return strings.Compare(x.Message, y.Message)
	})
	// A malformed tree reused from the previous build reports its duplicate
	// again; keep one of each.
	b.findings = slices.Compact(b.findings)
	snap.Entries = entries
	snap.Trees = b.trees
	snap.Submodules = b.submodules
	snap.Findings = b.findings
	snap.Digest = Digest(entries)
}

// compareDirs orders folders as strings.Compare(x+"/", y+"/") does, without
// making the strings.
func compareDirs(x, y string) int {
	n := min(len(x), len(y))
	if c := strings.Compare(x[:n], y[:n]); c != 0 || len(x) == len(y) {
		return c
	}
	if len(x) < len(y) {
		if y[n] >= '/' {
			return -1
		}
		return 1
	}
	if x[n] >= '/' {
		return 1
	}
	return -1
}

func displayDir(dir string) string {
	if dir == "" {
		return "the root folder"
	}
	return dir
}
