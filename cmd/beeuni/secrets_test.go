package main

import (
	"context"
	"strings"
	"testing"
)

func TestSecretsSet(t *testing.T) {
	f := newOpFixture(t)
	cases := []struct {
		name, stdin string
		code        int
		want        string // the stored value when code is 0
		msg         string // in stdout (success) or stderr (failure)
	}{
		{"one newline trimmed", "s3cr3t-one\n", exitOK, "s3cr3t-one", "Secret API_TOKEN set for project demo (10 bytes). Agents granted it see it in context.env at their next call.\n"},
		{"only one newline", "s3cr3t-two\n\n", exitOK, "s3cr3t-two\n", "(11 bytes)"},
		{"crlf", "s3cr3t-three\r\n", exitOK, "s3cr3t-three", "(12 bytes)"},
		{"no newline, spaces kept", "  s3cr3t four ", exitOK, "  s3cr3t four ", "(14 bytes)"},
		{"empty", "", exitFailure, "", "standard input was empty"},
		{"just a newline", "\n", exitFailure, "", "standard input was empty"},
		{"too large", "s3cr3t-" + strings.Repeat("x", maxSecretBytes), exitFailure, "", "longer than 65536 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if err := f.bus.DeleteSecret(context.Background(), opProject, "API_TOKEN"); err != nil {
				t.Fatal(err)
			}
			r := f.run(tc.stdin, "secrets", "set", "API_TOKEN=-")
			if r.code != tc.code {
				t.Fatalf("exit %d, want %d: %+v", r.code, tc.code, r)
			}
			if strings.Contains(r.stdout+r.stderr, "s3cr3t") {
				t.Errorf("the value was printed: %+v", r)
			}
			got, err := f.bus.Secrets(context.Background(), opProject)
			if err != nil {
				t.Fatal(err)
			}
			v, stored := got["API_TOKEN"]
			if tc.code != exitOK {
				if stored || !strings.Contains(r.stderr, tc.msg) {
					t.Errorf("stored %v, stderr %q, want %q", stored, r.stderr, tc.msg)
				}
				return
			}
			if v != tc.want || !strings.Contains(r.stdout, tc.msg) || r.stderr != "" {
				t.Errorf("stored %q, output %+v; want %q and %q", v, r, tc.want, tc.msg)
			}
		})
	}
}

func TestSecretsSetRefusesValueOnCommandLine(t *testing.T) {
	f := newOpFixture(t)
	r := f.run("", "secrets", "set", "API_TOKEN=s3cr3t-inline")
	if r.code != exitUsage || strings.Contains(r.stdout+r.stderr, "s3cr3t") ||
		!strings.Contains(r.stderr, "write API_TOKEN=- and give the value on standard input") {
		t.Fatalf("inline value = %+v", r)
	}
	got, err := f.bus.Secrets(context.Background(), opProject)
	if err != nil || len(got) != 0 {
		t.Fatalf("secrets after a refused set = %v, %v", got, err)
	}
}
