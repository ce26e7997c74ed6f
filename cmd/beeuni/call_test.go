package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeProject writes files into a new temp project folder.
func writeProject(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

func TestToolsCall(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"beeuni.yaml": `tools:
  show: beeuni:show
  echo: tools/echo.ts
  boom: tools/boom.ts
  broken: tools/broken.ts
  order: tools/order.ts
agents:
  quiet:
    tools: [show]
  lead:
    tools: [task, show]
  worker:
    tools: [echo, show]
`,
		"tools/echo.ts":   "export default { description: 'Echo.', parameters: { type: 'object' }, execute: (args: any, ctx: any) => ({ args, agent: ctx.agent, session: ctx.sessionId }) }\n",
		"tools/boom.ts":   "export default { description: 'Throws.', parameters: { type: 'object' }, execute() { throw new Error('boom: pass a smaller number') } }\n",
		"tools/broken.ts": "export default { description: 'Broken.', parameters: { type: 'object' }, execute() { return 1 }\n",
		"tools/order.ts": "export default { description: 'Order.', parameters: { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } }, required: ['id'] }, " +
			"parseArgs: (a: any) => a.n === 'bad' ? [] : undefined, execute: (a: any) => JSON.stringify(a) }\n",
	})
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"object output as indented JSON", []string{"echo", "--args", `{"n": 1}`, "--session", "s1"}, 0,
			"{\n  \"args\": {\n    \"n\": 1\n  },\n  \"agent\": \"beeuni\",\n  \"session\": \"s1\"\n}\n", ""},
		{"thrown error exits 1 with its message", []string{"boom"}, 1, "", "boom: pass a smaller number"},
		{"unknown tool", []string{"nope"}, 1, "", "beeuni: no tool named nope is loaded\n"},
		{"removed tool, experimental runtime: the reference's words", []string{"web_search", "--harness", "experimental"}, 1, "", "beeuni: Tool web_search not found\n"},
		{"unknown tool, experimental runtime", []string{"nope", "--harness", "experimental"}, 1, "", "beeuni: Tool nope not found\n"},
		{"subagent, experimental runtime: both lists must allow", []string{"echo", "--agent", "worker", "--parent-agent", "lead", "--harness", "experimental"}, 1, "",
			"tool echo is hidden from agent worker, a subagent of lead: on the experimental runtime"},
		{"subagent, default runtime: its own list", []string{"echo", "--agent", "worker", "--parent-agent", "lead", "--args", `{"a":1}`}, 0, "\"a\": 1", ""},
		{"subagent hidden by its own list", []string{"boom", "--agent", "worker", "--parent-agent", "beeuni"}, 1, "", "tool boom is hidden from agent worker: add it to agents.worker.tools"},
		{"hidden from the agent", []string{"echo", "--agent", "quiet"}, 1, "", "tool echo is hidden from agent quiet"},
		{"a module that does not load", []string{"broken"}, 1, "", "beeuni: no tool named broken is loaded\ntool broken (tools/broken.ts) did not load: tools/broken.ts:2:1: Expected \"}\" but found end of file"},
		{"a module that does not load, experimental runtime", []string{"broken", "--harness", "experimental"}, 1, "", "beeuni: Tool broken not found\ntool broken (tools/broken.ts) did not load: "},
		{"bad args", []string{"echo", "--args", "[]"}, 2, "", "--args must be a JSON object"},
		{"off by default: the tool gets the arguments as sent", []string{"order", "--args", `{"n":null}`}, 0, `{"n":null}`, ""},
		{"enforce: the message on stderr, exit 1", []string{"order", "--args", `{"n":null}`, "--validate-args", "enforce"}, 1, "",
			"invalid arguments for tool order: 1 problem; fix them and call again.\n- at (arguments): missing property 'id'\norder takes: {\"id\": string (required), \"n\": integer}\n"},
		{"warn: the record, and the tool runs", []string{"order", "--args", `{"n":"x"}`, "--validate-args", "warn"}, 0, `{"n":"x"}`, "[tools] arguments did not match the schema"},
		{"duplicate keys in every mode", []string{"order", "--args", `{"id":"a","id":"b"}`}, 1, "", `key "id" appears more than once`},
		{"parseArgs in every mode", []string{"order", "--args", `{"id":"a","n":"bad"}`}, 1, "", "parseArgs returned array, not an object"},
		{"unknown mode", []string{"order", "--validate-args", "strict"}, 2, "", `--validate-args: unknown mode "strict": use off, warn or enforce`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, append([]string{"tools", "call", "--dir", dir}, tc.args...)...)
			if r.code != tc.code || !strings.Contains(r.stdout, tc.stdout) || !strings.Contains(r.stderr, tc.stderr) {
				t.Fatalf("exit %d, stdout %q, stderr %q; want exit %d, stdout containing %q, stderr containing %q",
					r.code, r.stdout, r.stderr, tc.code, tc.stdout, tc.stderr)
			}
		})
	}
}

func TestValidateLoad(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"beeuni.yaml":  "tools:\n  show: beeuni:show\n  ok: tools/ok.ts\n  bad: tools/bad.ts\n",
		"tools/ok.ts":  "export default { description: 'Fine.', parameters: { type: 'object' }, execute: () => 'ok' }\n",
		"tools/bad.ts": "import { z } from 'zod'\nexport default { description: 'Needs zod.', parameters: z.object({}), execute: () => 'x' }\n",
	})
	r := runIn(t, "validate", "--dir", dir)
	if r.code != 0 {
		t.Fatalf("validate without --load: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runIn(t, "validate", "--load", "--dir", dir)
	want := "tools/bad.ts: error: tool bad does not load: Cannot find package 'zod'\n1 error\n"
	if r.code != 1 || r.stdout != want {
		t.Fatalf("validate --load: exit %d, stdout %q; want 1, %q", r.code, r.stdout, want)
	}
}
