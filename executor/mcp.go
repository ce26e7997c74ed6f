package executor

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// MCP on the executor (SPEC-beyond §4): Streamable HTTP through the
// go-sdk, one *mcp.Server per MCP session holding the tools its agent sees
// in the set the session uses (pinned during a turn, else current). A
// switch changes each session's list only where it differs, so the SDK
// sends one notifications/tools/list_changed, and none when only code
// changed. tools/call goes through the pipeline of the single route.
//
// Lock order: mcpEndpoint.mu, then mcpSession.mu; neither is held while a
// tool runs, and sync takes the Server's locks (peek) before mcpSession.mu.

// mcpProtocols are the revisions beeuni negotiates (D4).
var mcpProtocols = []string{"2025-11-25", "2025-06-18", "2025-03-26"}

// mcpSyncDelay gathers the switches of a burst into one sync of the
// sessions' lists (the SDK debounces its notification too, by 10 ms).
const mcpSyncDelay = 20 * time.Millisecond

type mcpEndpoint struct {
	s        *Server
	handler  *mcp.StreamableHTTPHandler
	probe    *mcp.Server // answers the SDK's protocol check on requests of existing sessions
	version  string
	pageSize int // tools/list page size (0: the SDK's)

	mu       sync.Mutex
	sessions map[string]*mcpSession // by Mcp-Session-Id, once initialized
	creating int                    // sessions being initialized now
	timer    *time.Timer            // the pending sync after a switch
	closed   bool
	watchers sync.WaitGroup // one per session: removes it once it ends
}

// mcpSession is one MCP session bound to an agent and a beeuni session.
type mcpSession struct {
	id, agent, session string
	parent             string // X-Beeuni-Parent-Agent at initialize: the subagent rule applies
	server             *mcp.Server

	mu      sync.Mutex
	held    []mcpEntry        // the visible list the server holds, in manifest order
	gone    map[string]string // tools a switch took off the list -> that release
	changes int               // AddTool/RemoveTools batches applied (tests)
}

// mcpEntry is one tool of a visible list, as the client sees it.
type mcpEntry struct {
	name, description string
	params            json.RawMessage
}

type mcpServerKey struct{}

func newMCPEndpoint(s *Server) *mcpEndpoint {
	e := &mcpEndpoint{s: s, version: s.opts.Version, sessions: map[string]*mcpSession{}}
	if e.version == "" {
		e.version = "(devel)"
		if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
			e.version = bi.Main.Version
		}
	}
	e.probe = e.newServer("")
	e.handler = mcp.NewStreamableHTTPHandler(func(r *http.Request) *mcp.Server {
		if srv, ok := r.Context().Value(mcpServerKey{}).(*mcp.Server); ok {
			return srv
		}
		return e.probe
	}, &mcp.StreamableHTTPOptions{
		SessionTimeout:      s.opts.TurnIdleTimeout,
		MaxRequestBodyBytes: s.opts.MaxBodyBytes,
		Logger:              s.log.With(slog.String("part", "mcp")),
	})
	return e
}

func (e *mcpEndpoint) newServer(id string) *mcp.Server {
	return mcp.NewServer(&mcp.Implementation{Name: "beeuni", Version: e.version}, &mcp.ServerOptions{
		Capabilities:              &mcp.ServerCapabilities{Tools: &mcp.ToolCapabilities{ListChanged: true}},
		SupportedProtocolVersions: mcpProtocols,
		PageSize:                  e.pageSize,
		GetSessionID:              func() string { return id },
		Logger:                    e.s.log.With(slog.String("part", "mcp")),
	})
}

// ServeHTTP serves /beeuni/mcp and /beeuni/mcp/agents/{agent}.
func (e *mcpEndpoint) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	agent := r.Header.Get(HeaderAgent)
	if p := r.PathValue("agent"); p != "" {
		if agent != "" && agent != p {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("the path names agent %s but %s says %s: send one", p, HeaderAgent, agent))
			return
		}
		agent = p
	}
	if agent == "" {
		agent = DefaultAgent
	}
	if len(agent) > maxAgentNameLen || len(r.Header.Get(HeaderParentAgent)) > maxAgentNameLen {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the agent's name is over %d bytes: send the agent's name", maxAgentNameLen))
		return
	}
	if origin := r.Header.Get("Origin"); origin != "" && !e.originAllowed(origin, r) {
		writeError(w, http.StatusForbidden, fmt.Sprintf("origin %s may not call /beeuni/mcp: add it to the executor's --mcp-allowed-origins", origin))
		return
	}
	if r.Method != http.MethodPost || r.Header.Get("Mcp-Session-Id") != "" {
		e.handler.ServeHTTP(w, r) // a request of an existing session (or one the SDK refuses)
		return
	}
	e.initialize(w, r, agent)
}

