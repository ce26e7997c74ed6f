package executor

import (
	"maps"
	"path/filepath"
	"slices"
)

// EnvToken is the environment variable of the executor's bearer token
// (--token). BEEUNI_TOKEN is not it: that is the Beeuni API token the
// web_search and image_search tools read from context.env.
const EnvToken = "BEEUNI_EXECUTOR_TOKEN"

// secretEnv are the environment variables beeuni reads for its own
// credentials and key paths.
var secretEnv = []string{
	EnvToken,
	"BEEUNI_CONTROLLER_TOKEN", // the controller's --token
	"BEEUNI_HOOK_SECRET",      // the merge hook's HMAC key
	"BEEUNI_NATS_URL",         // may carry NATS credentials (nats://user:pass@host)
	"BEEUNI_TRUST_KEY",        // a key path
}

// SecretEnvNames are the environment variables no tool may see: not in
// context.env, not in process.env, not in the environment of a process a
// tool starts. They hold beeuni's own credentials (its tokens, the hook
// secret, NATS credentials) and key paths. A secret granted to an agent
// is never one of them: BEEUNI_TOKEN, the Beeuni API token, is not.
func (c Config) SecretEnvNames() []string { return slices.Clone(secretEnv) }

// Protected is the executor's own state as tool code must be held to it.
// A rule on a deeper path wins over one on a path above it.
type Protected struct {
	// Hidden are files and folders tools may neither read nor write.
	Hidden []string
	// ReadOnly are folders tools may read and never change: the laid-out
	// releases (a tool reads files beside its module there).
	ReadOnly []string
}

// ProtectedPaths are the executor's state, and what Config.Protect adds,
// as absolute paths: its bbolt file, content cache and spare layout are
// hidden; release folders are read-only. The workspace (context.directory)
// is not among them, even when it is inside the data folder.
func (c Config) ProtectedPaths() Protected {
	abs := func(p string) string {
		if a, err := filepath.Abs(p); err == nil {
			return a
		}
		return p
	}
	p := Protected{
		Hidden:   []string{abs(filepath.Join(c.DataDir, dbName)), abs(casDir(c.DataDir)), abs(spareDir(c.DataDir))},
		ReadOnly: []string{abs(releasesDir(c.DataDir))},
	}
	for _, x := range c.Protect {
		p.Hidden = append(p.Hidden, abs(x))
	}
	return p
}

// withoutSecrets is env without the variables named in SecretEnvNames.
func withoutSecrets(env map[string]string) map[string]string {
	out := maps.Clone(env)
	for _, k := range secretEnv {
		delete(out, k)
	}
	return out
}
