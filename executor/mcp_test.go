package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func TestMCPInitialize(t *testing.T) {
	e := start(t, Options{Version: "v9.9.9"})
	e.switchTo("v1", mproject("v1", ""))
	// §4.6 test 1: the three revisions negotiate; capabilities exactly tools.listChanged.
	for _, v := range []string{"2025-11-25", "2025-06-18", "2025-03-26"} {
		c := e.mcpConnect("/beeuni/mcp", v)
		res := c.cs.InitializeResult()
		caps, _ := json.Marshal(res.Capabilities)
		if res.ProtocolVersion != v || string(caps) != `{"tools":{"listChanged":true}}` {
			t.Fatalf("%s: protocol %s, capabilities %s", v, res.ProtocolVersion, caps)
		}
		if res.ServerInfo.Name != "beeuni" || res.ServerInfo.Version != "v9.9.9" || c.cs.ID() == "" {
			t.Fatalf("%s: server %+v, session id %q", v, res.ServerInfo, c.cs.ID())
		}
	}
	// A client asking for 2026-07-28 gets the newest beeuni speaks.
	c := e.mcpConnect("/beeuni/mcp", "2026-07-28")
	if got := c.cs.InitializeResult().ProtocolVersion; got != "2025-11-25" {
		t.Fatalf("2026-07-28 negotiated %s", got)
	}
}

