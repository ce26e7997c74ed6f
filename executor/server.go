package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/beeuni/beeuni/internal/httpauth"
)

// Defaults of Options.
const (
	DefaultAddr              = "127.0.0.1:7420"
	DefaultMaxBodyBytes      = 1 << 20
	DefaultTurnIdleTimeout   = time.Hour
	DefaultMaxTurns          = 10000
	DefaultReadHeaderTimeout = 10 * time.Second
	DefaultReadTimeout       = time.Minute
	DefaultIdleTimeout       = 2 * time.Minute
	DefaultWriteTimeout      = 30 * time.Second // per response, counted once the tool has answered
	DefaultMaxHeaderBytes    = 64 << 10
	DefaultDrainTimeout      = 90 * time.Second // longer than the default call deadline (60s)
	DefaultAgent             = "beeuni"
)

// Options configure a Server. Zero values take the Default* constants.
type Options struct {
	ID       string       // the executor's id, shown by /beeuni/status
	Addr     string       // where Run listens when Listener is nil
	Listener net.Listener // optional: Run serves on it (and closes it)
	// Token, when set, is required as "Authorization: Bearer <Token>" (the
	// scheme in any case) on every route but /healthz.
	Token        string
	MaxBodyBytes int64
	// Env is the executor's environment, a snapshot taken at start; every
	// call's context.env starts from it. Never logged.
	Env map[string]string
	// Secrets returns the project's secrets as they are now (name -> value).
	// Called once per tool call; nil means no secrets. Values are never logged.
	Secrets func() map[string]string

	TurnIdleTimeout time.Duration // a turn idle this long is ended
	MaxTurns        int           // running turns at most; beyond, POST .../turn answers 503

	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a request, body included. It does not
	// bound the call: net/http lifts the read deadline once the body is read.
	ReadTimeout    time.Duration
	IdleTimeout    time.Duration
	WriteTimeout   time.Duration // writing a response, counted once it is ready
	MaxHeaderBytes int
	DrainTimeout   time.Duration // how long Run waits for calls in flight at shutdown

	Logger   *slog.Logger
	Registry *prometheus.Registry // /metrics serves it; nil: a new one (see Registry)

	// ValidateArgs is --validate-args (SPEC-beyond §1.2); MCPAllowedOrigins
	// is --mcp-allowed-origins (§4.3); Version is the binary's, for MCP's
	// serverInfo.
	ValidateArgs      ValidateMode
	MCPAllowedOrigins []string
	Version           string

	// OnSwitch, when set, is called with each tool set Switch makes current,
	// in the order of the switches (e.g. to write the default runtime's
	// plugin). It must not call Switch, and may only read ts's tools and
	// manifest: a shutdown may free the set meanwhile.
	OnSwitch func(ts *ToolSet)

	// IdleRelease, when positive, gives the heap back to the OS after the
	// server has gone that long without a call or a switch (beeuni
	// executor and up: 2s). 0 leaves it to the Go runtime.
	IdleRelease time.Duration
}

