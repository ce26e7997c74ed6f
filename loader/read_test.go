package loader

import (
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// mapFS builds a project tree; a value "<dir>" makes a folder.
func mapFS(tb testing.TB, files map[string]string) fstest.MapFS {
	tb.Helper()
	m := fstest.MapFS{}
	for name, content := range files {
		if content == "<dir>" {
			m[name] = &fstest.MapFile{Mode: 0o755 | 1<<31} // fs.ModeDir
			continue
		}
		m[name] = &fstest.MapFile{Data: []byte(content), Mode: 0o644}
	}
	return m
}

func findingStrings(p *Project) []string {
	out := []string{}
	for _, f := range p.Findings {
		out = append(out, f.String())
	}
	return out
}

func toolStrings(p *Project) []string {
	out := []string{}
	for _, t := range p.Tools {
		out = append(out, t.Name+" "+string(t.Kind)+" "+t.Source)
	}
	return out
}

var allFive = []string{
	"web_search beeuni beeuni:web_search",
	"image_search beeuni beeuni:image_search",
	"scrape_webpage beeuni beeuni:scrape_webpage",
	"memory beeuni beeuni:memory",
	"show beeuni beeuni:show",
}

const noBeeuni = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one."

type readCase struct {
	name     string
	files    map[string]string
	harness  Harness // default: HarnessDefault
	tools    []string
	removed  []string // nil: not checked
	toolsKey *bool
	findings []string
}

func ptr[T any](v T) *T { return &v }

func runReadCases(t *testing.T, cases []readCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := tc.harness
			if h == "" {
				h = HarnessDefault
			}
			p := Read(mapFS(t, tc.files), h)
			if got := findingStrings(p); !slices.Equal(got, orEmpty(tc.findings)) {
				t.Errorf("findings:\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(tc.findings, "\n     "))
			}
			if tc.tools != nil {
				if got := toolStrings(p); !slices.Equal(got, tc.tools) {
					t.Errorf("tools:\n got %q\nwant %q", got, tc.tools)
				}
			}
			if tc.removed != nil && !slices.Equal(p.Removed, tc.removed) {
				t.Errorf("removed: got %q, want %q", p.Removed, tc.removed)
			}
			if tc.toolsKey != nil && p.ToolsKey != *tc.toolsKey {
				t.Errorf("ToolsKey = %v, want %v", p.ToolsKey, *tc.toolsKey)
			}
			if p.Removed == nil {
				t.Errorf("Removed is nil, want a slice")
			}
			wantErr := false
			for _, f := range tc.findings {
				wantErr = wantErr || strings.Contains(f, ": error: ")
			}
			if p.HasErrors() != wantErr {
				t.Errorf("HasErrors = %v, want %v", p.HasErrors(), wantErr)
			}
		})
	}
}

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func TestReadSelection(t *testing.T) {
	ts := map[string]string{"tools/lookup_order.ts": "export default {}", "tools/web_search.ts": "x"}
	with := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, v := range ts {
			out[k] = v
		}
		for k, v := range m {
			out[k] = v
		}
		return out
	}
	runReadCases(t, []readCase{
		{name: "no manifest", files: map[string]string{}, tools: allFive, removed: []string{}, toolsKey: ptr(false),
			findings: []string{"beeuni.yaml: error: not found at the repository root: create beeuni.yaml to declare the project's tools (without it a session gets all five Beeuni tools)"}},
		{name: "empty file", files: map[string]string{"beeuni.yaml": ""}, tools: allFive, removed: []string{}, toolsKey: ptr(false)},
		{name: "comments only", files: map[string]string{"beeuni.yaml": "# nothing\n"}, tools: allFive, toolsKey: ptr(false)},
		{name: "no tools key, other keys left alone", files: map[string]string{"beeuni.yaml": "name: demo\nmodel: {a: 1}\nagents:\n  a:\n    tools: all\n"}, tools: allFive, toolsKey: ptr(false)},
		{name: "empty tools key", files: map[string]string{"beeuni.yaml": "tools:\n"}, tools: []string{}, toolsKey: ptr(true),
			removed:  []string{"web_search", "image_search", "scrape_webpage", "memory", "show"},
			findings: []string{"beeuni.yaml:1: warning: " + noBeeuni}},
		{name: "tools {}", files: map[string]string{"beeuni.yaml": "x: 1\ntools: {}\n"}, tools: []string{}, toolsKey: ptr(true),
			findings: []string{"beeuni.yaml:2: warning: " + noBeeuni}},
		{name: "tools ~", files: map[string]string{"beeuni.yaml": "tools: ~\n"}, tools: []string{}, toolsKey: ptr(true),
			findings: []string{"beeuni.yaml:1: warning: " + noBeeuni}},
		{name: "only project tool drops the five", files: with(map[string]string{"beeuni.yaml": "tools:\n  lookup_order: tools/lookup_order.ts\n"}),
			tools: []string{"lookup_order project tools/lookup_order.ts"}, findings: []string{"beeuni.yaml:1: warning: " + noBeeuni}},
		{name: "reference example order", files: with(map[string]string{"beeuni.yaml": "tools:\n  lookup_order: tools/lookup_order.ts\n  show: beeuni:show\n  memory: beeuni:memory\n  scrape_webpage: beeuni:scrape_webpage\n  web_search: tools/web_search.ts\n"}),
			tools: []string{
				"web_search beeuni (overridden) tools/web_search.ts",
				"scrape_webpage beeuni beeuni:scrape_webpage",
				"memory beeuni beeuni:memory",
				"show beeuni beeuni:show",
				"lookup_order project tools/lookup_order.ts",
			}, removed: []string{"image_search"}},
		{name: "tools key only in an imported file", files: with(map[string]string{"beeuni.yaml": "imports: [more.yaml]\n", "more.yaml": "tools:\n  memory: beeuni:memory\n"}),
			tools: []string{"memory beeuni beeuni:memory"}, toolsKey: ptr(true), removed: []string{"web_search", "image_search", "scrape_webpage", "show"}},
		{name: "empty tools key in an imported file", files: map[string]string{"beeuni.yaml": "imports:\n  - more.yml\n", "more.yml": "tools:\n"},
			tools: []string{}, toolsKey: ptr(true), findings: []string{"more.yml:1: warning: " + noBeeuni}},
		{name: "project tools: root first then imports in order", files: map[string]string{
			"beeuni.yaml": "imports: [a.yaml, b.yaml]\ntools:\n  zeta: z.js\n  show: beeuni:show\n",
			"a.yaml":      "imports: [c.yaml]\ntools:\n  alpha: a.mjs\n",
			"b.yaml":      "tools:\n  beta: b.cts\n",
			"c.yaml":      "tools:\n  gamma: g.cjs\n  delta: d.mts\n",
			"z.js":        "", "a.mjs": "", "b.cts": "", "g.cjs": "", "d.mts": "",
		}, tools: []string{"show beeuni beeuni:show", "zeta project z.js", "alpha project a.mjs", "gamma project g.cjs", "delta project d.mts", "beta project b.cts"}},
		{name: "path is cleaned", files: with(map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  lookup_order: ./tools//lookup_order.ts\n"}),
			tools: []string{"show beeuni beeuni:show", "lookup_order project tools/lookup_order.ts"}},
	})
}

