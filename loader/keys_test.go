package loader

import "testing"

func TestUnknownKeyWarnings(t *testing.T) {
	warn := func(at, key, want string) string {
		return at + ": warning: unknown key \"" + key + "\": did you mean \"" + want + "\"?"
	}
	runReadCases(t, []readCase{
		{name: "tool for tools hides nothing", files: map[string]string{"beeuni.yaml": "name: demo\n\ntool:\n  show: beeuni:show\n"},
			tools: allFive, toolsKey: ptr(false), findings: []string{warn("beeuni.yaml:3", "tool", "tools")}},
		{name: "agent, import, Tools, tols, toosl", files: map[string]string{"beeuni.yaml": "agent: {}\nimport: [a.yaml]\nTools: {}\ntols: {}\ntoosl: {}\n"},
			tools: allFive, findings: []string{
				warn("beeuni.yaml:1", "agent", "agents"),
				warn("beeuni.yaml:2", "import", "imports"),
				warn("beeuni.yaml:3", "Tools", "tools"),
				warn("beeuni.yaml:4", "tols", "tools"),
				warn("beeuni.yaml:5", "toosl", "tools"),
			}},
		{name: "keys far from every known key stay silent", files: map[string]string{"beeuni.yaml": "name: demo\nmodel: x\nversion: 2\nsecrets: [A]\nprompt: p\nt: 1\ntoolsets: {}\n"},
			tools: allFive},
		{name: "in an imported file", files: map[string]string{"beeuni.yaml": "imports: [more.yaml]\n", "more.yaml": "# tools of the team\ntool:\n  memory: beeuni:memory\n"},
			tools: allFive, findings: []string{warn("more.yaml:2", "tool", "tools")}},
		{name: "inside an agent", files: map[string]string{"beeuni.yaml": "agents:\n  x:\n    tool: [read]\n    secret: [API_KEY]\n    permission: {bash: deny}\n    model: gpt\n"},
			tools: allFive, findings: []string{
				warn("beeuni.yaml:3", "tool", "tools"),
				warn("beeuni.yaml:4", "secret", "secrets"),
			}},
		{name: "a typo is only a warning next to real keys", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\nagensts:\n  a: {tools: none}\n"},
			tools: []string{"show beeuni beeuni:show"}, findings: []string{warn("beeuni.yaml:3", "agensts", "agents")}},
	})
}

func TestEditDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"tools", "tools", 0}, {"tool", "tools", 1}, {"toosl", "tools", 1}, {"tols", "tools", 1},
		{"Tools", "tools", 1}, {"agnet", "agents", 2}, {"secret", "secrets", 1},
		{"model", "tools", 3}, {"exports", "imports", 2}, {"", "tools", 3}, {"toolsets", "tools", 3},
	}
	for _, c := range cases {
		if got := editDistance(c.a, c.b, 2); got != c.want {
			t.Errorf("editDistance(%q, %q, 2) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
