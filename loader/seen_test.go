package loader

import (
	"slices"
	"testing"
)

func TestSeenBy(t *testing.T) {
	files := map[string]string{"beeuni.yaml": visManifest, "tools/lookup.ts": "",
		"harnesses/opencode/tools/legacy_note.ts": "", "harnesses/opencode/tools/show.ts": ""}
	fsys := mapFS(t, files)
	def, exp := Read(fsys, HarnessDefault), Read(fsys, HarnessExperimental)
	harness := []string{"bash", "read", "write", "edit", "apply_patch", "glob", "grep", "list", "task", "question", "webfetch", "todowrite", "todoread"}
	cases := []struct {
		name          string
		agent, parent string
		def, exp      []string
	}{
		{"undeclared sees all", "nobody", "",
			append(slices.Clone(harness), "pty_*", "web_search", "show", "lookup", "legacy_note"),
			append(slices.Clone(harness), "web_search", "show", "lookup")},
		{"none", "greeter", "", []string{}, []string{}},
		{"list", "researcher", "", []string{"read", "grep", "web_search", "lookup"}, []string{"read", "grep", "web_search", "lookup"}},
		{"bash brings pty_*, edit brings write and apply_patch on the default runtime", "lister", "",
			[]string{"bash", "write", "edit", "apply_patch", "pty_*"}, []string{"bash", "edit"}},
		{"exclude write hides edit and apply_patch on the default runtime", "support", "",
			[]string{"read", "glob", "grep", "list", "task", "question", "webfetch", "todowrite", "todoread", "web_search", "show", "legacy_note"},
			[]string{"read", "edit", "apply_patch", "glob", "grep", "list", "task", "question", "webfetch", "todowrite", "todoread", "web_search", "show"}},
		{"subagent: intersection on experimental, own list on default", "support", "researcher",
			[]string{"read", "glob", "grep", "list", "task", "question", "webfetch", "todowrite", "todoread", "web_search", "show", "legacy_note"},
			[]string{"read", "grep", "web_search"}},
		{"subagent of an agent that sees nothing", "beeuni", "greeter",
			append(slices.Clone(harness), "pty_*", "web_search", "show", "lookup", "legacy_note"), []string{}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for _, c := range []struct {
				p    *Project
				want []string
			}{{def, tc.def}, {exp, tc.exp}} {
				got := []string{}
				for _, tl := range c.p.SeenBy(tc.agent, tc.parent) {
					got = append(got, tl.Name)
				}
				if !slices.Equal(got, c.want) {
					t.Errorf("%s: SeenBy(%s, %s)\n got %q\nwant %q", c.p.Harness(), tc.agent, tc.parent, got, c.want)
				}
			}
		})
	}
	// The legacy copy of show is what the default runtime runs.
	for _, tl := range def.SeenBy("nobody", "") {
		if tl.Name == "show" && tl.Source != "harnesses/opencode/tools/show.ts" {
			t.Errorf("default: show's source = %s, want the legacy copy", tl.Source)
		}
	}
	if !def.Declared("support") || def.Declared("nobody") {
		t.Errorf("Declared: support %v, nobody %v", def.Declared("support"), def.Declared("nobody"))
	}
}