func TestReadEntryRules(t *testing.T) {
	base := map[string]string{"tools/x.ts": "", "tools/dir.ts": "<dir>"}
	m := func(yaml string) map[string]string {
		out := map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n" + yaml}
		for k, v := range base {
			out[k] = v
		}
		return out
	}
	e := func(line, msg string) []string { return []string{"beeuni.yaml:" + line + ": error: " + msg} }
	runReadCases(t, []readCase{
		{name: "beeuni mismatch (reference message)", files: m("  web_search: beeuni:image_search\n"), tools: []string{"show beeuni beeuni:show"},
			findings: e("3", "must be `beeuni:web_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/web_search.ts`) that replaces it.")},
		{name: "beeuni unknown under a Beeuni name", files: m("  memory: beeuni:memroy\n"),
			findings: e("3", "must be `beeuni:memory` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/memory.ts`) that replaces it.")},
		{name: "Beeuni name with a python file", files: m("  image_search: tools/x.py\n"),
			findings: e("3", "must be `beeuni:image_search` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/image_search.ts`) that replaces it.")},
		{name: "Beeuni name with an absolute path", files: m("  memory: /etc/memory.ts\n"),
			findings: e("3", "must be `beeuni:memory` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/memory.ts`) that replaces it.")},
		{name: "Beeuni name with no value", files: m("  memory:\n"),
			findings: e("3", "must be `beeuni:memory` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/memory.ts`) that replaces it.")},
		{name: "Beeuni name with a missing module", files: m("  memory: tools/memory.ts\n"),
			findings: e("3", "`memory: tools/memory.ts`: tools/memory.ts does not exist: create the module or fix the path")},
		{name: "Beeuni name overridden", files: m("  memory: tools/x.ts\n"), tools: []string{"memory beeuni (overridden) tools/x.ts", "show beeuni beeuni:show"}},
		{name: "project name with a Beeuni source", files: m("  lookup: beeuni:web_search\n"),
			findings: e("3", "`lookup: beeuni:web_search`: a Beeuni tool keeps its own name: write `web_search: beeuni:web_search`, or point `lookup` at a repo-relative .ts or .js module (e.g. `tools/lookup.ts`)")},
		{name: "project name with an unknown beeuni source", files: m("  lookup: beeuni:nope\n"),
			findings: e("3", "`lookup: beeuni:nope`: `beeuni:nope` names no Beeuni tool (web_search, image_search, scrape_webpage, memory, show): point `lookup` at a repo-relative .ts or .js module (e.g. `tools/lookup.ts`)")},
		{name: "name with capitals", files: m("  Lookup: tools/x.ts\n"),
			findings: e("3", "`Lookup` is not a valid tool name: use snake_case, a lowercase letter then lowercase letters, digits or `_`, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)")},
		{name: "name with a dash", files: m("  look-up: tools/x.ts\n"),
			findings: e("3", "`look-up` is not a valid tool name: use snake_case, a lowercase letter then lowercase letters, digits or `_`, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)")},
		{name: "name starting with a digit", files: m("  1x: tools/x.ts\n"),
			findings: e("3", "`1x` is not a valid tool name: use snake_case, a lowercase letter then lowercase letters, digits or `_`, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)")},
		{name: "name of 64 characters is fine", files: m("  a" + strings.Repeat("b", 63) + ": tools/x.ts\n")},
		{name: "name of 65 characters", files: m("  a" + strings.Repeat("b", 64) + ": tools/x.ts\n"),
			findings: e("3", "`a"+strings.Repeat("b", 64)+"` is not a valid tool name: use snake_case, a lowercase letter then lowercase letters, digits or `_`, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)")},
		{name: "harness name bash", files: m("  bash: tools/x.ts\n"),
			findings: e("3", "`bash` is a harness tool name: the harness provides `bash`; give this tool another name")},
		{name: "harness name apply_patch", files: m("  apply_patch: tools/x.ts\n"),
			findings: e("3", "`apply_patch` is a harness tool name: the harness provides `apply_patch`; give this tool another name")},
		{name: "harness name todoread", files: m("  todoread: tools/x.ts\n"),
			findings: e("3", "`todoread` is a harness tool name: the harness provides `todoread`; give this tool another name")},
		{name: "harness name pty_", files: m("  pty_spawn: tools/x.ts\n"),
			findings: e("3", "`pty_spawn` is a harness tool name (the terminal plugin's `pty_*` tools): give this tool another name")},
		{name: "absolute path", files: m("  lookup: /tools/x.ts\n"),
			findings: e("3", "`lookup: /tools/x.ts`: the path is an absolute path: write it relative to the repository root (e.g. `tools/lookup.ts`)")},
		{name: "windows drive path", files: m("  lookup: C:/tools/x.ts\n"),
			findings: e("3", "`lookup: C:/tools/x.ts`: the path is an absolute path: write it relative to the repository root (e.g. `tools/lookup.ts`)")},
		{name: "backslash", files: m("  lookup: tools\\x.ts\n"),
			findings: e("3", "`lookup: tools\\x.ts`: the path uses a backslash: write the path with forward slashes, from the repository root (e.g. `tools/lookup.ts`)")},
		{name: "dot dot", files: m("  lookup: tools/../../x.ts\n"),
			findings: e("3", "`lookup: tools/../../x.ts`: the path leaves the repository (`..`): write a path inside the repository, from its root (e.g. `tools/lookup.ts`)")},
		{name: "wrong extension", files: m("  lookup: tools/x.py\n"),
			findings: e("3", "`lookup: tools/x.py`: the path must end in .ts, .js, .mts, .mjs, .cts or .cjs: point it at the module file (e.g. `tools/lookup.ts`)")},
		{name: "empty string", files: m("  lookup: \"\"\n"),
			findings: e("3", "`lookup: `: the path is empty: write a path from the repository root (e.g. `tools/lookup.ts`)")},
		{name: "missing file", files: m("  lookup: tools/nope.ts\n"),
			findings: e("3", "`lookup: tools/nope.ts`: tools/nope.ts does not exist: create the module or fix the path")},
		{name: "folder", files: m("  lookup: tools/dir.ts\n"),
			findings: e("3", "`lookup: tools/dir.ts`: tools/dir.ts is a folder: point at the module file")},
		{name: "number value", files: m("  lookup: 3\n"),
			findings: e("3", "`lookup` must map to a repo-relative module path (e.g. `tools/lookup.ts`); found `3`")},
		{name: "list value", files: m("  lookup: [tools/x.ts]\n"),
			findings: e("3", "`lookup` must map to a repo-relative module path (e.g. `tools/lookup.ts`); found a list")},
		{name: "no value", files: m("  lookup:\n"),
			findings: e("3", "`lookup` has no module: write `lookup: tools/lookup.ts` with the repo-relative path of its module")},
		{name: "key is a list", files: m("  [a, b]: tools/x.ts\n"),
			findings: e("3", "a tool name must be a plain name such as `lookup_order`; found a list")},
		{name: "tools as a list", files: map[string]string{"beeuni.yaml": "tools:\n  - web_search\n  - memory\n"}, tools: []string{}, toolsKey: ptr(true),
			findings: []string{
				"beeuni.yaml:2: error: `tools:` must map each tool name to its source, one per line (`web_search: beeuni:web_search`, `lookup_order: tools/lookup_order.ts`), not a list",
			}},
		{name: "tools as a string", files: map[string]string{"beeuni.yaml": "tools: web_search\n"}, toolsKey: ptr(true),
			findings: []string{
				"beeuni.yaml:1: error: `tools:` must map each tool name to its source, one per line (`web_search: beeuni:web_search`); found `web_search`",
			}},
		{name: "declared twice in one file", files: m("  lookup: tools/x.ts\n  lookup: tools/x.ts\n"), tools: []string{"show beeuni beeuni:show", "lookup project tools/x.ts"},
			findings: e("4", "`lookup` is declared twice in beeuni.yaml (lines 3 and 4): keep one")},
		{name: "tools key twice", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\nagents: {}\ntools:\n  memory: beeuni:memory\n"},
			tools: []string{"show beeuni beeuni:show"}, findings: e("4", "`tools:` appears twice in beeuni.yaml (lines 1 and 4): merge them into one")},
		{name: "declared in two files", files: map[string]string{"beeuni.yaml": "imports: [b.yaml]\ntools:\n  show: beeuni:show\n", "b.yaml": "\ntools:\n  show: beeuni:show\n"},
			tools: []string{"show beeuni beeuni:show"}, findings: []string{"b.yaml:3: error: `show` is declared in two files, beeuni.yaml:3 and b.yaml:3: keep one"}},
		{name: "alias value", files: m("  lookup: &p tools/x.ts\n  other: *p\n"), tools: []string{"show beeuni beeuni:show", "lookup project tools/x.ts", "other project tools/x.ts"}},
	})
}
