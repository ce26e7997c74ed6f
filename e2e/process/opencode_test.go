package process

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// opencodeProject is the test's project: hosted tools, an agent that sees
// two tools, the project's own opencode configuration, and a legacy copy of
// the Beeuni tool show in harnesses/opencode/tools/.
func opencodeProject() map[string]string {
	return map[string]string{
		"beeuni.yaml": opencodeManifest(""),
		"tools/greet.ts": `export default {
  description: 'Greet someone by name.',
  parameters: { type: 'object', properties: { name: { type: 'string', description: 'Who to greet' } }, required: ['name'], additionalProperties: false },
  async execute(args: { name: string }, context: { sessionId: string; agent: string }) {
    return ` + "`Hello, ${args.name} (session ${context.sessionId}, agent ${context.agent})`" + `
  },
}
`,
		"tools/fail.ts": `export default {
  description: 'Always fails.',
  parameters: { type: 'object', properties: {} },
  execute() { throw new Error('fail: this tool always throws') },
}
`,
		// slow answers once its call is cancelled, and leaves the reason in
		// a file named after the session, for the test to see the abort.
		"tools/slow.ts": `import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
export const timeout = 600000
export default {
  description: 'Answers once its call is cancelled.',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { sessionId: string; signal: AbortSignal }) {
    await new Promise((resolve) => context.signal.addEventListener('abort', resolve))
    writeFileSync(join(tmpdir(), 'beeuni-slow-' + context.sessionId), String(context.signal.reason?.message))
    return 'cancelled'
  },
}
`,
		"harnesses/opencode/tools/show.ts": `export default {
  description: 'The project copy of show, from before hosted tools.',
  args: {},
  async execute() { return 'legacy show' },
}
`,
		// The $schema line is there because opencode adds it otherwise.
		"opencode.json": `{"$schema": "https://opencode.ai/config.json", "agent": {"researcher": {"description": "Looks things up.", "mode": "primary",
  "permission": {"read": {"*.secret": "deny"}}}}}
`,
	}
}

// pluginCalls imports the generated plugin and calls its tools as opencode
// does: the default export gives the hooks, and each tool's execute gets the
// arguments and a ToolContext (sessionID, agent, abort). It prints one JSON
// line: what each call returned or threw, or why the plugin did not load.
const pluginCalls = `
const [plugin, calls] = [process.argv[2], JSON.parse(process.argv[3])]
let hooks
try {
  hooks = await (await import(plugin)).default({})
} catch (err) {
  console.log(JSON.stringify({ load: err.message }))
  process.exit(0)
}
const results = []
for (const c of calls) {
  const ac = new AbortController()
  const context = { sessionID: c.session, messageID: 'msg_1', agent: c.agent, directory: process.cwd(),
    worktree: process.cwd(), abort: ac.signal, metadata() {}, async ask() {} }
  if (c.abortAfterMs) setTimeout(() => ac.abort(), c.abortAfterMs)
  try {
    results.push({ output: await hooks.tool[c.tool].execute(c.args ?? {}, context) })
  } catch (err) {
    results.push({ thrown: err.message, name: err.name })
  }
}
console.log(JSON.stringify({ results }))
`

// opencodeManifest is the project's beeuni.yaml with more tools: lines.
func opencodeManifest(more string) string {
	return `tools:
  show: beeuni:show
  greet: tools/greet.ts
  fail: tools/fail.ts
  slow: tools/slow.ts
` + more + `agents:
  researcher:
    tools: [read, greet, fail]
`
}

// ocAgent is one agent of opencode's GET /agent.
type ocAgent struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Permission  []struct {
		Permission, Pattern, Action string
	} `json:"permission"`
}

type pluginCall struct {
	Tool         string         `json:"tool"`
	Agent        string         `json:"agent"`
	Session      string         `json:"session"`
	Args         map[string]any `json:"args,omitempty"`
	AbortAfterMs int            `json:"abortAfterMs,omitempty"`
}

type pluginResult struct {
	Output string `json:"output"`
	Thrown string `json:"thrown"`
	Name   string `json:"name"`
}

// callPlugin runs pluginCalls with node under env.
func callPlugin(t *testing.T, plugin string, env []string, calls ...pluginCall) (results []pluginResult, loadErr string) {
	t.Helper()
	script := filepath.Join(t.TempDir(), "calls.mjs")
	if err := os.WriteFile(script, []byte(pluginCalls), 0o644); err != nil {
		t.Fatal(err)
	}
	arg, _ := json.Marshal(calls)
	ctx, cancel := context.WithTimeout(context.Background(), opencodeTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", script, plugin, string(arg))
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node %s: %v\n%s", script, err, out)
	}
	var r struct {
		Load    string         `json:"load"`
		Results []pluginResult `json:"results"`
	}
	if err := json.Unmarshal(out, &r); err != nil {
		t.Fatalf("node %s printed %q: %v", script, out, err)
	}
	return r.Results, r.Load
}

