package controller

import (
	"encoding/json"
	"net/http"

	"github.com/beeuni/beeuni/internal/httpauth"
)

// Handler serves POST /hooks/merge (the CI merge hook, guarded by its
// HMAC) and GET /status (guarded by Config.Token when set).
func (c *Controller) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /hooks/merge", c.handleHook)
	mux.Handle("GET /status", c.RequireToken(http.HandlerFunc(c.handleStatus)))
	return mux
}

// EnvToken is the environment variable of the controller's --token.
const EnvToken = "BEEUNI_CONTROLLER_TOKEN"

// RequireToken guards h with Config.Token (for /metrics, served beside
// Handler); without a token it is h.
func (c *Controller) RequireToken(h http.Handler) http.Handler {
	return httpauth.Require(c.cfg.Token, "the controller's token (its --token or "+EnvToken+")", h)
}

func (c *Controller) handleHook(w http.ResponseWriter, r *http.Request) {
	req, code, msg := parseHook(r, c.cfg.HookSecret)
	if msg != "" {
		c.metrics.hooks.WithLabelValues("refused").Inc()
		writeJSON(w, code, map[string]string{"error": msg})
		return
	}
	c.metrics.hooks.WithLabelValues("accepted").Inc()
	commit := req.Commit
	if commit == "" {
		commit = c.branchHead()
	}
	c.log.Info("merge hook: looking at the branch now", "commit", commit)
	c.Nudge()
	writeJSON(w, http.StatusAccepted, map[string]string{"status": "accepted", "commit": commit, "branch": c.cfg.Branch})
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
