package main

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func TestToolsLsAgent(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"beeuni.yaml": `tools:
  show: beeuni:show
  memory: beeuni:memory
  lookup: tools/lookup.ts
agents:
  lead:
    tools: [task, read, show, lookup]
  worker:
    tools: [bash, edit, show, memory]
`,
		"tools/lookup.ts": "export default {}\n",
	})
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"default runtime: bash brings pty_*, edit brings write and apply_patch", []string{"--agent", "worker"}, 0,
			"NAME         KIND     SOURCE\n" +
				"bash         harness  harness\n" +
				"write        harness  harness\n" +
				"edit         harness  harness\n" +
				"apply_patch  harness  harness\n" +
				"pty_*        harness  harness (terminal plugin)\n" +
				"memory       beeuni   beeuni:memory\n" +
				"show         beeuni   beeuni:show\n" +
				"\nRemoved Beeuni tools: web_search, image_search, scrape_webpage\n" +
				"Add `<name>: beeuni:<name>` under `tools:` to get one back.\n", ""},
		{"experimental runtime: separate permissions", []string{"--agent", "worker", "--harness", "experimental"}, 0,
			"NAME    KIND     SOURCE\n" +
				"bash    harness  harness\n" +
				"edit    harness  harness\n" +
				"memory  beeuni   beeuni:memory\n" +
				"show    beeuni   beeuni:show\n", ""},
		{"subagent on experimental: the intersection", []string{"--agent", "worker", "--parent-agent", "lead", "--harness", "experimental"}, 0,
			"NAME  KIND    SOURCE\n" +
				"show  beeuni  beeuni:show\n", ""},
		{"subagent on default: its own list", []string{"--agent", "worker", "--parent-agent", "lead"}, 0, "pty_*", ""},
		{"an undeclared agent sees every tool, and is told so", []string{"--agent", "ghost", "--harness", "experimental"}, 0,
			"todoread     harness  harness\nmemory       beeuni   beeuni:memory\nshow         beeuni   beeuni:show\nlookup       project  tools/lookup.ts\n",
			"agent ghost is not declared under agents: in beeuni.yaml, so it sees every tool"},
		{"--parent-agent alone is bad usage", []string{"--parent-agent", "lead"}, 2, "", "--parent-agent needs --agent"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, append([]string{"tools", "ls", "--dir", dir}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stdout, tc.stdout) || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr: %q\nwant exit %d, stdout containing:\n%s\nstderr containing %q", r.code, r.stdout, r.stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
	r := runIn(t, "tools", "ls", "--dir", dir, "--json", "--agent", "worker", "--parent-agent", "lead", "--harness", "experimental")
	var out lsJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 0 {
		t.Fatalf("--json: exit %d, %v: %s%s", r.code, err, r.stdout, r.stderr)
	}
	if out.Agent != "worker" || out.ParentAgent != "lead" || out.Harness != "experimental" || len(out.Tools) != 1 || out.Tools[0] != (lsJSONTool{Name: "show", Kind: "beeuni", Source: "beeuni:show"}) ||
		!slices.Equal(out.Removed, []string{"web_search", "image_search", "scrape_webpage"}) {
		t.Fatalf("--json = %+v", out)
	}
}
