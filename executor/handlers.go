package executor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"time"

	"github.com/beeuni/beeuni/internal/httpbody"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// Request headers of a tool call.
const (
	HeaderSession = "X-Beeuni-Session"
	HeaderAgent   = "X-Beeuni-Agent"
)

// CallResponse is the 200 answer of POST /beeuni/tools/{name}.
type CallResponse struct {
	Output  string        `json:"output"`
	IsError bool          `json:"is_error"`
	Release string        `json:"release"`
	Spilled *jshost.Spill `json:"spilled,omitempty"`
	// InvalidArguments lists the problems when the arguments were rejected
	// (SPEC-beyond §1.6); absent otherwise.
	InvalidArguments []schema.Problem `json:"invalid_arguments,omitempty"`
}

// ToolInfo is one tool of GET /beeuni/tools.
type ToolInfo struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
	Kind        string          `json:"kind"`
	Source      string          `json:"source"`
	Concurrent  bool            `json:"concurrent"` // false: a barrier in batch calls
	Validation  string          `json:"validation"` // "on", or "off: <why the schema did not compile>"
}

// ToolList is the answer of GET /beeuni/tools.
type ToolList struct {
	Release string     `json:"release"`
	Agent   string     `json:"agent"`
	Tools   []ToolInfo `json:"tools"`
	Failed  []Failure  `json:"failed"`
}

