package executor

import (
	"net/http"

	"github.com/beeuni/beeuni/loader/schema"
)

// handleRender is GET /beeuni/render (SPEC-beyond §3.1): the tools an
// agent sees in the set its session uses, rendered for a provider's
// request, with the findings.
func (s *Server) handleRender(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	p, err := schema.ParseProvider(q.Get("provider"))
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	opts := schema.Options{Provider: p, API: q.Get("api"), GeminiSchema: q.Get("gemini_schema")}
	switch {
	case q.Has("api") && p != schema.OpenAI && p != schema.OpenAIStrict:
		writeError(w, http.StatusBadRequest, "api applies to provider openai and openai-strict only")
		return
	case q.Has("gemini_schema") && p != schema.Gemini:
		writeError(w, http.StatusBadRequest, "gemini_schema applies to provider gemini only")
		return
	}
	if _, err := schema.Render(nil, opts); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	c, ts, done, ok := s.agentSet(w, r)
	if !ok {
		return
	}
	defer done()
	agent := c.agent
	var tools []schema.Tool
	for _, t := range ts.Tools() {
		if ts.project.VisibleTo(c.agent, c.parent, t.Name) {
			tools = append(tools, schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
	}
	var notLoaded []schema.Finding
	for _, f := range ts.Failures() {
		if f.Name != "" && ts.project.VisibleTo(c.agent, c.parent, f.Name) {
			notLoaded = append(notLoaded, schema.NotLoaded(p, f.Name, f.Reason))
		}
	}
	res, _ := schema.Render(tools, opts)
	out := schema.NewRendering(opts, agent, res, notLoaded)
	out.Release = ts.Release()
	body, err := schema.JSON(out)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "encode the rendering: internal error")
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(append(body, '\n'))
}

// agentSet reads ?agent= (default beeuni) and takes the set the request's
// session uses, with a reference (done gives it back). On failure it has
// answered 400 or 503 and ok is false.
func (s *Server) agentSet(w http.ResponseWriter, r *http.Request) (c caller, ts *ToolSet, done func(), ok bool) {
	c, err := callHeaders(r)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return caller{}, nil, nil, false
	}
	c.agent = r.URL.Query().Get("agent")
	if c.agent == "" {
		c.agent = DefaultAgent
	}
	ts, done = s.acquire(c.session)
	if ts == nil {
		done()
		writeError(w, http.StatusServiceUnavailable, errNoToolSet.Error())
		return caller{}, nil, nil, false
	}
	return c, ts, done, true
}
