package release

import (
	"cmp"
	"slices"
)

// Changes is what differs from one release to another, for
// `beeuni release diff A B`. Every list is sorted by path or name.
type Changes struct {
	From string `json:"from"`
	To   string `json:"to"`

	FilesAdded   []Entry       `json:"files_added"`
	FilesRemoved []Entry       `json:"files_removed"`
	FilesChanged []EntryChange `json:"files_changed"` // content or mode differs
	ToolsAdded   []ToolRef     `json:"tools_added"`
	ToolsRemoved []ToolRef     `json:"tools_removed"`
	ToolsChanged []ToolChange  `json:"tools_changed"` // kind, source or digest differs
}

// EntryChange is one path present in both releases with other content or mode.
type EntryChange struct {
	Path string `json:"path"`
	From Entry  `json:"from"`
	To   Entry  `json:"to"`
}

// ToolChange is one tool present in both releases that changed.
type ToolChange struct {
	Name string  `json:"name"`
	From ToolRef `json:"from"`
	To   ToolRef `json:"to"`
}

// Empty reports whether the two releases have the same files and tools.
func (c *Changes) Empty() bool {
	return len(c.FilesAdded)+len(c.FilesRemoved)+len(c.FilesChanged)+
		len(c.ToolsAdded)+len(c.ToolsRemoved)+len(c.ToolsChanged) == 0
}

// Diff compares release a (older) with b (newer). A rename shows as a
// removed and an added file.
func Diff(a, b *Record) *Changes {
	c := &Changes{
		From: a.ID, To: b.ID,
		FilesAdded: []Entry{}, FilesRemoved: []Entry{}, FilesChanged: []EntryChange{},
		ToolsAdded: []ToolRef{}, ToolsRemoved: []ToolRef{}, ToolsChanged: []ToolChange{},
	}
	mergeDiff(a.Entries, b.Entries, func(e Entry) string { return e.Path },
		func(e Entry) { c.FilesRemoved = append(c.FilesRemoved, e) },
		func(e Entry) { c.FilesAdded = append(c.FilesAdded, e) },
		func(x, y Entry) {
			if x.Mode != y.Mode || x.Digest != y.Digest {
				c.FilesChanged = append(c.FilesChanged, EntryChange{Path: x.Path, From: x, To: y})
			}
		})
	mergeDiff(a.Tools, b.Tools, func(t ToolRef) string { return t.Name },
		func(t ToolRef) { c.ToolsRemoved = append(c.ToolsRemoved, t) },
		func(t ToolRef) { c.ToolsAdded = append(c.ToolsAdded, t) },
		func(x, y ToolRef) {
			if x != y {
				c.ToolsChanged = append(c.ToolsChanged, ToolChange{Name: x.Name, From: x, To: y})
			}
		})
	return c
}

// mergeDiff walks two lists in key order and reports each key as only in a,
// only in b, or in both.
func mergeDiff[T any](a, b []T, key func(T) string, onlyA, onlyB func(T), both func(x, y T)) {
	byKey := func(x, y T) int { return cmp.Compare(key(x), key(y)) }
	a = slices.SortedStableFunc(slices.Values(a), byKey)
	b = slices.SortedStableFunc(slices.Values(b), byKey)
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || i < len(a) && key(a[i]) < key(b[j]):
			onlyA(a[i])
			i++
		case i == len(a) || key(b[j]) < key(a[i]):
			onlyB(b[j])
			j++
		default:
			both(a[i], b[j])
			i, j = i+1, j+1
		}
	}
}