func (s *Server) handleCall(w http.ResponseWriter, r *http.Request) {
	name := r.PathValue("name")
	c, err := callHeaders(r)
	if err != nil {
		s.metrics.called(unknownTool, outcomeBadRequest, 0)
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	ts, done := s.acquire(c.session)
	defer done()
	if ts == nil {
		s.metrics.called(unknownTool, outcomeUnavailable, 0)
		writeError(w, http.StatusServiceUnavailable, errNoToolSet.Error())
		return
	}
	if _, ok := ts.set.Tool(name); !ok {
		s.metrics.called(unknownTool, outcomeNotLoaded, 0)
		writeError(w, http.StatusNotFound, notLoadedText(name))
		return
	}
	if !ts.project.VisibleTo(c.agent, c.parent, name) {
		s.metrics.called(name, outcomeHidden, 0)
		writeError(w, http.StatusForbidden, hiddenFor(ts.project, name, c))
		return
	}
	args, status, err := readArgs(w, r, s.opts.MaxBodyBytes)
	if err != nil {
		outcome := outcomeBadRequest
		if status == http.StatusRequestEntityTooLarge {
			outcome = outcomeTooLarge
		}
		s.metrics.called(name, outcome, 0)
		writeError(w, status, err.Error())
		return
	}

	inv, err := s.invoke(r.Context(), ts, name, c.agent, c.session, args, s.opts.ValidateArgs.forREST())
	if err != nil {
		outcome, status := outcomeBadRequest, http.StatusBadRequest
		if errors.Is(err, jshost.ErrNotLoaded) {
			outcome, status = outcomeNotLoaded, http.StatusNotFound
			err = errors.New(notLoadedText(name))
		}
		s.metrics.called(name, outcome, 0)
		writeError(w, status, err.Error())
		return
	}

	// The read and idle timeouts do not bound a response to a client that
	// stopped reading; this does, counted from when the answer is ready.
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
	res := inv.res
	s.writeAnswer(w, CallResponse{Output: res.Output, IsError: res.IsError, Release: ts.Release(), Spilled: res.Spilled,
		InvalidArguments: inv.problems})
}

// notLoadedText is the answer for a tool that is not loaded (the 404's).
func notLoadedText(name string) string { return fmt.Sprintf("no tool named %s is loaded", name) }

// hiddenText is the answer for a tool the agent does not see (the 403's).
func hiddenText(name, agent string) string {
	return fmt.Sprintf("tool %s is hidden from agent %s: add %s to agents.%s.tools in beeuni.yaml (or take it out of that agent's exclude list), or call it as an agent that sees it",
		name, agent, name, agent)
}

// readArgs reads a tool call's body: a JSON object of the arguments, empty
// meaning {}. On failure it returns the status to answer (400 or 413) and a
// message saying what to send.
func readArgs(w http.ResponseWriter, r *http.Request, limit int64) (json.RawMessage, int, error) {
	body, err := httpbody.Read(w, r, limit)
	if err != nil {
		if httpbody.TooLarge(err) {
			return nil, http.StatusRequestEntityTooLarge, fmt.Errorf("the body is over the %d-byte limit: send smaller arguments (write large data to a file and pass its path)", limit)
		}
		return nil, http.StatusBadRequest, fmt.Errorf("read the body: %w", err)
	}
	args, err := parseArgs(body)
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	return args, 0, nil
}

// parseArgs checks that body is one JSON object (or empty, meaning {}).
func parseArgs(body []byte) (json.RawMessage, error) {
	trimmed := bytes.Trim(body, " \t\r\n") // JSON's whitespace, not Unicode's
	if len(trimmed) == 0 {
		return json.RawMessage("{}"), nil
	}
	if !json.Valid(trimmed) {
		var v any
		err := json.Unmarshal(trimmed, &v)
		return nil, fmt.Errorf("the body is not valid JSON (%v): send the arguments as a JSON object, e.g. {\"query\": \"...\"}", err)
	}
	if trimmed[0] != '{' {
		return nil, fmt.Errorf("the body is JSON %s, not an object: send the arguments as a JSON object, e.g. {\"query\": \"...\"}", jsonKind(trimmed[0]))
	}
	return json.RawMessage(trimmed), nil
}

func jsonKind(first byte) string {
	switch first {
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// env is a call's context.env: the executor's environment plus the secrets
// agent is granted, as they are now. Without secrets it is the snapshot
// itself, not a copy: nothing writes to it (the JS host copies it into the
// call's own object), so each call need not clone it.
func (s *Server) env(ts *ToolSet, agent string) map[string]string {
	if s.opts.Secrets == nil {
		return s.opts.Env
	}
	all, names := ts.project.Secrets(agent)
	if !all && len(names) == 0 {
		return s.opts.Env
	}
	env := maps.Clone(s.opts.Env)
	if env == nil {
		env = make(map[string]string)
	}
	secrets := s.opts.Secrets()
	if all {
		maps.Copy(env, secrets)
		return env
	}
	for _, n := range names {
		if v, ok := secrets[n]; ok {
			env[n] = v
		}
	}
	return env
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	c, ts, done, ok := s.agentSet(w, r)
	if !ok {
		return
	}
	defer done()
	list := ToolList{Release: ts.Release(), Agent: c.agent, Tools: []ToolInfo{}, Failed: []Failure{}}
	for _, t := range ts.Tools() {
		if !ts.project.VisibleTo(c.agent, c.parent, t.Name) {
			continue
		}
		info := ToolInfo{Name: t.Name, Description: t.Description, Parameters: t.Parameters, Source: t.Source,
			Concurrent: t.Concurrent, Validation: ts.validationStatus(t.Name)}
		if mt, ok := ts.project.Tool(t.Name); ok {
			info.Kind = string(mt.Kind)
		}
		list.Tools = append(list.Tools, info)
	}
	list.Failed = append(list.Failed, ts.Failures()...)
	writeJSON(w, http.StatusOK, list)
}

// TurnResponse answers POST and DELETE /beeuni/sessions/{id}/turn.
type TurnResponse struct {
	Session string `json:"session"`
	Turn    string `json:"turn"`    // "running" or "ended"
	Release string `json:"release"` // the release the session's calls use now
}

func (s *Server) handleBeginTurn(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	release, err := s.beginTurn(id)
	switch {
	case errors.Is(err, errBadSessionID):
		writeError(w, http.StatusBadRequest, err.Error())
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, err.Error())
	default:
		writeJSON(w, http.StatusOK, TurnResponse{Session: id, Turn: "running", Release: release})
	}
}

func (s *Server) handleEndTurn(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	release, err := s.endTurn(id)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, TurnResponse{Session: id, Turn: "ended", Release: release})
}

// Status is the answer of GET /beeuni/status. It carries no secret and no
// environment value.
type Status struct {
	ID           string    `json:"id"`
	Release      string    `json:"release"`
	Desired      string    `json:"desired,omitempty"`
	State        string    `json:"state"` // "starting", "converging" or "converged"
	Error        string    `json:"error,omitempty"`
	Switched     time.Time `json:"switched,omitzero"`
	Tools        []string  `json:"tools"`
	Failed       []Failure `json:"failed"`
	TurnsRunning int       `json:"turns_running"`
}

// Status reports the executor's state, as GET /beeuni/status does.
func (s *Server) Status() Status {
	s.mu.RLock()
	cur, st, switched := s.cur, s.state, s.switched
	s.mu.RUnlock()
	out := Status{ID: s.opts.ID, Desired: st.Desired, Error: st.Error, Switched: switched,
		Tools: []string{}, Failed: []Failure{}, TurnsRunning: s.turnsRunning()}
	switch {
	case cur == nil:
		out.State = "starting"
	case st.Converging || (st.Desired != "" && st.Desired != cur.Release()):
		out.State = "converging"
	default:
		out.State = "converged"
	}
	if cur != nil {
		// Reading an immutable set's fields needs no reference.
		out.Release = cur.Release()
		for _, t := range cur.Tools() {
			out.Tools = append(out.Tools, t.Name)
		}
		out.Failed = append(out.Failed, cur.Failures()...)
	}
	return out
}

func (s *Server) handleStatus(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, s.Status())
}

func (s *Server) handleReady(w http.ResponseWriter, _ *http.Request) {
	cur := s.Current()
	if cur == nil {
		writeError(w, http.StatusServiceUnavailable, errNoToolSet.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"status": "ready", "release": cur.Release()})
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	writeJSONBuf(w, status, v, &buf)
}

// writeAnswer writes a call's answer, encoded into a recycled buffer: the
// answer carries the tool's whole output, and growing a fresh buffer to it
// on every call showed in the profile.
func (s *Server) writeAnswer(w http.ResponseWriter, v CallResponse) {
	buf := s.answerBufs.Get().(*bytes.Buffer)
	buf.Reset()
	writeJSONBuf(w, http.StatusOK, v, buf)
	if buf.Cap() <= maxPooledAnswer { // a rare huge answer's buffer is not kept
		s.answerBufs.Put(buf)
	}
}

const maxPooledAnswer = 256 << 10

func writeJSONBuf(w http.ResponseWriter, status int, v any, buf *bytes.Buffer) {
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only our own types are encoded here; failing means a bug.
		http.Error(w, `{"error":"encode the answer: internal error"}`, http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(status)
	_, _ = w.Write(buf.Bytes())
}
