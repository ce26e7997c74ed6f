package executor

import (
	"fmt"
	"log/slog"
	"net/http"
	"sync"

	"github.com/beeuni/beeuni/loader"
)

// HeaderParentAgent names the session agent that started the calling agent
// as a subagent (with `task`): the subagent rule of the executor's harness
// applies.
const HeaderParentAgent = "X-Beeuni-Parent-Agent"

// caller is who makes a call: the agent, the agent that started it as a
// subagent ("" for a session agent), and the session.
type caller struct {
	agent, parent, session string
}

// callHeaders reads the caller of a request: X-Beeuni-Agent (default
// "beeuni"), X-Beeuni-Parent-Agent and X-Beeuni-Session.
func callHeaders(r *http.Request) (caller, error) {
	c := caller{agent: r.Header.Get(HeaderAgent), parent: r.Header.Get(HeaderParentAgent), session: r.Header.Get(HeaderSession)}
	if c.agent == "" {
		c.agent = DefaultAgent
	}
	for _, h := range []struct{ name, v string }{{HeaderAgent, c.agent}, {HeaderParentAgent, c.parent}} {
		if len(h.v) > maxAgentNameLen {
			return caller{}, fmt.Errorf("the %s header is over %d bytes: send the agent's name", h.name, maxAgentNameLen)
		}
	}
	if len(c.session) > maxSessionIDLen {
		return caller{}, fmt.Errorf("the %s header is over %d bytes: send the session's id", HeaderSession, maxSessionIDLen)
	}
	return c, nil
}

// hiddenFor is the 403's text for a tool c's agent does not see. When only
// the parent's list hides it (the experimental runtime's subagent rule), it
// says so, since the subagent's own list allows it.
func hiddenFor(p *loader.Project, name string, c caller) string {
	if c.parent != "" && p.Visible(c.agent, name) {
		return fmt.Sprintf("tool %s is hidden from agent %s, a subagent of %s: on the %s runtime a subagent sees only the tools both its own list and its session agent's list allow: add %s to agents.%s.tools in beeuni.yaml, or call it from an agent that sees it",
			name, c.agent, c.parent, p.Harness(), name, c.parent)
	}
	return hiddenText(name, c.agent)
}

// maxUndeclaredLogged bounds the names remembered: agent names come from
// request headers, so the set must not grow with whatever a client sends.
const maxUndeclaredLogged = 1024

// undeclaredLog logs, once per name, a call by an agent beeuni.yaml does not
// declare: such an agent sees every tool (the reference's default), which a
// misspelled X-Beeuni-Agent turns into a silent loss of its restrictions.
type undeclaredLog struct {
	mu   sync.Mutex
	seen map[string]struct{}
	full bool // the bound was reached and said so
}

// note logs agent's first call when ts's manifest does not declare it. The
// default agent is left out: a project that declares no agents is the usual case.
func (u *undeclaredLog) note(log *slog.Logger, ts *ToolSet, agent string) {
	if agent == DefaultAgent || ts.project.Declared(agent) {
		return
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	if _, ok := u.seen[agent]; ok || u.full {
		return
	}
	if u.seen == nil {
		u.seen = make(map[string]struct{})
	}
	if len(u.seen) >= maxUndeclaredLogged {
		u.full = true
		log.Warn("more agents not declared in beeuni.yaml called tools; no more are logged", slog.Int("logged", len(u.seen)))
		return
	}
	u.seen[agent] = struct{}{}
	log.Warn("an agent not declared in beeuni.yaml called a tool: it sees every tool; declare it under agents: or fix the X-Beeuni-Agent header",
		slog.String("agent", agent), slog.String("release", ts.Release()))
}
