package executor

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestCallAnswers(t *testing.T) {
	e := start(t, Options{MaxBodyBytes: 1024})
	e.switchTo("v1", project("v1"))

	tests := []struct {
		name     string
		tool     string
		body     string
		headers  []string
		status   int
		output   string // for 200
		isError  bool
		errExact string   // for errors: the whole message
		errHas   []string // for errors: parts of the message
	}{
		{name: "answer", tool: "answer", status: 200, output: "v1"},
		{name: "empty body is {}", tool: "echo", status: 200, output: "{}"},
		{name: "whitespace body is {}", tool: "echo", body: " \n\t", status: 200, output: "{}"},
		{name: "object", tool: "echo", body: `{"a": 1}`, status: 200, output: "{\n  \"a\": 1\n}"},
		{name: "tool throws", tool: "boom", status: 200, output: "boom: set BOOM_OK to stop this", isError: true},
		{name: "not loaded", tool: "nope", status: 404, errExact: "no tool named nope is loaded"},
		{name: "not loaded, hidden too", tool: "nope", headers: []string{HeaderAgent, "greeter"}, status: 404, errExact: "no tool named nope is loaded"},
		{name: "hidden", tool: "answer", headers: []string{HeaderAgent, "greeter"}, status: 403, errHas: []string{"answer", "greeter", "agents.greeter.tools"}},
		{name: "hidden from a list", tool: "boom", headers: []string{HeaderAgent, "researcher"}, status: 403, errHas: []string{"boom", "researcher"}},
		{name: "listed for agent", tool: "answer", headers: []string{HeaderAgent, "researcher"}, status: 200, output: "v1"},
		{name: "undeclared agent sees all", tool: "answer", headers: []string{HeaderAgent, "ghost"}, status: 200, output: "v1"},
		{name: "array", tool: "echo", body: `[1, 2]`, status: 400, errHas: []string{"array", "not an object"}},
		{name: "string", tool: "echo", body: `"x"`, status: 400, errHas: []string{"string", "not an object"}},
		{name: "number", tool: "echo", body: `-1`, status: 400, errHas: []string{"number", "not an object"}},
		{name: "null", tool: "echo", body: `null`, status: 400, errHas: []string{"null", "not an object"}},
		{name: "broken JSON", tool: "echo", body: `{"a":`, status: 400, errHas: []string{"not valid JSON"}},
		{name: "two values", tool: "echo", body: `{} {}`, status: 400, errHas: []string{"not valid JSON"}},
		{name: "too large", tool: "echo", body: `{"a":"` + strings.Repeat("x", 2000) + `"}`, status: 413, errHas: []string{"1024-byte limit"}},
		{name: "long agent header", tool: "echo", headers: []string{HeaderAgent, strings.Repeat("a", 300)}, status: 400, errHas: []string{HeaderAgent}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := e.mustDo("POST", "/beeuni/tools/"+tc.tool, tc.body, tc.headers...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			m := r.json(t)
			if tc.status == 200 {
				if m["output"] != tc.output || m["is_error"] != tc.isError || m["release"] != "v1" {
					t.Fatalf("got %s, want output %q is_error %v release v1", r.body, tc.output, tc.isError)
				}
				if _, ok := m["spilled"]; ok {
					t.Fatalf("spilled present for a short output: %s", r.body)
				}
				return
			}
			msg, _ := m["error"].(string)
			if len(m) != 1 || msg == "" {
				t.Fatalf(`want {"error": "..."}, got %s`, r.body)
			}
			if tc.errExact != "" && msg != tc.errExact {
				t.Fatalf("error %q, want %q", msg, tc.errExact)
			}
			for _, part := range tc.errHas {
				if !strings.Contains(msg, part) {
					t.Fatalf("error %q does not name %q", msg, part)
				}
			}
		})
	}
}

func TestSpilledOutput(t *testing.T) {
	e := start(t, Options{})
	files := project("v1")
	files["beeuni.yaml"] = "tools:\n  big: tools/big.ts\n"
	files["tools/big.ts"] = `export default {
  description: 'Many lines.',
  parameters: { type: 'object', properties: {} },
  execute() { return Array.from({ length: 3000 }, (_, i) => 'line ' + i).join('\n') },
}
`
	e.switchTo("v1", files)
	r := e.mustDo("POST", "/beeuni/tools/big", "")
	var got struct {
		Spilled *struct {
			Path  string `json:"path"`
			Bytes int64  `json:"bytes"`
			Lines int    `json:"lines"`
		} `json:"spilled"`
	}
	if err := json.Unmarshal(r.body, &got); err != nil || r.status != 200 {
		t.Fatalf("%d %s (%v)", r.status, r.body, err)
	}
	if got.Spilled == nil || got.Spilled.Path == "" || got.Spilled.Lines < 2000 || got.Spilled.Bytes <= 0 {
		t.Fatalf("want a spill of the 3000 lines, got %s", r.body)
	}
}