func TestMCPListAndCall(t *testing.T) {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[{"title":"beeuni","url":"https://example.com/"}]}`)
	}))
	defer api.Close()
	e := start(t, Options{Env: map[string]string{"BEEUNI_API_URL": api.URL, "BEEUNI_TOKEN": "tok"}})
	e.switchTo("v1", mproject("v1", ""))
	c := e.mcpConnect("/beeuni/mcp", "")

	// §4.6 test 2: the names of GET /beeuni/tools; inputSchema is parameters.
	var list ToolList
	if err := json.Unmarshal(e.mustDo("GET", "/beeuni/tools?agent=beeuni", "").body, &list); err != nil {
		t.Fatal(err)
	}
	var rest []string
	params := map[string]json.RawMessage{}
	for _, ti := range list.Tools {
		rest = append(rest, ti.Name)
		params[ti.Name] = ti.Parameters
	}
	slices.Sort(rest)
	if got := c.names(t); joined(got) != joined(rest) {
		t.Fatalf("tools/list %v, GET /beeuni/tools %v", got, rest)
	}
	for tl, err := range c.cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatal(err)
		}
		schema, _ := json.Marshal(tl.InputSchema)
		if !jsonEqual(schema, params[tl.Name]) {
			t.Fatalf("%s inputSchema %s, parameters %s", tl.Name, schema, params[tl.Name])
		}
	}

	// §4.6 test 4: the single route's output, and the release in _meta.
	single := e.call("web_search", `{"query":"beeuni"}`)
	res := c.call(t, "web_search", map[string]any{"query": "beeuni"})
	if res.IsError || text(t, res) != single.Output || single.IsError || res.Meta["beeuni/release"] != "v1" {
		t.Fatalf("web_search: %+v %q, single %+v", res, text(t, res), single)
	}

	// §4.6 test 5: invalid arguments are a tool error with §1.6's text (MCP enforces by default).
	res = c.call(t, "typed", map[string]any{"include_items": "yes"})
	if !res.IsError || !strings.HasPrefix(text(t, res), "invalid arguments for tool typed: 2 problems; fix them and call again.\n- at (arguments): missing property 'id'\n") {
		t.Fatalf("invalid: %+v %q", res, text(t, res))
	}

	// §4.6 test 6: unknown tool; hidden tool: -32602 with beeuni's texts.
	if je := c.callErr(t, "nope"); je.Code != jsonrpc.CodeInvalidParams || je.Message != "no tool named nope is loaded" {
		t.Fatalf("unknown: %+v", je)
	}
	r := e.mcpConnect("/beeuni/mcp/agents/researcher", "")
	if je := r.callErr(t, "boom"); je.Code != jsonrpc.CodeInvalidParams || je.Message != hiddenText("boom", "researcher") {
		t.Fatalf("hidden: %+v", je)
	}

	// §4.6 test 7: thrown error and timeout are tool errors with beeuni's messages.
	if res := c.call(t, "boom", nil); !res.IsError || text(t, res) != "boom: set BOOM_OK to stop this" {
		t.Fatalf("boom: %q", text(t, res))
	}
	if res := c.call(t, "slow", nil); !res.IsError || text(t, res) != "tool slow timed out after 100ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Fatalf("slow: %q", text(t, res))
	}

	// A spilled output carries where the whole of it is.
	big := c.call(t, "echo", map[string]any{"big": strings.Repeat("x", 60000)})
	if sp, ok := big.Meta["beeuni/spilled"].(map[string]any); !ok || sp["bytes"] == nil || !strings.Contains(text(t, big), "[output truncated: ") {
		t.Fatalf("spilled meta %+v", big.Meta)
	}
}

func TestMCPValidateOff(t *testing.T) {
	e := start(t, Options{ValidateArgs: ValidateOff})
	e.switchTo("v1", mproject("v1", ""))
	c := e.mcpConnect("/beeuni/mcp", "")
	// The operator's explicit off holds on MCP too.
	if res := c.call(t, "typed", map[string]any{"id": 7}); res.IsError || text(t, res) != "order 7" {
		t.Fatalf("off: %+v", res)
	}
}

func TestMCPAgentsByPath(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", mproject("v1", ""))
	// §4.6 test 3.
	if got := e.mcpConnect("/beeuni/mcp/agents/researcher", "").names(t); joined(got) != "answer,echo" {
		t.Fatalf("researcher sees %v", got)
	}
	if got := e.mcpConnect("/beeuni/mcp", "", HeaderAgent, "writer").names(t); joined(got) != "answer,boom" {
		t.Fatalf("writer (header) sees %v", got)
	}
	_, err := e.mcpTryConnect("/beeuni/mcp/agents/researcher", "", HeaderAgent, "writer")
	if err == nil {
		t.Fatal("a path and header naming two agents connected")
	}
	r := e.mustDo("POST", "/beeuni/mcp/agents/researcher", initBody, append(mcpHeaders, HeaderAgent, "writer")...)
	if r.status != http.StatusBadRequest || r.json(t)["error"] != "the path names agent researcher but X-Beeuni-Agent says writer: send one" {
		t.Fatalf("mismatch: %d %s", r.status, r.body)
	}
}

func TestMCPCancel(t *testing.T) {
	e := start(t, Options{})
	ts := e.switchTo("v1", mproject("v1", ""))
	c := e.mcpConnect("/beeuni/mcp", "")
	// §4.6 test 8: the client cancels a 10 s call; the tool sees context.signal abort.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	go func() { _, _ = c.cs.CallTool(ctx, &mcp.CallToolParams{Name: "long"}) }()
	waitFor(t, 10*time.Second, func() error { return exists(filepath.Join(ts.Dir(), "long-started")) })
	cancel()
	// writeFileSync creates the file before it writes it: poll for the
	// content, not only the name.
	var reason []byte
	waitFor(t, 5*time.Second, func() error {
		var err error
		if reason, err = os.ReadFile(filepath.Join(ts.Dir(), "long-aborted")); err == nil && len(reason) == 0 {
			err = errors.New("long-aborted is still empty")
		}
		return err
	})
	if string(reason) != "AbortError" {
		t.Fatalf("the signal's reason is %q", reason)
	}
	if exists(filepath.Join(ts.Dir(), "long-ended")) == nil {
		t.Fatal("the call ran to its end")
	}
}

func TestMCPListChanged(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", mproject("v1", ""))
	c := e.mcpConnect("/beeuni/mcp", "")
	c.ready(t)
	before := c.names(t)

	// §4.6 test 10: a switch that changes only code: no notification.
	e.switchTo("v2", mproject("v2", ""))
	if n := c.settle(); n != 0 {
		t.Fatalf("%d notifications for a code-only switch", n)
	}
	if res := c.call(t, "answer", nil); text(t, res) != "v2" || res.Meta["beeuni/release"] != "v2" {
		t.Fatalf("answer after the code switch: %q", text(t, res))
	}

	// §4.6 test 9: the list changes: exactly one notification; the new list;
	// a removed tool answers -32602 naming the release.
	e.switchTo("v3", mproject("v3", "An extra tool."))
	c.waitChanged(t, 1)
	if got := c.names(t); !slices.Contains(got, "extra") || len(got) != len(before)+1 {
		t.Fatalf("after the switch: %v", got)
	}
	if n := c.settle(); n != 1 {
		t.Fatalf("%d notifications, want 1", n)
	}
	e.switchTo("v4", mproject("v4", ""))
	c.waitChanged(t, 2)
	want := "no tool named extra is loaded (the tool list changed with release v4: call tools/list again)"
	if je := c.callErr(t, "extra"); je.Code != jsonrpc.CodeInvalidParams || je.Message != want {
		t.Fatalf("removed tool: %+v", je)
	}
	// A changed description is a change too.
	e.switchTo("v5", mproject("v5", "One."))
	c.waitChanged(t, 3)
	e.switchTo("v6", mproject("v6", "Two."))
	c.waitChanged(t, 4)
	for tl, err := range c.cs.Tools(t.Context(), nil) {
		if err == nil && tl.Name == "extra" && tl.Description != "Two." {
			t.Fatalf("extra's description %q", tl.Description)
		}
	}
	if n := c.settle(); n != 4 {
		t.Fatalf("%d notifications, want 4", n)
	}
}

func TestMCPTurnHoldsTheList(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", mproject("v1", ""))
	c := e.mcpConnect("/beeuni/mcp", "")
	c.ready(t)
	// §4.6 test 11: the bound beeuni session is the MCP session id.
	if tr := e.turn("POST", c.cs.ID()); tr.Release != "v1" {
		t.Fatalf("turn: %+v", tr)
	}
	e.switchTo("v2", mproject("v2", "An extra tool."))
	if res := c.call(t, "answer", nil); text(t, res) != "v1" || res.Meta["beeuni/release"] != "v1" {
		t.Fatalf("during the turn: %q %v", text(t, res), res.Meta)
	}
	if got := c.names(t); slices.Contains(got, "extra") {
		t.Fatalf("the list changed during the turn: %v", got)
	}
	if n := c.settle(); n != 0 {
		t.Fatalf("%d notifications during the turn", n)
	}
	e.turn("DELETE", c.cs.ID())
	c.waitChanged(t, 1)
	if got := c.names(t); !slices.Contains(got, "extra") {
		t.Fatalf("after the turn: %v", got)
	}
	if res := c.call(t, "answer", nil); text(t, res) != "v2" {
		t.Fatalf("after the turn: %q", text(t, res))
	}
	if n := c.settle(); n != 1 {
		t.Fatalf("%d notifications, want 1", n)
	}

	// X-Beeuni-Session on initialize binds another session id.
	b := e.mcpConnect("/beeuni/mcp", "", HeaderSession, "chat-7")
	b.ready(t)
	e.turn("POST", "chat-7")
	e.switchTo("v3", mproject("v3", ""))
	if res := b.call(t, "answer", nil); text(t, res) != "v2" {
		t.Fatalf("bound to chat-7's turn: %q", text(t, res))
	}
	if res := c.call(t, "answer", nil); text(t, res) != "v3" {
		t.Fatalf("the other session: %q", text(t, res))
	}
}

func TestMCPOnlyTheChangedAgent(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", mproject("v1", ""))
	r := e.mcpConnect("/beeuni/mcp/agents/researcher", "")
	w := e.mcpConnect("/beeuni/mcp/agents/writer", "")
	r.ready(t)
	w.ready(t)
	// §4.6 test 12: extra is in researcher's list only.
	e.switchTo("v2", mproject("v2", "An extra tool."))
	r.waitChanged(t, 1)
	if n := w.settle(); n != 0 {
		t.Fatalf("writer got %d notifications", n)
	}
	if r.changed.Load() != 1 {
		t.Fatalf("researcher got %d notifications", r.changed.Load())
	}
}

func TestMCPBurstOfSwitches(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v0", mproject("v0", ""))
	c := e.mcpConnect("/beeuni/mcp", "")
	c.ready(t)
	sets := make([]*ToolSet, 10)
	for i := range sets {
		sets[i] = e.load(fmt.Sprintf("b%d", i), mproject(fmt.Sprintf("b%d", i), fmt.Sprintf("Extra %d.", i)))
	}
	// §4.6 test 13: ten switches at once: one notification, the last list.
	for _, ts := range sets {
		e.srv.Switch(ts)
	}
	c.waitChanged(t, 1)
	var desc string
	for tl, err := range c.cs.Tools(t.Context(), nil) {
		if err == nil && tl.Name == "extra" {
			desc = tl.Description
		}
	}
	if desc != "Extra 9." {
		t.Fatalf("extra says %q", desc)
	}
	if n := c.settle(); n != 1 {
		t.Fatalf("%d notifications, want 1", n)
	}
}

func TestMCPPagination(t *testing.T) {
	e := start(t, Options{}, func(s *Server) { s.mcp.pageSize = 2 })
	e.switchTo("v1", mproject("v1", "An extra tool."))
	c := e.mcpConnect("/beeuni/mcp/agents/five", "")
	// §4.6 test 15: 5 tools in pages of 2.
	var pages int
	cursor := ""
	var names []string
	for {
		res, err := c.cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: cursor})
		if err != nil {
			t.Fatal(err)
		}
		pages++
		for _, tl := range res.Tools {
			names = append(names, tl.Name)
		}
		if res.NextCursor == "" {
			break
		}
		cursor = res.NextCursor
	}
	if len(names) != 5 || pages != 3 {
		t.Fatalf("%d tools in %d pages", len(names), pages)
	}
	_, err := c.cs.ListTools(t.Context(), &mcp.ListToolsParams{Cursor: "garbage"})
	var je *jsonrpc.Error
	if !errors.As(err, &je) || je.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("garbage cursor: %v", err)
	}
}

func TestMCPManySessionsWhileSwitching(t *testing.T) {
	if testing.Short() {
		t.Skip("5 s of switches")
	}
	e := start(t, Options{})
	e.switchTo("v0", mproject("v0", ""))
	// §4.6 test 17: 50 sessions, a switch every 100 ms for 5 s.
	sets := make([]*ToolSet, 0, 50)
	for i := range 50 {
		extra := ""
		if i%2 == 0 {
			extra = fmt.Sprintf("Extra %d.", i)
		}
		sets = append(sets, e.load(fmt.Sprintf("s%d", i), mproject(fmt.Sprintf("s%d", i), extra)))
	}
	clients := make([]*mcpClient, 50)
	agents := []string{"beeuni", "researcher", "writer"}
	for i := range clients {
		clients[i] = e.mcpConnect("/beeuni/mcp/agents/"+agents[i%3], "")
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	errs := make(chan error, len(clients))
	for _, c := range clients {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if _, err := c.cs.ListTools(t.Context(), nil); err != nil {
					errs <- err
					return
				}
				res, err := c.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "answer"})
				if err != nil || res.IsError {
					errs <- fmt.Errorf("answer: %v %+v", err, res)
					return
				}
			}
		})
	}
	tick := time.NewTicker(100 * time.Millisecond)
	for _, ts := range sets {
		<-tick.C
		e.srv.Switch(ts)
	}
	tick.Stop()
	close(stop)
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	// Every session ends on the last set's list.
	for i, c := range clients {
		if res := c.call(t, "answer", nil); text(t, res) != "s49" {
			t.Fatalf("client %d: %q", i, text(t, res))
		}
	}
}

func TestMCPTransport(t *testing.T) {
	e := start(t, Options{Token: "t0k", MCPAllowedOrigins: []string{"https://app.example.com"}})
	e.switchTo("v1", mproject("v1", ""))
	auth := []string{"Authorization", "Bearer t0k"}
	h := func(extra ...string) []string { return append(append(slices.Clone(auth), mcpHeaders...), extra...) }

	// A raw initialize gives a session id.
	r := e.mustDo("POST", "/beeuni/mcp", initBody, h()...)
	if r.status != http.StatusOK {
		t.Fatalf("initialize: %d %s", r.status, r.body)
	}
	resp, err := e.rawInit(h()...)
	if err != nil {
		t.Fatal(err)
	}
	id := resp.Header.Get("Mcp-Session-Id")
	if id == "" {
		t.Fatal("no Mcp-Session-Id on the initialize answer")
	}
	sess := []string{"Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-11-25"}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`

	// §4.6 test 14, one rule per line.
	cases := []struct {
		name, method, path, body string
		headers                  []string
		status                   int
	}{
		{"Accept without event-stream", "POST", "/beeuni/mcp", initBody, append(slices.Clone(auth), "Content-Type", "application/json", "Accept", "application/json"), 400},
		{"GET without a session", "GET", "/beeuni/mcp", "", append(slices.Clone(auth), "Accept", "text/event-stream"), 400},
		{"unknown session", "POST", "/beeuni/mcp", list, h("Mcp-Session-Id", "nope", "MCP-Protocol-Version", "2025-11-25"), 404},
		{"unknown protocol version", "POST", "/beeuni/mcp", list, h("Mcp-Session-Id", id, "MCP-Protocol-Version", "1999-01-01"), 400},
		{"body over 1 MiB", "POST", "/beeuni/mcp", `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"x":"` + strings.Repeat("x", 1<<20) + `"}}`, h(sess...), 413},
		{"no token", "POST", "/beeuni/mcp", initBody, mcpHeaders, 401},
		{"foreign Origin", "POST", "/beeuni/mcp", initBody, h("Origin", "https://evil.example.com"), 403},
		{"allowed Origin", "POST", "/beeuni/mcp", initBody, h("Origin", "https://app.example.com"), 200},
		{"loopback Origin", "POST", "/beeuni/mcp", initBody, h("Origin", "http://localhost:3000"), 200},
		{"the session answers", "POST", "/beeuni/mcp", list, h(sess...), 200},
		{"DELETE ends it", "DELETE", "/beeuni/mcp", "", append(slices.Clone(auth), sess...), 204},
		{"then it is gone", "POST", "/beeuni/mcp", list, h(sess...), 404},
	}
	for _, tc := range cases {
		r := e.mustDo(tc.method, tc.path, tc.body, tc.headers...)
		if r.status != tc.status {
			t.Fatalf("%s: %d %s, want %d", tc.name, r.status, r.body, tc.status)
		}
	}
}

// rawInit sends an initialize and returns the whole answer.
func (e *env) rawInit(headers ...string) (*http.Response, error) {
	req, err := http.NewRequest("POST", e.url+"/beeuni/mcp", strings.NewReader(initBody))
	if err != nil {
		return nil, err
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp, nil
}

func TestMCPSessionLimit(t *testing.T) {
	e := start(t, Options{MaxTurns: 2})
	e.switchTo("v1", mproject("v1", ""))
	e.mcpConnect("/beeuni/mcp", "")
	c := e.mcpConnect("/beeuni/mcp", "")
	r := e.mustDo("POST", "/beeuni/mcp", initBody, mcpHeaders...)
	if r.status != http.StatusServiceUnavailable || !strings.Contains(r.json(t)["error"].(string), "too many MCP sessions") {
		t.Fatalf("third session: %d %s", r.status, r.body)
	}
	// Ending one makes room.
	if err := c.cs.Close(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, 10*time.Second, func() error {
		if _, err := e.mcpTryConnect("/beeuni/mcp", ""); err != nil {
			return err
		}
		return nil
	})
}
