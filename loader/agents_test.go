package loader

import (
	"slices"
	"testing"
)

const visManifest = `tools:
  web_search: beeuni:web_search
  show: beeuni:show
  lookup: tools/lookup.ts
agents:
  beeuni:
    tools: all
    secrets: all
  omitted: {}
  nulled:
  greeter:
    tools: none
  researcher:
    tools: [read, grep, web_search, lookup]
  star:
    tools: [read, "*"]
  lister:
    tools: [bash, edit]
  ptylister:
    tools: [pty_spawn]
  support:
    tools:
      exclude: [bash, write, lookup]
  emptyexclude:
    tools: {exclude: []}
  mapper:
    tools: {bash: false, apply_patch: false, show: true}
  scoped:
    secrets: [WEATHER_API_KEY, ORDERS]
`

func TestVisible(t *testing.T) {
	fsys := mapFS(t, map[string]string{"beeuni.yaml": visManifest, "tools/lookup.ts": ""})
	def, exp := Read(fsys, HarnessDefault), Read(fsys, HarnessExperimental)
	for _, p := range []*Project{def, exp} {
		if len(p.Findings) != 0 {
			t.Fatalf("%s: findings %v", p.Harness(), findingStrings(p))
		}
	}
	cases := []struct {
		agent, tool string
		def, exp    bool
	}{
		{"undeclared", "bash", true, true},
		{"undeclared", "lookup", true, true},
		{"beeuni", "bash", true, true},
		{"omitted", "write", true, true},
		{"nulled", "show", true, true},
		{"greeter", "read", false, false},
		{"greeter", "show", false, false},
		{"researcher", "read", true, true},
		{"researcher", "lookup", true, true},
		{"researcher", "bash", false, false},
		{"researcher", "show", false, false},
		{"star", "bash", true, true},
		{"star", "show", true, true},
		// default runtime: bash covers pty_*, write/edit/apply_patch are one permission
		{"lister", "bash", true, true},
		{"lister", "pty_spawn", true, false},
		{"lister", "pty_read", true, false},
		{"lister", "edit", true, true},
		{"lister", "write", true, false},
		{"lister", "apply_patch", true, false},
		{"lister", "read", false, false},
		{"ptylister", "pty_spawn", true, true},
		{"ptylister", "bash", true, false},
		{"ptylister", "pty_kill", true, false},
		{"support", "bash", false, false},
		{"support", "pty_spawn", false, true},
		{"support", "write", false, false},
		{"support", "edit", false, true},
		{"support", "apply_patch", false, true},
		{"support", "lookup", false, false},
		{"support", "read", true, true},
		{"support", "web_search", true, true},
		{"emptyexclude", "bash", true, true},
		{"mapper", "bash", false, false},
		{"mapper", "pty_x", false, true},
		{"mapper", "apply_patch", false, false},
		{"mapper", "write", false, true},
		{"mapper", "edit", false, true},
		{"mapper", "show", true, true},
		{"mapper", "read", true, true},
	}
	for _, tc := range cases {
		if got := def.Visible(tc.agent, tc.tool); got != tc.def {
			t.Errorf("default: Visible(%s, %s) = %v, want %v", tc.agent, tc.tool, got, tc.def)
		}
		if got := exp.Visible(tc.agent, tc.tool); got != tc.exp {
			t.Errorf("experimental: Visible(%s, %s) = %v, want %v", tc.agent, tc.tool, got, tc.exp)
		}
	}
}

func TestSubagentVisible(t *testing.T) {
	fsys := mapFS(t, map[string]string{"beeuni.yaml": visManifest, "tools/lookup.ts": ""})
	def, exp := Read(fsys, HarnessDefault), Read(fsys, HarnessExperimental)
	cases := []struct {
		parent, sub, tool string
		def, exp          bool
	}{
		// the sub's own list allows, the parent's does not: default runtime lets it through
		{"researcher", "support", "web_search", true, true},
		{"researcher", "support", "write", false, false},
		{"researcher", "support", "glob", true, false},
		{"greeter", "beeuni", "read", true, false},
		{"support", "researcher", "lookup", true, false},
		{"support", "researcher", "read", true, true},
		{"beeuni", "greeter", "read", false, false},
		{"undeclared", "lister", "pty_x", true, false},
		{"lister", "undeclared", "apply_patch", true, false},
		{"lister", "undeclared", "edit", true, true},
		{"lister", "undeclared", "webfetch", true, false},
	}
	for _, tc := range cases {
		if got := def.SubagentVisible(tc.parent, tc.sub, tc.tool); got != tc.def {
			t.Errorf("default: SubagentVisible(%s, %s, %s) = %v, want %v", tc.parent, tc.sub, tc.tool, got, tc.def)
		}
		if got := exp.SubagentVisible(tc.parent, tc.sub, tc.tool); got != tc.exp {
			t.Errorf("experimental: SubagentVisible(%s, %s, %s) = %v, want %v", tc.parent, tc.sub, tc.tool, got, tc.exp)
		}
	}
}

