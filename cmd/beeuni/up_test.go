package main

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
)

// TestNATSLoggerQuiet: the embedded NATS server's notices (its startup
// banner) are dropped unless --nats-log or a debug log level asks for them;
// its warnings always pass.
func TestNATSLoggerQuiet(t *testing.T) {
	cases := []struct {
		name        string
		level       slog.Level
		verbose     bool
		wantNotices bool
	}{
		{"default", slog.LevelInfo, false, false},
		{"--nats-log", slog.LevelInfo, true, true},
		{"BEEUNI_LOG_LEVEL=debug", slog.LevelDebug, false, true},
		{"BEEUNI_LOG_LEVEL=warn", slog.LevelWarn, false, false},
	}
	for _, tc := range cases {
		var buf bytes.Buffer
		log := slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: tc.level}))
		nl := (&app{}).natsLogger(log, tc.verbose).With("component", "nats-server")
		nl.Info("Starting nats-server")
		nl.Warn("JetStream is low on disk")
		out := buf.String()
		if got := strings.Contains(out, "Starting nats-server"); got != tc.wantNotices {
			t.Errorf("%s: notice logged = %v, want %v:\n%s", tc.name, got, tc.wantNotices, out)
		}
		if !strings.Contains(out, "JetStream is low on disk") {
			t.Errorf("%s: the warning was dropped:\n%s", tc.name, out)
		}
	}
}