func (o *Options) setDefaults() {
	def := func(d *time.Duration, v time.Duration) {
		if *d <= 0 {
			*d = v
		}
	}
	if o.Addr == "" {
		o.Addr = DefaultAddr
	}
	if o.MaxBodyBytes <= 0 {
		o.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if o.MaxTurns <= 0 {
		o.MaxTurns = DefaultMaxTurns
	}
	if o.MaxHeaderBytes <= 0 {
		o.MaxHeaderBytes = DefaultMaxHeaderBytes
	}
	def(&o.TurnIdleTimeout, DefaultTurnIdleTimeout)
	def(&o.ReadHeaderTimeout, DefaultReadHeaderTimeout)
	def(&o.ReadTimeout, DefaultReadTimeout)
	def(&o.IdleTimeout, DefaultIdleTimeout)
	def(&o.WriteTimeout, DefaultWriteTimeout)
	def(&o.DrainTimeout, DefaultDrainTimeout)
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Registry == nil {
		o.Registry = prometheus.NewRegistry()
	}
	o.Env = maps.Clone(o.Env)
}

// State is what the converger tells the server about converging, for
// /beeuni/status. The release served comes from the current tool set.
type State struct {
	Desired    string `json:"desired,omitempty"` // the release the fleet must run
	Converging bool   `json:"converging"`        // loading or fetching Desired now
	Error      string `json:"error,omitempty"`   // the last converging error, "" once converged
}

// Server serves one executor's HTTP API on the current tool set and keeps
// running turns on the sets they began on. Create it with New, feed it tool
// sets with Switch, serve with Run.
type Server struct {
	opts    Options
	log     *slog.Logger
	metrics *metrics
	mux     *http.ServeMux
	public  map[string]bool // patterns that need no token
	now     func() time.Time

	inFlight   atomic.Int64  // tool calls running now
	activity   atomic.Uint64 // calls and switches so far, for releaseWhenIdle
	answerBufs sync.Pool     // *bytes.Buffer for call answers

	switchMu sync.Mutex // one Switch at a time, so metrics and logs follow the order of switches

	mu       sync.RWMutex
	cur      *ToolSet // holds the server's reference
	stopped  bool     // Run has ended: Switch discards
	switched time.Time
	state    State

	turnsMu sync.Mutex
	turns   map[string]*turn

	mcp *mcpEndpoint // /beeuni/mcp (mcp.go)

	undeclared undeclaredLog // agents not in beeuni.yaml, logged once each
}

// NewServer makes a Server. Its metrics are registered on opts.Registry.
func NewServer(opts Options) (*Server, error) {
	opts.setDefaults()
	s := &Server{
		opts:   opts,
		log:    opts.Logger.With(slog.String("component", "executor")),
		mux:    http.NewServeMux(),
		public: map[string]bool{"GET /healthz": true},
		now:    time.Now,
		turns:  make(map[string]*turn),
	}
	s.answerBufs.New = func() any { return new(bytes.Buffer) }
	m, err := newMetrics(opts.Registry,
		func() float64 { return float64(s.turnsRunning()) },
		func() float64 { return float64(s.inFlight.Load()) })
	if err != nil {
		return nil, err
	}
	s.metrics = m
	s.mcp = newMCPEndpoint(s)
	s.routes()
	return s, nil
}

func (s *Server) routes() {
	s.mux.HandleFunc("POST /beeuni/tools/{name}", s.handleCall)
	s.mux.HandleFunc("GET /beeuni/tools", s.handleList)
	s.mux.HandleFunc("POST /beeuni/sessions/{id}/turn", s.handleBeginTurn)
	s.mux.HandleFunc("DELETE /beeuni/sessions/{id}/turn", s.handleEndTurn)
	s.mux.HandleFunc("GET /beeuni/status", s.handleStatus)
	s.mux.HandleFunc("POST /beeuni/batch", s.handleBatch)
	s.mux.HandleFunc("GET /beeuni/render", s.handleRender)
	s.mux.Handle("/beeuni/mcp", s.mcp)
	s.mux.Handle("/beeuni/mcp/agents/{agent}", s.mcp)
	s.mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	s.mux.HandleFunc("GET /readyz", s.handleReady)
	s.mux.Handle("GET /metrics", promhttp.HandlerFor(s.opts.Registry, promhttp.HandlerOpts{}))
}

// Handle adds a route (net/http pattern) that needs the token like the
// executor's own. Call it before Run.
func (s *Server) Handle(pattern string, h http.Handler) { s.mux.Handle(pattern, h) }

// HandlePublic adds a route that needs no token (e.g. the merge hook, which
// checks its own signature). Call it before Run.
func (s *Server) HandlePublic(pattern string, h http.Handler) {
	s.mux.Handle(pattern, h)
	s.public[pattern] = true
}

// Handler is the executor's HTTP API, with token checks.
func (s *Server) Handler() http.Handler { return http.HandlerFunc(s.serveHTTP) }

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if s.opts.Token != "" {
		if _, pattern := s.mux.Handler(r); !s.public[pattern] && !httpauth.Bearer(r, s.opts.Token) {
			httpauth.Refuse(w, "the executor's token (its --token or "+EnvToken+")")
			return
		}
	}
	s.mux.ServeHTTP(w, r)
}

