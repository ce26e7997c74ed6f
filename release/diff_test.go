package release

import (
	"slices"
	"testing"
)

func TestDiff(t *testing.T) {
	r := newTestRepo(t)
	r.write("beeuni.yaml", "v1", 0o644)
	r.write("tools/a.ts", "a", 0o644)
	r.write("tools/old.ts", "old", 0o644)
	r.write("run.sh", "echo", 0o644)
	r.write("same.txt", "same", 0o644)
	a := r.build(r.commitAll("a"), nil).Record("p", 1, r.sig().When)
	a.Tools = []ToolRef{{Name: "a", Kind: "project", Source: "tools/a.ts", Digest: sha("a")}, {Name: "old", Kind: "project", Source: "tools/old.ts"}, {Name: "web_search", Kind: "beeuni", Source: "beeuni:web_search"}}

	r.write("beeuni.yaml", "v2", 0o644)
	r.write("tools/a.ts", "a2", 0o644)
	r.remove("tools/old.ts")
	r.write("tools/new.ts", "new", 0o644)
	r.write("run.sh", "echo", 0o755)
	b := r.build(r.commitAll("b"), nil).Record("p", 2, r.sig().When)
	b.Tools = []ToolRef{{Name: "a", Kind: "project", Source: "tools/a.ts", Digest: sha("a2")}, {Name: "new", Kind: "project", Source: "tools/new.ts"}, {Name: "web_search", Kind: "beeuni", Source: "beeuni:web_search"}}

	c := Diff(a, b)
	names := func(es []Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.Path)
		}
		return out
	}
	var changed, toolsChanged []string
	for _, ch := range c.FilesChanged {
		changed = append(changed, ch.Path)
	}
	for _, ch := range c.ToolsChanged {
		toolsChanged = append(toolsChanged, ch.Name)
	}
	checks := []struct {
		what      string
		got, want []string
	}{
		{"files added", names(c.FilesAdded), []string{"tools/new.ts"}},
		{"files removed", names(c.FilesRemoved), []string{"tools/old.ts"}},
		{"files changed", changed, []string{"beeuni.yaml", "run.sh", "tools/a.ts"}},
		{"tools changed", toolsChanged, []string{"a"}},
	}
	for _, ch := range checks {
		if !slices.Equal(ch.got, ch.want) {
			t.Errorf("%s = %q, want %q", ch.what, ch.got, ch.want)
		}
	}
	if len(c.ToolsAdded) != 1 || c.ToolsAdded[0].Name != "new" || len(c.ToolsRemoved) != 1 || c.ToolsRemoved[0].Name != "old" {
		t.Errorf("tools added %v removed %v", c.ToolsAdded, c.ToolsRemoved)
	}
	if c.From != a.ID || c.To != b.ID || c.Empty() {
		t.Errorf("diff header %s -> %s, empty %v", c.From, c.To, c.Empty())
	}
	if !Diff(b, b).Empty() {
		t.Errorf("a release differs from itself: %+v", Diff(b, b))
	}
}
