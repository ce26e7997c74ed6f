package events

import (
	"errors"
	"strings"
	"testing"
)

func TestCheckProject(t *testing.T) {
	for _, tc := range []struct {
		name    string
		wantErr string // "" = valid
	}{
		{"demo", ""},
		{"my-project_2", ""},
		{"A", ""},
		{strings.Repeat("a", maxTokenLen), ""},
		{"", "project name is empty (pass --project"},
		{"my.project", `project name "my.project" has '.' at byte 2; use only letters, digits, '-' and '_' (pass --project`},
		{"my project", `has ' ' at byte 2`},
		{"a*", `has '*' at byte 1`},
		{"a>", `has '>' at byte 1`},
		{"é", `has a non-ASCII character at byte 0`},
		{strings.Repeat("a", maxTokenLen+1), "longer than 128"},
	} {
		err := CheckProject(tc.name)
		if tc.wantErr == "" {
			if err != nil {
				t.Errorf("CheckProject(%q) = %v, want nil", tc.name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !errors.Is(err, ErrInvalidName) {
			t.Errorf("CheckProject(%q) = %v, want ErrInvalidName containing %q", tc.name, err, tc.wantErr)
		}
	}
}

func TestCheckOthers(t *testing.T) {
	for _, tc := range []struct {
		what  string
		check func(string) error
		in    string
		ok    bool
	}{
		{"executor", CheckExecutorID, "sandbox-1", true},
		{"executor", CheckExecutorID, "sandbox.1", false},
		{"secret", CheckSecretName, "API_KEY", true},
		{"secret", CheckSecretName, "API KEY", false},
		{"type", CheckEventType, "release.built", true},
		{"type", CheckEventType, "tools.load_failed", true},
		{"type", CheckEventType, "release..built", false},
		{"type", CheckEventType, "release.>", false},
		{"type", CheckEventType, "", false},
		{"release", CheckReleaseID, "000042-1a2b3c", true},
		{"release", CheckReleaseID, "v1.2", true},
		{"release", CheckReleaseID, ".hidden", false},
		{"release", CheckReleaseID, "a/b", false},
		{"digest", CheckDigest, strings.Repeat("ab", 32), true},
		{"digest", CheckDigest, strings.Repeat("AB", 32), false},
		{"digest", CheckDigest, strings.Repeat("a", 63), false},
		{"digest", CheckDigest, strings.Repeat("g", 64), false},
		{"digest", CheckDigest, "../" + strings.Repeat("a", 61), false},
	} {
		err := tc.check(tc.in)
		if (err == nil) != tc.ok {
			t.Errorf("%s %q: err = %v, want ok=%v", tc.what, tc.in, err, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalidName) {
			t.Errorf("%s %q: %v is not ErrInvalidName", tc.what, tc.in, err)
		}
	}
}

// FuzzCheckToken: whatever is accepted is one safe subject token (nothing a
// subject or KV key would split or match on), and every rejection explains.
func FuzzCheckToken(f *testing.F) {
	for _, s := range []string{"demo", "", "a.b", "a b", "a*", "a>", "\x00", "é", "a\tb", strings.Repeat("x", 200)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := CheckProject(s)
		if err != nil {
			if !errors.Is(err, ErrInvalidName) || !strings.Contains(err.Error(), "--project") {
				t.Fatalf("CheckProject(%q) = %v: want ErrInvalidName naming --project", s, err)
			}
			return
		}
		if s == "" || len(s) > maxTokenLen || strings.ContainsAny(s, ". *>\t\r\n/\\\x00") {
			t.Fatalf("CheckProject accepted %q", s)
		}
		for _, r := range s {
			if r > 127 {
				t.Fatalf("CheckProject accepted non-ASCII %q", s)
			}
		}
		subj := EventSubject(s, EventReleaseBuilt)
		if got := strings.Count(subj, "."); got != 4 {
			t.Fatalf("subject %q has %d dots, want 4", subj, got)
		}
	})
}