func TestSecrets(t *testing.T) {
	p := Read(mapFS(t, map[string]string{"beeuni.yaml": visManifest, "tools/lookup.ts": ""}), HarnessDefault)
	for _, tc := range []struct {
		agent string
		all   bool
		names []string
	}{
		{"beeuni", true, nil},
		{"scoped", false, []string{"WEATHER_API_KEY", "ORDERS"}},
		{"researcher", false, nil},
		{"undeclared", false, nil},
	} {
		all, names := p.Secrets(tc.agent)
		if all != tc.all || !slices.Equal(names, tc.names) {
			t.Errorf("Secrets(%s) = %v, %q; want %v, %q", tc.agent, all, names, tc.all, tc.names)
		}
	}
	if got := p.Agents(); !slices.Equal(got, []string{"beeuni", "emptyexclude", "greeter", "lister", "mapper", "nulled", "omitted", "ptylister", "researcher", "scoped", "star", "support"}) {
		t.Errorf("Agents() = %q", got)
	}
}

func TestAgentRules(t *testing.T) {
	head := "tools:\n  show: beeuni:show\nagents:\n"
	m := func(agents string) map[string]string { return map[string]string{"beeuni.yaml": head + agents} }
	w := func(line, msg string) string { return "beeuni.yaml:" + line + ": warning: " + msg }
	e := func(line, msg string) string { return "beeuni.yaml:" + line + ": error: " + msg }
	runReadCases(t, []readCase{
		{name: "unloaded Beeuni tool (reference message)", files: m("  r:\n    tools: [read, show, memory]\n"),
			findings: []string{w("5", "\"memory\" is a Beeuni tool this project does not load: add `memory: beeuni:memory` under the top-level `tools`, or remove it here.")}},
		{name: "unloaded Beeuni tool in exclude is fine", files: m("  r:\n    tools: {exclude: [memory]}\n")},
		{name: "no tools key: every Beeuni tool loads", files: map[string]string{"beeuni.yaml": "agents:\n  r:\n    tools: [memory]\n"}},
		{name: "unknown name in a list", files: m("  r:\n    tools:\n      - read\n      - web_serch\n"),
			findings: []string{w("7", "`web_serch` is not a harness, Beeuni or project tool: fix the name, or declare the tool under the top-level `tools`")}},
		{name: "unknown name in exclude", files: m("  r:\n    tools:\n      exclude: [bsh]\n"),
			findings: []string{w("6", "`bsh` is not a harness, Beeuni or project tool: a typo in an `exclude` list leaves the real tool on; fix the name")}},
		{name: "unknown name in the map form", files: m("  r:\n    tools: {bahs: false, raed: true}\n"),
			findings: []string{
				w("5", "`bahs` is not a harness, Beeuni or project tool: a typo here leaves the real tool on; fix the name"),
				w("5", "`raed` is not a harness, Beeuni or project tool: a typo here leaves the real tool on; fix the name"),
			}},
		{name: "pty names are harness names", files: m("  r:\n    tools: [pty_spawn, todowrite, question]\n")},
		{name: "unknown tools form", files: m("  r:\n    tools: some\n"),
			findings: []string{e("5", "agent `r`: `tools:` must be one of the forms of the tools table: use `all`, `none`, a list of tool names, `exclude: [...]`, or a map of tool names to false (`bash: false`); found `some`")}},
		{name: "exclude not a list", files: m("  r:\n    tools: {exclude: bash}\n"),
			findings: []string{e("5", "agent `r`: `exclude:` must be a list of tool names (`exclude: [bash, write]`); found `bash`")}},
		{name: "exclude mixed with the map form", files: m("  r:\n    tools: {exclude: [bash], read: false}\n"),
			findings: []string{e("5", "agent `r`: `tools:` has `exclude:` and other keys: use either `exclude: [...]` or the map form (`bash: false`), not both")}},
		{name: "map value not a bool", files: m("  r:\n    tools:\n      bash: no way\n"),
			findings: []string{e("6", "agent `r`: `bash` must be true or false in the map form (`bash: false` removes the tool); found `no way`")}},
		{name: "list item not a name", files: m("  r:\n    tools: [read, [grep]]\n"),
			findings: []string{e("5", "each entry must be a tool name such as `web_search`; found a list")}},
		{name: "agent not a mapping", files: m("  r: all\n"),
			findings: []string{e("4", "agent `r` must be a mapping of its settings (`tools:`, `secrets:`, ...); found `all`")}},
		{name: "agents not a mapping", files: m("  - r\n"),
			findings: []string{e("4", "`agents:` must map each agent name to its settings (`researcher: {tools: [read, web_search]}`); found a list")}},
		{name: "secrets bad name", files: m("  r:\n    secrets: [OK_1, not-ok]\n"),
			findings: []string{e("5", "agent `r`: `not-ok` is not a secret name: use the variable name the tool reads from `context.env` (letters, digits and `_`, e.g. `WEATHER_API_KEY`)")}},
		{name: "secrets scalar", files: m("  r:\n    secrets: WEATHER\n"),
			findings: []string{e("5", "agent `r`: `secrets:` must be `all` or a list of secret names (`secrets: [WEATHER_API_KEY]`); found `WEATHER`")}},
		{name: "agent declared in two files", files: map[string]string{"beeuni.yaml": "imports: [a.yaml]\nagents:\n  r: {}\n", "a.yaml": "agents:\n  r: {}\n"},
			findings: []string{"a.yaml:2: error: agent `r` is declared in two files, beeuni.yaml:3 and a.yaml:2: keep one"}},
		{name: "agent declared twice in one file", files: m("  r: {}\n  r: {}\n"),
			findings: []string{e("5", "agent `r` is declared twice in beeuni.yaml (lines 4 and 5): keep one")}},
	})
	// A malformed tools value fails closed.
	p := Read(mapFS(t, m("  r:\n    tools: some\n")), HarnessDefault)
	if p.Visible("r", "read") {
		t.Errorf("agent with malformed tools sees read")
	}
}