func TestToken(t *testing.T) {
	const token = "s3cr3t-token"
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { writeJSON(w, 200, map[string]string{}) })
	e := start(t, Options{Token: token}, func(s *Server) {
		s.HandlePublic("POST /hooks/merge", ok)
		s.Handle("GET /extra", ok)
	})
	e.switchTo("v1", project("v1"))
	tests := []struct {
		method, path string
		auth         string
		status       int
	}{
		{"GET", "/healthz", "", 200},
		{"POST", "/hooks/merge", "", 200},
		{"GET", "/extra", "", 401},
		{"GET", "/extra", "Bearer " + token, 200},
		{"GET", "/no/such/route", "", 401},
		{"GET", "/readyz", "", 401},
		{"GET", "/metrics", "", 401},
		{"GET", "/beeuni/status", "Bearer wrong", 401},
		{"GET", "/beeuni/tools", "Basic " + token, 401},
		{"POST", "/beeuni/tools/answer", "", 401},
		{"POST", "/beeuni/tools/nope", "", 401}, // 401 before 404: no probing
		{"POST", "/beeuni/sessions/s1/turn", "Bearer " + token + "x", 401},
		{"POST", "/beeuni/sessions/s2/turn", "bearer " + token, 200}, // the scheme in any case (RFC 9110)
		{"GET", "/beeuni/status", "BEARER " + token, 200},
		{"POST", "/beeuni/tools/answer", "Bearer " + token, 200},
		{"GET", "/readyz", "Bearer " + token, 200},
		{"GET", "/metrics", "Bearer " + token, 200},
		{"POST", "/beeuni/sessions/s1/turn", "Bearer " + token, 200},
	}
	for _, tc := range tests {
		t.Run(tc.method+" "+tc.path+" "+tc.auth, func(t *testing.T) {
			var h []string
			if tc.auth != "" {
				h = []string{"Authorization", tc.auth}
			}
			r := e.mustDo(tc.method, tc.path, "", h...)
			if r.status != tc.status {
				t.Fatalf("status %d, want %d: %s", r.status, tc.status, r.body)
			}
			if tc.status == 401 {
				if msg, _ := r.json(t)["error"].(string); !strings.Contains(msg, "Authorization: Bearer") || !strings.Contains(msg, "BEEUNI_EXECUTOR_TOKEN") {
					t.Fatalf("401 body does not say what to send: %s", r.body)
				}
			}
		})
	}
}

func TestListPerAgent(t *testing.T) {
	e := start(t, Options{})
	files := project("v1")
	files["beeuni.yaml"] = strings.Replace(manifest, "tools:\n", "tools:\n  broken: tools/broken.ts\n", 1)
	files["tools/broken.ts"] = "export default { description: 'x', parameters: {type: 'object'}, execute() { return ( } }\n"
	e.switchTo("r7", files)

	tests := []struct {
		agent string
		tools []string
	}{
		{"", []string{"show", "answer", "echo", "boom", "env", "wait"}}, // default agent beeuni
		{"beeuni", []string{"show", "answer", "echo", "boom", "env", "wait"}},
		{"researcher", []string{"answer", "echo", "env"}},
		{"greeter", []string{}},
		{"ghost", []string{"show", "answer", "echo", "boom", "env", "wait"}},
	}
	for _, tc := range tests {
		t.Run("agent="+tc.agent, func(t *testing.T) {
			r := e.mustDo("GET", "/beeuni/tools?agent="+tc.agent, "")
			if r.status != 200 {
				t.Fatalf("%d %s", r.status, r.body)
			}
			var list ToolList
			if err := json.Unmarshal(r.body, &list); err != nil {
				t.Fatal(err)
			}
			wantAgent := tc.agent
			if wantAgent == "" {
				wantAgent = DefaultAgent
			}
			if list.Release != "r7" || list.Agent != wantAgent {
				t.Fatalf("release %q agent %q, want r7 %q", list.Release, list.Agent, wantAgent)
			}
			var names []string
			for _, tool := range list.Tools {
				names = append(names, tool.Name)
				wantKind, wantSource := "project", "tools/"+tool.Name+".ts"
				if tool.Name == "show" {
					wantKind, wantSource = "beeuni", "beeuni:show"
				}
				if tool.Kind != wantKind || tool.Source != wantSource || tool.Description == "" || !strings.Contains(string(tool.Parameters), `"object"`) {
					t.Fatalf("tool %+v: want kind %q source %q, a description and an object schema", tool, wantKind, wantSource)
				}
			}
			if !slices.Equal(names, tc.tools) && !(len(names) == 0 && len(tc.tools) == 0) {
				t.Fatalf("tools %v, want %v", names, tc.tools)
			}
			if len(list.Failed) != 1 || list.Failed[0].Name != "broken" || list.Failed[0].Source != "tools/broken.ts" || list.Failed[0].Reason == "" {
				t.Fatalf("failed %+v, want broken with its reason", list.Failed)
			}
		})
	}
}