// initialize makes the server of a new session, lets the SDK answer the
// initialize request with it, and keeps the session if it was made.
func (e *mcpEndpoint) initialize(w http.ResponseWriter, r *http.Request, agent string) {
	session := r.Header.Get(HeaderSession)
	if len(session) > maxSessionIDLen {
		writeError(w, http.StatusBadRequest, fmt.Sprintf("the %s header is over %d bytes: send the session's id", HeaderSession, maxSessionIDLen))
		return
	}
	e.mu.Lock()
	switch {
	case e.closed:
		e.mu.Unlock()
		writeError(w, http.StatusServiceUnavailable, "the executor is shutting down")
		return
	case len(e.sessions)+e.creating >= e.s.opts.MaxTurns:
		n := len(e.sessions)
		e.mu.Unlock()
		writeError(w, http.StatusServiceUnavailable, fmt.Sprintf("too many MCP sessions: %d are open; end finished ones with DELETE (or let them idle out)", n))
		return
	}
	e.creating++
	e.mu.Unlock()
	defer func() {
		e.mu.Lock()
		e.creating--
		e.mu.Unlock()
	}()
	if e.s.Current() == nil {
		writeError(w, http.StatusServiceUnavailable, errNoToolSet.Error())
		return
	}

	id := rand.Text()
	if session == "" {
		session = id
	}
	ms := &mcpSession{id: id, agent: agent, parent: r.Header.Get(HeaderParentAgent), session: session, server: e.newServer(id), gone: map[string]string{}}
	ms.server.AddReceivingMiddleware(e.middleware(ms))
	e.sync(ms)
	e.handler.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), mcpServerKey{}, ms.server)))

	var ss *mcp.ServerSession
	for x := range ms.server.Sessions() {
		if x.InitializeParams() != nil {
			ss = x
		}
	}
	if ss == nil {
		return // not an initialize, or refused: the SDK closed what it made
	}
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		_ = ss.Close()
		return
	}
	e.sessions[id] = ms
	e.watchers.Go(func() {
		_ = ss.Wait()
		e.mu.Lock()
		delete(e.sessions, id)
		e.mu.Unlock()
	})
	e.mu.Unlock()
	e.sync(ms) // a switch may have come while it initialized
}

// originAllowed: an Origin in --mcp-allowed-origins, or a loopback origin
// when the request came to a loopback address.
func (e *mcpEndpoint) originAllowed(origin string, r *http.Request) bool {
	for _, o := range e.s.opts.MCPAllowedOrigins {
		if strings.EqualFold(strings.TrimSuffix(o, "/"), origin) {
			return true
		}
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	return isLoopbackHost(u.Hostname()) && isLoopbackHost(hostOnly(r.Host))
}

func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return hostport
}

func isLoopbackHost(h string) bool {
	if strings.EqualFold(h, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(h, "[]"))
	return ip != nil && ip.IsLoopback()
}

// middleware answers tools/call with beeuni's pipeline (and its texts for
// tools that are not there), and brings the list up to date before
// tools/list answers from it.
func (e *mcpEndpoint) middleware(ms *mcpSession) mcp.Middleware {
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			switch method {
			case "tools/call":
				if r, ok := req.(*mcp.CallToolRequest); ok {
					return e.call(ctx, ms, r)
				}
			case "tools/list":
				e.sync(ms)
			}
			return next(ctx, method, req)
		}
	}
}

// call runs one tools/call on the set the session uses.
func (e *mcpEndpoint) call(ctx context.Context, ms *mcpSession, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	name := req.Params.Name
	ts, done := e.s.acquire(ms.session)
	defer done()
	if ts == nil {
		return nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: errNoToolSet.Error()}
	}
	if _, ok := ts.set.Tool(name); !ok {
		e.s.metrics.called(unknownTool, outcomeNotLoaded, 0)
		return nil, invalidParams(notLoadedText(name) + ms.changedHint(name))
	}
	if !ts.project.VisibleTo(ms.agent, ms.parent, name) {
		e.s.metrics.called(name, outcomeHidden, 0)
		return nil, invalidParams(hiddenFor(ts.project, name, caller{agent: ms.agent, parent: ms.parent}) + ms.changedHint(name))
	}
	args := bytes.TrimSpace(req.Params.Arguments)
	if len(args) == 0 || bytes.Equal(args, []byte("null")) {
		args = []byte("{}")
	}
	if args[0] != '{' {
		return nil, invalidParams(fmt.Sprintf("arguments must be a JSON object, not %s: send the arguments as an object", jsonKind(args[0])))
	}
	inv, err := e.s.invoke(ctx, ts, name, ms.agent, ms.session, args, e.s.opts.ValidateArgs.forMCP())
	if err != nil {
		return nil, invalidParams(err.Error())
	}
	meta := mcp.Meta{"beeuni/release": ts.Release()}
	if sp := inv.res.Spilled; sp != nil {
		meta["beeuni/spilled"] = sp
	}
	return &mcp.CallToolResult{Meta: meta, Content: []mcp.Content{&mcp.TextContent{Text: inv.res.Output}}, IsError: inv.res.IsError}, nil
}

