package executor

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader"
)

// TestParentAgent: X-Beeuni-Parent-Agent applies the reference's subagent
// rule of the executor's harness: on the experimental runtime a subagent
// sees only what its list and its session agent's list both allow; on the
// default runtime, its own list.
func TestParentAgent(t *testing.T) {
	for _, h := range []loader.Harness{loader.HarnessExperimental, loader.HarnessDefault} {
		t.Run(string(h), func(t *testing.T) {
			e := start(t, Options{})
			ts := LoadToolSet(context.Background(), "v1", writeTree(t, project("v1")), h, e.optsJS())
			e.srv.Switch(ts)
			// researcher sees answer, echo, env; greeter sees nothing; beeuni sees all.
			cases := []struct {
				name, tool, agent, parent string
				exp, def                  int
			}{
				{"session agent", "answer", "researcher", "", 200, 200},
				{"parent allows too", "answer", "researcher", "beeuni", 200, 200},
				{"parent hides it", "answer", "researcher", "greeter", 403, 200},
				{"own list hides it", "boom", "researcher", "beeuni", 403, 403},
				{"undeclared subagent of greeter", "answer", "ghost", "greeter", 403, 200},
			}
			for _, tc := range cases {
				r := e.mustDo("POST", "/beeuni/tools/"+tc.tool, "", HeaderAgent, tc.agent, HeaderParentAgent, tc.parent)
				want := tc.def
				if h == loader.HarnessExperimental {
					want = tc.exp
				}
				if r.status != want {
					t.Errorf("%s: status %d, want %d: %s", tc.name, r.status, want, r.body)
				}
			}
			r := e.mustDo("POST", "/beeuni/tools/answer", "", HeaderAgent, "researcher", HeaderParentAgent, "greeter")
			if h == loader.HarnessExperimental {
				msg, _ := r.json(t)["error"].(string)
				if !containsAll(msg, "tool answer is hidden from agent researcher, a subagent of greeter", "experimental runtime", "agents.greeter.tools") {
					t.Errorf("403 message %q does not say the parent hides it", msg)
				}
			}

			br := e.batch(`{"calls":[{"name":"answer"},{"name":"boom"}]}`, HeaderAgent, "researcher", HeaderParentAgent, "greeter")
			wantKind := ""
			if h == loader.HarnessExperimental {
				wantKind = "hidden"
			}
			if r := br.Results[0]; r.ErrorKind != wantKind {
				t.Errorf("batch answer = %+v, want error kind %q", r, wantKind)
			}
			if r := br.Results[1]; r.ErrorKind != "hidden" {
				t.Errorf("batch boom = %+v, want hidden", r)
			}

			lr := e.mustDo("GET", "/beeuni/tools?agent=researcher", "", HeaderParentAgent, "greeter")
			var list ToolList
			if err := json.Unmarshal(lr.body, &list); err != nil || lr.status != http.StatusOK {
				t.Fatalf("list: %d %s", lr.status, lr.body)
			}
			var names []string
			for _, tl := range list.Tools {
				names = append(names, tl.Name)
			}
			wantNames := []string{"answer", "echo", "env"}
			if h == loader.HarnessExperimental {
				wantNames = nil
			}
			if !slices.Equal(names, wantNames) {
				t.Errorf("list as researcher under greeter = %v, want %v", names, wantNames)
			}
			// MCP: the session's tools/list follows the same rule.
			got := e.mcpConnect("/beeuni/mcp/agents/researcher", "", HeaderParentAgent, "greeter").names(t)
			if !slices.Equal(got, wantNames) {
				t.Errorf("MCP tools/list as researcher under greeter = %v, want %v", got, wantNames)
			}
		})
	}
}

// TestUndeclaredAgentLoggedOnce: an agent beeuni.yaml does not declare still
// sees every tool (the reference's default), and the log says so once per
// name, not once per call.
func TestUndeclaredAgentLoggedOnce(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", project("v1"))
	for range 3 {
		for _, agent := range []string{"ghost", "reseacher", "researcher", DefaultAgent} {
			if cr := e.call("answer", "", HeaderAgent, agent); cr.Output != "v1" {
				t.Fatalf("%s: %+v", agent, cr)
			}
		}
	}
	e.batch(`{"calls":[{"name":"answer"}]}`, HeaderAgent, "ghost")
	logs := e.logs.String()
	const msg = "an agent not declared in beeuni.yaml called a tool"
	if n := strings.Count(logs, msg); n != 2 {
		t.Fatalf("%d records %q, want 2 (ghost, reseacher):\n%s", n, msg, logs)
	}
	for _, a := range []string{"agent=ghost", "agent=reseacher"} {
		if !strings.Contains(logs, a) {
			t.Errorf("no record names %s", a)
		}
	}
}

func TestUndeclaredLogBounded(t *testing.T) {
	var buf syncBuffer
	log := newTestLogger(&buf)
	e := start(t, Options{})
	ts := e.switchTo("v1", project("v1"))
	var u undeclaredLog
	for i := range maxUndeclaredLogged + 10 {
		u.note(log, ts, "agent"+strconv.Itoa(i))
	}
	if len(u.seen) != maxUndeclaredLogged || !u.full {
		t.Fatalf("remembered %d names (full %v), want %d", len(u.seen), u.full, maxUndeclaredLogged)
	}
	if n := strings.Count(buf.String(), "no more are logged"); n != 1 {
		t.Fatalf("%d notes that the bound was reached, want 1", n)
	}
}