func TestReadyz(t *testing.T) {
	e := start(t, Options{ID: "ex-1"})
	for _, path := range []string{"/readyz"} {
		if r := e.mustDo("GET", path, ""); r.status != 503 {
			t.Fatalf("%s before the first set: %d, want 503", path, r.status)
		}
	}
	if r := e.mustDo("POST", "/beeuni/tools/answer", ""); r.status != 503 || !strings.Contains(string(r.body), "no tool set is loaded yet") {
		t.Fatalf("call before the first set: %d %s", r.status, r.body)
	}
	if r := e.mustDo("POST", "/beeuni/sessions/a/turn", ""); r.status != 503 {
		t.Fatalf("turn before the first set: %d %s", r.status, r.body)
	}
	var st Status
	if err := json.Unmarshal(e.mustDo("GET", "/beeuni/status", "").body, &st); err != nil || st.State != "starting" || st.ID != "ex-1" {
		t.Fatalf("status before the first set: %+v (%v)", st, err)
	}
	if r := e.mustDo("GET", "/healthz", ""); r.status != 200 {
		t.Fatalf("healthz: %d", r.status)
	}

	e.switchTo("v1", project("v1"))
	if r := e.mustDo("GET", "/readyz", ""); r.status != 200 {
		t.Fatalf("readyz after the first set: %d %s", r.status, r.body)
	}
	e.srv.SetState(State{Desired: "v2", Converging: true})
	if err := json.Unmarshal(e.mustDo("GET", "/beeuni/status", "").body, &st); err != nil || st.State != "converging" || st.Release != "v1" || st.Desired != "v2" || len(st.Tools) != 6 {
		t.Fatalf("status converging: %+v (%v)", st, err)
	}
	e.srv.SetState(State{Desired: "v1"})
	if err := json.Unmarshal(e.mustDo("GET", "/beeuni/status", "").body, &st); err != nil || st.State != "converged" {
		t.Fatalf("status converged: %+v (%v)", st, err)
	}
}