func invalidParams(msg string) error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: msg}
}

// changedHint tells a client with a stale list that a switch took the tool
// off the session's list.
func (ms *mcpSession) changedHint(name string) string {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if rel, ok := ms.gone[name]; ok {
		return fmt.Sprintf(" (the tool list changed with release %s: call tools/list again)", rel)
	}
	return ""
}

// sync makes the session's server hold the visible list of the set the
// session uses now: removes what is gone, adds what is new or changed, and
// leaves the rest, so the SDK notifies once, and only for a real change.
func (e *mcpEndpoint) sync(ms *mcpSession) {
	ts, done := e.s.peek(ms.session)
	defer done()
	if ts == nil {
		return
	}
	var list []mcpEntry
	for _, t := range ts.Tools() {
		if ts.project.VisibleTo(ms.agent, ms.parent, t.Name) {
			list = append(list, mcpEntry{name: t.Name, description: t.Description, params: t.Parameters})
		}
	}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	held := make(map[string]mcpEntry, len(ms.held))
	for _, h := range ms.held {
		held[h.name] = h
	}
	now := make(map[string]bool, len(list))
	var added []mcpEntry
	for _, t := range list {
		now[t.name] = true
		if h, ok := held[t.name]; !ok || h.description != t.description || !bytes.Equal(h.params, t.params) {
			added = append(added, t)
		}
	}
	var removed []string
	for _, h := range ms.held {
		if !now[h.name] {
			removed = append(removed, h.name)
		}
	}
	if len(removed) > 0 {
		ms.server.RemoveTools(removed...)
		for _, n := range removed {
			ms.gone[n] = ts.Release()
		}
	}
	for _, t := range added {
		ms.server.AddTool(&mcp.Tool{Name: t.name, Description: t.description, InputSchema: t.params}, notCalled)
		delete(ms.gone, t.name)
	}
	if len(removed) > 0 || len(added) > 0 {
		ms.changes++
	}
	ms.held = list
}

// notCalled is the handler the SDK holds for each tool: the middleware
// answers every tools/call, so it never runs.
func notCalled(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return nil, errors.New("internal error: tools/call bypassed beeuni's handler")
}

// switched syncs every session soon after a switch (a burst of switches
// syncs once).
func (e *mcpEndpoint) switched() {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || len(e.sessions) == 0 {
		return
	}
	if e.timer == nil {
		e.timer = time.AfterFunc(mcpSyncDelay, e.syncAll)
		return
	}
	e.timer.Reset(mcpSyncDelay)
}

func (e *mcpEndpoint) syncAll() {
	e.mu.Lock()
	if e.closed {
		e.mu.Unlock()
		return
	}
	all := make([]*mcpSession, 0, len(e.sessions))
	for _, ms := range e.sessions {
		all = append(all, ms)
	}
	e.mu.Unlock()
	for _, ms := range all {
		e.sync(ms)
	}
}

// turnEnded syncs the sessions bound to session: held back while its turn
// ran, their lists follow the current set now.
func (e *mcpEndpoint) turnEnded(session string) {
	e.mu.Lock()
	var bound []*mcpSession
	for _, ms := range e.sessions {
		if ms.session == session {
			bound = append(bound, ms)
		}
	}
	e.mu.Unlock()
	for _, ms := range bound {
		e.sync(ms)
	}
}

// close ends every session (their standalone streams too, so the HTTP
// server's shutdown does not wait on them) and waits for the watchers.
func (e *mcpEndpoint) close() {
	e.mu.Lock()
	e.closed = true
	if e.timer != nil {
		e.timer.Stop()
	}
	all := make([]*mcpSession, 0, len(e.sessions))
	for _, ms := range e.sessions {
		all = append(all, ms)
	}
	e.mu.Unlock()
	for _, ms := range all {
		for ss := range ms.server.Sessions() {
			_ = ss.Close()
		}
	}
	e.watchers.Wait()
}

// peek is the set session uses now, with a reference, without counting as
// the session's activity (a turn's idle time goes on).
func (s *Server) peek(session string) (*ToolSet, func()) {
	s.turnsMu.Lock()
	if t, ok := s.turns[session]; ok {
		set := t.set
		set.ref()
		s.turnsMu.Unlock()
		return set, set.unref
	}
	s.turnsMu.Unlock()
	ts := s.acquireCurrent()
	if ts == nil {
		return nil, func() {}
	}
	return ts, ts.unref
}
