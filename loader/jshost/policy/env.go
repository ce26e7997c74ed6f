package policy

import (
	"maps"
	"net/url"
	"strings"
)

// HiddenEnv are the variables no tool ever sees: beeuni's own credentials
// and key paths. BEEUNI_TOKEN is not one: it is the Beeuni API token the
// web_search and image_search tools read.
var HiddenEnv = []string{
	"BEEUNI_EXECUTOR_TOKEN",   // the executor's bearer token
	"BEEUNI_CONTROLLER_TOKEN", // the controller's bearer token
	"BEEUNI_HOOK_SECRET",      // the merge hook's HMAC key
	"BEEUNI_TRUST_KEY",        // key paths
	"BEEUNI_SIGNING_KEY",
	"BEEUNI_NATS_CREDS", // NATS credentials (a .creds file, an nkey seed)
	"BEEUNI_NATS_NKEY",
}

// natsURLEnv may carry credentials (nats://user:pass@host): hidden then.
var natsURLEnv = []string{"BEEUNI_NATS_URL", "NATS_URL"}

type envRules struct {
	names  map[string]bool
	values map[string]bool
}

func newEnvRules(names, values []string) envRules {
	e := envRules{names: map[string]bool{}, values: map[string]bool{}}
	for _, n := range append(append([]string(nil), HiddenEnv...), names...) {
		e.names[n] = true
	}
	for _, v := range values {
		if v != "" {
			e.values[v] = true
		}
	}
	return e
}

// EnvVisible reports whether a tool may see the variable name=value.
func (p *Policy) EnvVisible(name, value string) bool {
	if p.env.names[name] || p.env.values[value] {
		return false
	}
	for _, n := range natsURLEnv {
		if name == n && hasCredentials(value) {
			return false
		}
	}
	return true
}

// Env is env without what tools may not see (a copy; env is not changed).
// When nothing is hidden it returns env itself.
func (p *Policy) Env(env map[string]string) map[string]string {
	var out map[string]string
	for k, v := range env {
		if p.EnvVisible(k, v) {
			continue
		}
		if out == nil {
			out = maps.Clone(env)
		}
		delete(out, k)
	}
	if out == nil {
		return env
	}
	return out
}

// hasCredentials reports whether a URL list (comma-separated) carries a
// user or a token.
func hasCredentials(v string) bool {
	for s := range strings.SplitSeq(v, ",") {
		if u, err := url.Parse(strings.TrimSpace(s)); err == nil && u.User != nil {
			return true
		}
	}
	return false
}