func TestLegacyFolder(t *testing.T) {
	files := map[string]string{
		"beeuni.yaml":                            "tools:\n  web_search: beeuni:web_search\n  memory: beeuni:memory\n  lookup: tools/lookup.ts\nagents:\n  r:\n    tools: [custom, show]\n",
		"tools/lookup.ts":                        "",
		"harnesses/opencode/tools/web_search.ts": "",
		"harnesses/opencode/tools/web_search.js": "",
		"harnesses/opencode/tools/show.ts":       "",
		"harnesses/opencode/tools/lookup.mjs":    "",
		"harnesses/opencode/tools/custom.ts":     "",
		"harnesses/opencode/tools/README.md":     "",
		"harnesses/opencode/tools/sub":           "<dir>",
	}
	copyWarn := func(name, ext string) string {
		return "harnesses/opencode/tools/" + name + ext + ":1: warning: a copy of the Beeuni tool `" + name + "`: delete it. The daemon hosts the Beeuni tools beeuni.yaml lists, on both harnesses (list `" + name + ": beeuni:" + name + "` under `tools:` to keep it); on the default runtime this copy still wins over the hosted tool"
	}
	runReadCases(t, []readCase{
		{name: "default runtime: the folder wins", files: files, harness: HarnessDefault,
			tools: []string{
				"web_search beeuni (overridden) harnesses/opencode/tools/web_search.ts",
				"memory beeuni beeuni:memory",
				"lookup project harnesses/opencode/tools/lookup.mjs",
			},
			findings: []string{copyWarn("show", ".ts"), copyWarn("web_search", ".ts")}},
		{name: "experimental runtime ignores it", files: files, harness: HarnessExperimental,
			tools: []string{
				"web_search beeuni beeuni:web_search",
				"memory beeuni beeuni:memory",
				"lookup project tools/lookup.ts",
			},
			findings: []string{
				"beeuni.yaml:7: warning: `custom` is not a harness, Beeuni or project tool: fix the name, or declare the tool under the top-level `tools`",
				"beeuni.yaml:7: warning: \"show\" is a Beeuni tool this project does not load: add `show: beeuni:show` under the top-level `tools`, or remove it here.",
				copyWarn("show", ".ts"), copyWarn("web_search", ".ts"),
			}},
	})
}
