package executor

import (
	"path/filepath"
	"slices"
	"testing"
)

func TestSecretsNeverInContextEnv(t *testing.T) {
	env := map[string]string{"PATH": "/bin", "BEEUNI_TOKEN": "api", "HOME": "/h"}
	for _, name := range (Config{}).SecretEnvNames() {
		env[name] = "secret"
	}
	got := withoutSecrets(env)
	want := map[string]string{"PATH": "/bin", "BEEUNI_TOKEN": "api", "HOME": "/h"}
	if len(got) != len(want) {
		t.Fatalf("withoutSecrets = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Fatalf("withoutSecrets = %v, want %v", got, want)
		}
	}
	for _, name := range []string{"BEEUNI_EXECUTOR_TOKEN", "BEEUNI_CONTROLLER_TOKEN", "BEEUNI_HOOK_SECRET", "BEEUNI_NATS_URL"} {
		if !slices.Contains((Config{}).SecretEnvNames(), name) {
			t.Errorf("SecretEnvNames lacks %s", name)
		}
	}
}

func TestProtectedPaths(t *testing.T) {
	data := t.TempDir()
	p := Config{DataDir: data, Protect: []string{"/keys/signing.key"}}.ProtectedPaths()
	hidden := []string{filepath.Join(data, "executor.db"), filepath.Join(data, "cas"), filepath.Join(data, "spare"), "/keys/signing.key"}
	if !slices.Equal(p.Hidden, hidden) || !slices.Equal(p.ReadOnly, []string{filepath.Join(data, "releases")}) {
		t.Fatalf("ProtectedPaths = %+v", p)
	}
}