func TestSecrets(t *testing.T) {
	const apiKey, other, boxVar = "sk-live-7f3a9c", "other-9d2e4b", "box-value-1"
	var mu sync.Mutex
	secrets := map[string]string{"API_KEY": apiKey, "OTHER": other}
	e := start(t, Options{
		Env: map[string]string{"BOX_VAR": boxVar},
		Secrets: func() map[string]string {
			mu.Lock()
			defer mu.Unlock()
			return map[string]string{"API_KEY": secrets["API_KEY"], "OTHER": secrets["OTHER"]}
		},
	})
	e.switchTo("v1", project("v1"))

	tests := []struct {
		agent, name, want string
	}{
		{"researcher", "API_KEY", apiKey},
		{"researcher", "OTHER", "(unset)"},
		{"researcher", "BOX_VAR", boxVar},
		{"beeuni", "OTHER", other}, // secrets: all
		{"beeuni", "API_KEY", apiKey},
		{"ghost", "API_KEY", "(unset)"}, // undeclared: no secrets
		{"ghost", "BOX_VAR", boxVar},
	}
	for _, tc := range tests {
		t.Run(tc.agent+"/"+tc.name, func(t *testing.T) {
			got := e.call("env", `{"name":"`+tc.name+`"}`, HeaderAgent, tc.agent, HeaderSession, "sess-1")
			if got.Output != tc.want || got.IsError {
				t.Fatalf("env %s as %s: %+v, want %q", tc.name, tc.agent, got, tc.want)
			}
		})
	}

	// A secret set after start is seen by the next call.
	const rotated = "sk-rotated-51c0"
	mu.Lock()
	secrets["API_KEY"] = rotated
	mu.Unlock()
	if got := e.call("env", `{"name":"API_KEY"}`, HeaderAgent, "researcher"); got.Output != rotated {
		t.Fatalf("after rotation: %q, want %q", got.Output, rotated)
	}

	status := e.mustDo("GET", "/beeuni/status", "")
	metrics := e.mustDo("GET", "/metrics", "")
	for _, v := range []string{apiKey, other, rotated, boxVar} {
		if strings.Contains(e.logs.String(), v) {
			t.Errorf("a secret or environment value is in the logs: %q", v)
		}
		if strings.Contains(string(status.body), v) || strings.Contains(string(metrics.body), v) {
			t.Errorf("a secret or environment value is in /beeuni/status or /metrics: %q", v)
		}
	}
	if !strings.Contains(e.logs.String(), "tool call") {
		t.Fatal("no call was logged: the log check above proves nothing")
	}
}

func TestMetrics(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", project("v1"))
	e.call("answer", "")
	e.call("boom", "")
	e.mustDo("POST", "/beeuni/tools/nope", "")
	e.switchTo("v2", project("v2"))
	body := string(e.mustDo("GET", "/metrics", "").body)
	for _, want := range []string{
		`beeuni_executor_calls_total{outcome="ok",tool="answer"} 1`,
		`beeuni_executor_calls_total{outcome="tool_error",tool="boom"} 1`,
		`beeuni_executor_calls_total{outcome="not_loaded",tool="(not loaded)"} 1`,
		`beeuni_executor_call_duration_seconds_count{tool="answer"} 1`,
		`beeuni_executor_release_info{release="v2"} 1`,
		`beeuni_executor_switches_total 2`,
		`beeuni_executor_tools_loaded 6`,
		`beeuni_executor_switch_duration_seconds_count 1`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	if strings.Contains(body, `release="v1"`) {
		t.Error("/metrics still shows v1 as the release")
	}
}

// A release whose tools all fail still switches, and reports every failure,
// manifest errors included.
func TestReleaseThatFailsStillSwitches(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", project("v1"))
	bad := map[string]string{
		"beeuni.yaml":     "tools:\n  bash: tools/bash.ts\n  broken: tools/broken.ts\n",
		"tools/bash.ts":   "export default {}\n",
		"tools/broken.ts": "export default { description: 'x', parameters: { type: 'object' } }\n", // no execute
	}
	v2 := e.switchTo("v2", bad)
	if len(v2.Tools()) != 0 {
		t.Fatalf("tools %v loaded, want none", v2.Tools())
	}
	var list ToolList
	if r := e.mustDo("GET", "/beeuni/tools", ""); r.status != 200 || json.Unmarshal(r.body, &list) != nil {
		t.Fatalf("list: %d %s", r.status, r.body)
	}
	if list.Release != "v2" || len(list.Tools) != 0 {
		t.Fatalf("list %+v, want release v2 and no tool", list)
	}
	var manifestErr, brokenErr bool
	for _, f := range list.Failed {
		manifestErr = manifestErr || (f.Name == "" && f.Source == "beeuni.yaml:2" && strings.Contains(f.Reason, "bash"))
		brokenErr = brokenErr || (f.Name == "broken" && f.Source == "tools/broken.ts" && f.Reason != "")
	}
	if !manifestErr || !brokenErr {
		t.Fatalf("failed %+v: want the manifest error at beeuni.yaml:2 and the broken module", list.Failed)
	}
	if r := e.mustDo("POST", "/beeuni/tools/answer", ""); r.status != 404 {
		t.Fatalf("v1's tool after switching to v2: %d %s", r.status, r.body)
	}
	if r := e.mustDo("GET", "/readyz", ""); r.status != 200 {
		t.Fatalf("readyz with a failed set: %d", r.status)
	}
	if st := e.srv.Status(); st.Release != "v2" || len(st.Failed) != len(list.Failed) {
		t.Fatalf("status %+v", st)
	}
}
