package executor

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/schema"
)

func TestRenderRoute(t *testing.T) {
	e := start(t, Options{Token: "t0k"})
	auth := []string{"Authorization", "Bearer t0k"}
	files := project("r1")
	files["tools/echo.ts"] = "export default {\n" // echo does not load in r1
	e.switchTo("r1", files)

	// §3.7 test 17: only the tools the agent sees; what did not load is an error finding.
	r := e.mustDo("GET", "/beeuni/render?provider=gemini&agent=researcher", "", auth...)
	if r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	var out schema.Rendering
	if err := json.Unmarshal(r.body, &out); err != nil {
		t.Fatal(err)
	}
	var decls []struct {
		FunctionDeclarations []struct{ Name string } `json:"functionDeclarations"`
	}
	if err := json.Unmarshal(out.Tools, &decls); err != nil {
		t.Fatalf("tools %s: %v", out.Tools, err)
	}
	var names []string
	for _, d := range decls[0].FunctionDeclarations {
		names = append(names, d.Name)
	}
	if strings.Join(names, ",") != "answer,env" || out.Provider != "gemini" || out.Agent != "researcher" || out.Release != "r1" || out.GeminiSchema != "openapi" {
		t.Fatalf("rendering %s", r.body)
	}
	if len(out.Findings) == 0 || out.Findings[0].Rule != "ALL-LOAD" || out.Findings[0].Tool != "echo" || !strings.HasPrefix(out.Findings[0].Message, "not loaded: ") {
		t.Fatalf("findings %+v", out.Findings)
	}
	// The same value the CLI renders from the same tools.
	ts := e.srv.Current()
	var tools []schema.Tool
	for _, tl := range ts.Tools() {
		if ts.project.Visible("researcher", tl.Name) {
			tools = append(tools, schema.Tool{Name: tl.Name, Description: tl.Description, Parameters: tl.Parameters})
		}
	}
	want, _ := schema.Render(tools, schema.Options{Provider: schema.Gemini})
	var compact bytes.Buffer
	if err := json.Compact(&compact, out.Tools); err != nil || compact.String() != string(want.Tools) {
		t.Fatalf("tools\n%s\nwant\n%s", out.Tools, want.Tools)
	}

	for _, tc := range []struct{ query, want string }{
		{"provider=cohere", `unknown provider "cohere": use openai, openai-strict, anthropic, anthropic-strict or gemini`},
		{"", `unknown provider "": use openai, openai-strict, anthropic, anthropic-strict or gemini`},
		{"provider=openai&api=assistants", `unknown api "assistants": use chat or responses`},
		{"provider=anthropic&api=responses", "api applies to provider openai and openai-strict only"},
		{"provider=openai&gemini_schema=json", "gemini_schema applies to provider gemini only"},
	} {
		r := e.mustDo("GET", "/beeuni/render?"+tc.query, "", auth...)
		if r.status != http.StatusBadRequest || r.json(t)["error"] != tc.want {
			t.Fatalf("%s: %d %s, want 400 %q", tc.query, r.status, r.body, tc.want)
		}
	}
	if r := e.mustDo("GET", "/beeuni/render?provider=openai", ""); r.status != http.StatusUnauthorized {
		t.Fatalf("no token: %d", r.status)
	}

	// The session's pinned set renders while its turn runs.
	if r := e.mustDo("POST", "/beeuni/sessions/s1/turn", "", auth...); r.status != http.StatusOK {
		t.Fatalf("turn: %d", r.status)
	}
	e.switchTo("r2", project("r2"))
	for session, release := range map[string]string{"s1": "r1", "s2": "r2"} {
		var got schema.Rendering
		r := e.mustDo("GET", "/beeuni/render?provider=openai-strict&api=responses", "", append([]string{HeaderSession, session}, auth...)...)
		if err := json.Unmarshal(r.body, &got); err != nil || got.Release != release || got.API != "responses" {
			t.Fatalf("session %s: %s", session, r.body)
		}
	}
}
