package jshost

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/loader/bundle"
)

// project writes files (path -> content) into a temp checkout.
func project(tb testing.TB, files map[string]string) string {
	tb.Helper()
	root := tb.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

// logBuffer is a slog handler target safe for concurrent writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// loadTools loads one tool per file (name = file base without extension).
func loadTools(tb testing.TB, root string, opts Options, paths ...string) (*Set, *logBuffer) {
	tb.Helper()
	logs := &logBuffer{}
	opts.Root = root
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	if opts.TempDir == "" {
		opts.TempDir = tb.TempDir()
	}
	if opts.Bundler == nil {
		opts.Bundler = bundle.New(nil)
	}
	specs := make([]Spec, len(paths))
	for i, p := range paths {
		base := filepath.Base(p)
		specs[i] = Spec{Name: base[:len(base)-len(filepath.Ext(base))], Source: p, Path: p}
	}
	s := Load(context.Background(), specs, opts)
	tb.Cleanup(s.Close)
	return s, logs
}

// call calls name with args (JSON) and fails the test on a Go error.
func call(tb testing.TB, s *Set, name, args string) Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	r, err := s.Call(ctx, name, json.RawMessage(args), CallContext{SessionID: "s1", Agent: "beeuni", Env: map[string]string{"K": "v"}})
	if err != nil {
		tb.Fatalf("call %s: %v", name, err)
	}
	return r
}

// mustLoad fails unless every tool loaded.
func mustLoad(tb testing.TB, s *Set) {
	tb.Helper()
	for _, f := range s.Failures() {
		tb.Fatalf("tool %s did not load: %s", f.Name, f.Reason)
	}
}