// TestOpencodePlugin runs `beeuni up --harness default` and the real
// opencode on one project: opencode lists the hosted tools with beeuni's
// schemas, a call through the plugin reaches the executor, an agent is not
// offered the tools beeuni.yaml hides from it, and a new opencode instance
// lists a tool a merge added.
func TestOpencodePlugin(t *testing.T) {
	needProcesses(t)
	kit := installOpencode(t)
	start := time.Now()
	_, gitErr := exec.LookPath("git")

	repo := newRepo(t, "shop")
	dir := repo.dir
	repo.commit("A shop", opencodeProject())
	listen := freeAddr(t)
	executorURL := "http://" + listen
	up := startProc(t, "beeuni up", dir, nil, "up", "--repo", dir, "--harness", "default", "--nats-port", "-1",
		"--listen", listen, "--data", filepath.Join(t.TempDir(), "data"))
	waitBanner(t, up)
	plugin := filepath.Join(dir, ".opencode", "plugins", "beeuni.js")
	src, err := os.ReadFile(plugin)
	if err != nil {
		t.Fatalf("beeuni up on the default harness wrote no plugin: %v", err)
	}
	if !strings.HasPrefix(string(src), "// Code generated by beeuni; DO NOT EDIT.") {
		t.Fatalf("the plugin is not marked as generated:\n%.300s", src)
	}
	if gitErr == nil {
		if st := gitStatus(t, dir); st != "" {
			t.Fatalf("the plugin shows in git status:\n%s", st)
		}
	}

	// beeuni's view of the tools, to compare opencode's with.
	var hosted struct {
		Tools []struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"tools"`
	}
	if _, err := getJSON(executorURL+"/beeuni/tools", &hosted); err != nil {
		t.Fatal(err)
	}

	model := startFakeModel(t)
	kit.providePlugin(t, filepath.Join(dir, ".opencode"))
	kit.providePlugin(t, filepath.Join(dir, "harnesses", "opencode"))
	ocEnv := []string{"BEEUNI_EXECUTOR_URL=" + executorURL, "OPENCODE_CONFIG_DIR=" + filepath.Join(dir, "harnesses", "opencode")}
	t.Logf("%s: beeuni up serves and wrote the plugin", time.Since(start).Round(time.Millisecond))
	oc := kit.start(t, "opencode serve", dir, t.TempDir(), model, ocEnv...)
	t.Logf("%s: opencode serves", time.Since(start).Round(time.Millisecond))

	// Listed, with beeuni's schemas exactly; the legacy folder's show wins
	// over the hosted show, which the plugin leaves out.
	ids, err := oc.ids()
	if err != nil {
		t.Fatal(err)
	}
	schemas, err := oc.schemas()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range hosted.Tools {
		if tool.Name == "show" {
			t.Fatalf("the executor hosts show, which harnesses/opencode/tools/show.ts overrides on the default runtime")
		}
		if !jsonEqual(schemas[tool.Name], tool.Parameters) {
			t.Errorf("opencode's schema of %s = %s, want beeuni's %s", tool.Name, schemas[tool.Name], tool.Parameters)
		}
	}
	for _, want := range []string{"greet", "fail", "slow", "show", "read", "bash"} {
		if n := count(ids, want); n != 1 {
			t.Errorf("opencode lists %s %d times, want once: %v", want, n, ids)
		}
	}
	var legacyShow struct {
		Properties map[string]any `json:"properties"`
	}
	if err := json.Unmarshal(schemas["show"], &legacyShow); err != nil || len(legacyShow.Properties) != 0 {
		t.Errorf("opencode's show has the schema %s, want the legacy module's (no arguments)", schemas["show"])
	}

	// Visibility: the agent's model is not offered what beeuni.yaml hides,
	// and the project's own rules for the agent stay.
	var agents []ocAgent
	if err := oc.get("/agent", &agents); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(agents, func(a ocAgent) bool { return a.Name == "researcher" })
	if i < 0 || agents[i].Description != "Looks things up." {
		t.Fatalf("opencode's agents lost the project's researcher: %+v", agents)
	}
	rules := fmt.Sprint(agents[i].Permission)
	if !strings.Contains(rules, "{read *.secret deny}") {
		t.Errorf("the researcher lost the project's own rule for read: %s", rules)
	}
	// One turn: the model calls greet and fail at once.
	_, calls := oc.prompt(t, "researcher", "researcher: call greet fail")
	offered := model.offered(t, "researcher: call greet fail")
	for _, hidden := range []string{"slow", "show", "bash", "edit", "write", "glob", "webfetch"} {
		if slices.Contains(offered, hidden) {
			t.Errorf("the researcher's model was offered %s, which beeuni.yaml hides from it: %v", hidden, offered)
		}
	}
	for _, visible := range []string{"greet", "fail", "read"} {
		if !slices.Contains(offered, visible) {
			t.Errorf("the researcher's model was not offered %s: %v", visible, offered)
		}
	}
	// The executor's answer is what the model reads; a tool that throws
	// fails the call in opencode with its message.
	if len(calls) != 2 || calls[0].Tool != "greet" || calls[0].State.Status != "completed" ||
		!strings.HasPrefix(calls[0].State.Output, "Hello, Ada (session ses_") || !strings.HasSuffix(calls[0].State.Output, ", agent researcher)") ||
		calls[1].Tool != "fail" || calls[1].State.Status != "error" || !strings.Contains(calls[1].State.Error, "fail: this tool always throws") {
		t.Errorf("the researcher's calls through opencode = %+v, want greet's greeting with opencode's session and agent, and fail's error", calls)
	}

	t.Logf("%s: a turn of the researcher ran", time.Since(start).Round(time.Millisecond))

	// The plugin called as opencode calls it, from Node.
	env := []string{"BEEUNI_EXECUTOR_URL=" + executorURL}
	slowSession := fmt.Sprintf("ses_slow_%d", time.Now().UnixNano())
	results, loadErr := callPlugin(t, plugin, env,
		pluginCall{Tool: "greet", Agent: "build", Session: "ses_node", Args: map[string]any{"name": "Bo"}},
		pluginCall{Tool: "fail", Agent: "build", Session: "ses_node"},
		pluginCall{Tool: "slow", Agent: "researcher", Session: "ses_node"},
		pluginCall{Tool: "slow", Agent: "build", Session: slowSession, AbortAfterMs: 300})
	if loadErr != "" {
		t.Fatalf("the plugin did not load: %s", loadErr)
	}
	forbidden, err := callForbidden(executorURL, "slow", "researcher")
	if err != nil || forbidden.Error == "" {
		t.Fatalf("a direct call of slow as researcher: %+v %v, want the executor's 403", forbidden, err)
	}
	want := []pluginResult{
		{Output: "Hello, Bo (session ses_node, agent build)"},
		{Thrown: "fail: this tool always throws", Name: "Error"},
		{Thrown: forbidden.Error, Name: "Error"},
		{Thrown: "This operation was aborted", Name: "AbortError"},
	}
	if !reflect.DeepEqual(results, want) {
		t.Errorf("the plugin's calls answered\n%+v\nwant\n%+v", results, want)
	}
	aborted := filepath.Join(os.TempDir(), "beeuni-slow-"+slowSession)
	t.Cleanup(func() { os.Remove(aborted) })
	waitFor(t, startTimeout, "opencode's abort to reach the tool's context.signal", func() error {
		b, err := os.ReadFile(aborted)
		if err != nil {
			return err
		}
		if !strings.Contains(string(b), "the caller went away") {
			return fmt.Errorf("%w: slow's signal aborted with %q", errFatal, b)
		}
		return nil
	})
	if _, loadErr := callPlugin(t, plugin, []string{"BEEUNI_EXECUTOR_URL=", "BEEUNI_EXECUTOR_TOKEN="}); !strings.Contains(loadErr, "BEEUNI_EXECUTOR_URL") ||
		!strings.Contains(loadErr, "BEEUNI_EXECUTOR_TOKEN") {
		t.Errorf("without the executor's variables the plugin failed to load with %q, want a message naming both", loadErr)
	}

	// A merge that adds a tool: the plugin is rewritten and a new opencode
	// instance lists the tool.
	head := repo.commit("Add a tool", map[string]string{
		"beeuni.yaml":    opencodeManifest("  added: tools/added.ts\n"),
		"tools/added.ts": `export default { description: 'Added by a merge.', parameters: { type: 'object', properties: {} }, execute() { return 'added' } }`,
	})
	resp, err := httpc.Post(executorURL+"/hooks/merge", "application/json", strings.NewReader(`{"commit":"`+head+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, startTimeout, "the plugin to be rewritten with the added tool", func() error {
		src, err := os.ReadFile(plugin)
		if err != nil {
			return err
		}
		if !strings.Contains(string(src), `"name": "added"`) {
			return fmt.Errorf("the plugin does not register added yet")
		}
		return nil
	})
	t.Logf("%s: the plugin has the merged tool", time.Since(start).Round(time.Millisecond))
	oc2 := kit.start(t, "opencode serve (after the merge)", dir, t.TempDir(), model, ocEnv...)
	if ids, err := oc2.ids(); err != nil || count(ids, "added") != 1 {
		t.Errorf("a new opencode instance after the merge lists %v (%v), want added once", ids, err)
	}
	t.Logf("opencode test took %s", time.Since(start).Round(time.Millisecond))
	if gitErr == nil {
		if st := gitStatus(t, dir); st != "" {
			t.Errorf("after opencode ran, git status shows:\n%s", st)
		}
	}
}

// callForbidden posts {} to tool as agent and decodes the 403 it wants.
func callForbidden(base, tool, agent string) (callResp, error) {
	var r callResp
	req, _ := http.NewRequest(http.MethodPost, base+"/beeuni/tools/"+tool, strings.NewReader("{}"))
	req.Header.Set("X-Beeuni-Agent", agent)
	resp, err := httpc.Do(req)
	if err != nil {
		return r, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		return r, fmt.Errorf("%s answered %s, want 403", tool, resp.Status)
	}
	return r, json.NewDecoder(resp.Body).Decode(&r)
}

func count(list []string, s string) int {
	n := 0
	for _, v := range list {
		if v == s {
			n++
		}
	}
	return n
}

// jsonEqual compares two JSON documents as values.
func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}
