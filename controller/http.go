package controller

import (
	"encoding/json"
	"net/http"
)

// Handler serves POST /hooks/merge (the CI merge hook) and GET /status.
func (c *Controller) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hooks/merge", c.handleHook)
	mux.HandleFunc("GET /status", c.handleStatus)
	return mux
}

func (c *Controller) handleHook(w http.ResponseWriter, r *http.Request) {
	req, code, msg := parseHook(r, c.cfg.HookSecret)
	if msg != "" {
		c.metrics.hooks.WithLabelValues("refused").Inc()
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	c.metrics.hooks.WithLabelValues("accepted").Inc()
	c.log.Info("merge hook: looking at the branch now", "commit", req.Commit)
	c.Nudge()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "accepted", "commit": req.Commit})
}

func (c *Controller) handleStatus(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, c.Status())
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	_ = enc.Encode(v)
}