// Switch makes ts the current tool set: every new call, every session with
// no running turn and every turn begun from now on uses it; running turns
// keep theirs until they end. Switch takes over the reference LoadToolSet
// gave the caller; the previous set is freed once its last turn and call
// end. Switching to the current set again does nothing; after Run has
// ended, Switch frees ts.
func (s *Server) Switch(ts *ToolSet) {
	if ts == nil {
		return
	}
	s.switchMu.Lock()
	defer s.switchMu.Unlock()
	s.mu.Lock()
	old := s.cur
	if old == ts {
		s.mu.Unlock()
		return
	}
	if s.stopped {
		s.mu.Unlock()
		ts.Discard()
		return
	}
	s.cur = ts
	s.switched = s.now()
	s.mu.Unlock()
	s.activity.Add(1)

	s.metrics.switched(ts)
	attrs := []any{slog.String("release", ts.Release()), slog.Int("tools", len(ts.Tools())),
		slog.Int("failures", len(ts.Failures())), slog.Duration("load", ts.LoadDuration())}
	if old != nil {
		attrs = append(attrs, slog.String("previous", old.Release()))
		start := s.now()
		old.whenFreed(func() {
			d := s.now().Sub(start)
			s.metrics.switchDrain.Observe(d.Seconds())
			s.log.Info("tool set freed", slog.String("release", old.Release()), slog.Duration("after", d))
		})
	}
	s.log.Info("tool set switched", attrs...)
	if s.opts.OnSwitch != nil {
		s.opts.OnSwitch(ts)
	}
	s.mcp.switched()
	if old != nil {
		old.unref()
	}
}

// Current returns the current tool set (nil before the first Switch) for
// reporting. It takes no reference: do not call its tools.
func (s *Server) Current() *ToolSet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.cur
}

// SetState records the converger's state for /beeuni/status.
func (s *Server) SetState(st State) {
	s.mu.Lock()
	s.state = st
	s.mu.Unlock()
}

// Run serves the API until ctx ends, then stops accepting, waits up to
// DrainTimeout for calls in flight, ends every turn and frees the current
// tool set. It returns nil after a clean shutdown.
func (s *Server) Run(ctx context.Context) error {
	ln := s.opts.Listener
	if ln == nil {
		var err error
		if ln, err = net.Listen("tcp", s.opts.Addr); err != nil {
			return fmt.Errorf("executor: listen on %s: %w (choose another address with --listen)", s.opts.Addr, err)
		}
	}
	srv := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.opts.ReadHeaderTimeout,
		ReadTimeout:       s.opts.ReadTimeout,
		IdleTimeout:       s.opts.IdleTimeout,
		MaxHeaderBytes:    s.opts.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	srv.RegisterOnShutdown(s.mcp.close) // MCP's standalone streams would hold the shutdown

	var wg sync.WaitGroup
	janitorCtx, stopJanitor := context.WithCancel(ctx)
	wg.Go(func() { s.runJanitor(janitorCtx) })
	if s.opts.IdleRelease > 0 {
		wg.Go(func() { s.releaseWhenIdle(janitorCtx, s.opts.IdleRelease) })
	}

	serveErr := make(chan error, 1)
	wg.Go(func() { serveErr <- srv.Serve(ln) })
	s.log.Info("executor serving", slog.String("addr", ln.Addr().String()))

	var err error
	select {
	case err = <-serveErr:
		err = fmt.Errorf("executor: serve on %s: %w", ln.Addr(), err)
	case <-ctx.Done():
		drainCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), s.opts.DrainTimeout)
		if shutErr := srv.Shutdown(drainCtx); shutErr != nil {
			s.log.Warn("calls still running after the drain timeout: closing their connections",
				slog.Duration("drain_timeout", s.opts.DrainTimeout))
			_ = srv.Close()
		}
		cancel()
		if e := <-serveErr; !errors.Is(e, http.ErrServerClosed) {
			err = fmt.Errorf("executor: serve on %s: %w", ln.Addr(), e)
		}
	}
	stopJanitor()
	wg.Wait()
	s.mcp.close()

	s.releaseTurns()
	s.mu.Lock()
	cur := s.cur
	s.cur, s.stopped = nil, true
	s.mu.Unlock()
	if cur != nil {
		cur.unref()
	}
	return err
}
