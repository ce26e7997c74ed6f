package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/beeuni/beeuni/internal/redact"
)

// newLogger is the process logger of the long-running commands: text to
// stderr, level from BEEUNI_LOG_LEVEL (debug, info, warn, error).
func (a *app) newLogger() *slog.Logger {
	var level slog.Level
	if err := level.UnmarshalText([]byte(a.getenv("BEEUNI_LOG_LEVEL"))); err != nil {
		level = slog.LevelInfo
	}
	return slog.New(slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: level, ReplaceAttr: redactAttr}))
}

// redactAttr takes the credentials out of every URL a log value quotes
// (a repository URL in a retried error). The text handler quotes values
// with control characters itself.
func redactAttr(_ []string, a slog.Attr) slog.Attr {
	switch v := a.Value.Any().(type) {
	case string:
		a.Value = slog.StringValue(redact.Text(v))
	case error:
		a.Value = slog.StringValue(redact.Text(v.Error()))
	}
	return a
}

// newRegistry is a registry with the Go and process collectors, for /metrics.
func newRegistry() *prometheus.Registry {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return reg
}

// serveHTTP serves h on addr until ctx ends, then drains for a few seconds.
func serveHTTP(ctx context.Context, addr string, h http.Handler, log *slog.Logger) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w (choose another address with --listen)", addr, err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second, ReadTimeout: time.Minute,
		WriteTimeout: time.Minute, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	log.Info("serving HTTP", "addr", ln.Addr().String())
	select {
	case err := <-done:
		return fmt.Errorf("serve on %s: %w", addr, err)
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("HTTP requests still running at shutdown were cut", "addr", addr, "error", err)
	}
	if err := <-done; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// defaultID is an executor id from the host name, as a NATS token.
func defaultID() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "executor"
	}
	return projectToken(h)
}

// envSnapshot is the process environment, the base of every call's context.env.
func envSnapshot() map[string]string { return environ() }
