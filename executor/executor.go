package executor

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/beeuni/beeuni/internal/launch"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/store"
)

// Defaults of Config.
const (
	DefaultReportEvery = 5 * time.Second
	dbName             = "executor.db"
	bucketActive       = "active"
	bucketBundles      = "bundles"
	keyActive          = "active"
	// A converge that failed for a passing reason is tried again after
	// retryMin, doubling up to retryMax, until it succeeds or a newer
	// pointer arrives.
	retryMin = 250 * time.Millisecond
	retryMax = 5 * time.Second
)

// Config is what one sandbox executor needs.
type Config struct {
	ID      string
	Project string
	DataDir string // bbolt, the content cache, laid-out releases
	// Workspace is the project checkout tools work on: context.directory
	// and the base of their relative paths (memory/ notes live there). It is
	// kept apart from the release folders, which are replaced at every
	// release. Default: DATA/workspace.
	Workspace string
	Harness   loader.Harness
	// TrustKey, when set, is the controller's public key: a pointer or
	// record whose signature does not verify is refused. Content digests are
	// verified always.
	TrustKey ed25519.PublicKey
	// NATSURL is dialed when Bus is nil; the executor serves its last tool
	// set while NATS is away and converges once it is back.
	NATSURL string
	Bus     *events.Bus
	// OpencodeDir, on the default harness, is the opencode config folder the
	// executor writes its plugin into (OpencodePluginFile) at every switch;
	// "" writes none. See opencode.go.
	OpencodeDir string
	// Server configures the HTTP API; its Secrets is filled in here.
	Server         Options
	DefaultTimeout time.Duration // a call's deadline unless the module exports timeout
	// Policy is what tools may reach (package jshost/policy): the
	// operator's --fs-read and --fs-write, beeuni's other state and
	// listeners. The executor adds its own data folder, API address and
	// token.
	Policy policy.Config
	// MaxMemory and CallMemory bound the JS heaps (--max-memory,
	// --call-memory); 0 is jshost's default.
	MaxMemory, CallMemory uint64
	// Launcher starts the processes tools ask for, confined (the beeuni
	// binary itself); nil: tools may start none.
	Launcher    *launch.Launcher
	ReportEvery time.Duration
	// CacheMax bounds the content cache in bytes (--cache-max; 0:
	// DefaultCacheMax), CacheKeep is how many releases before the current
	// one keep their content for replay (0: DefaultCacheKeep; negative:
	// none). See cachegc.go.
	CacheMax  uint64
	CacheKeep int
	Logger    *slog.Logger
	// Failpoint, when set, is called at each step of converging ("fetch",
	// "laid-out", "loaded", "switched", "persisted"): crash tests kill the
	// process there to prove every step restarts into a consistent state.
	Failpoint func(step string)
}

// Executor follows its project's releases and serves the loaded tool set:
// verify -> fetch -> lay out -> load -> switch -> persist -> report.
type Executor struct {
	cfg     Config
	log     *slog.Logger
	srv     *Server
	db      *store.DB
	bundler *bundle.Bundler
	bundles *bundleCache // the bundler's cache, written behind
	secrets atomic.Pointer[events.SecretWatcher]
	bus     atomic.Pointer[events.Bus]

	latest  chan desired  // newest pointer not yet converged on, at most one
	changed chan struct{} // state changed: report now

	mu     sync.Mutex // guards active
	active activeRecord

	// dirs counts the tool sets loaded from each release folder. A folder
	// is removed when the last set using it is freed: a replay can load a
	// release again while a turn still holds its previous set, and both read
	// the same folder.
	dirsMu     sync.Mutex
	dirs       map[string]int
	dirDigests map[string][]string // the content each folder in dirs names: in use, kept in the cache

	gcKick       chan struct{} // a set was freed: collect the cache
	collectDue   bool          // converge switched: collect after collectDelay (the converge loop's own)
	overWarned   bool          // the in-use content's size was warned about (converge loop only)
	cacheMetrics *cacheMetrics

	addr string // the API's address, for the fleet report

	wg sync.WaitGroup // goroutines freeing old release folders
}

// activeRecord is the loaded tool set as bbolt keeps it: on restart the
// executor loads it from Dir and serves at once, before and without NATS.
type activeRecord struct {
	Release  string    `json:"release"`
	Seq      uint64    `json:"seq"`
	Dir      string    `json:"dir"`
	Tools    []string  `json:"tools"`
	Failures []Failure `json:"failures"`
	At       time.Time `json:"at"`
	// Record is the release's signed record as NATS gave it: a restart
	// verifies Dir against it before serving, NATS or not.
	Record json.RawMessage `json:"record,omitempty"`
}

type desired struct {
	value    []byte
	revision uint64
}

// NewExecutor opens the executor's state; nothing runs until Run.
func NewExecutor(cfg Config) (*Executor, error) {
	if cfg.ReportEvery <= 0 {
		cfg.ReportEvery = DefaultReportEvery
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Harness == "" {
		cfg.Harness = loader.HarnessDefault
	}
	if cfg.CacheMax == 0 {
		cfg.CacheMax = DefaultCacheMax
	}
	switch {
	case cfg.CacheKeep == 0:
		cfg.CacheKeep = DefaultCacheKeep
	case cfg.CacheKeep < 0:
		cfg.CacheKeep = 0
	}
	if cfg.Launcher != nil {
		if err := cfg.Launcher.Check(); err != nil {
			cfg.Logger.Warn("tools may not start processes: they could not be confined", "error", err)
		}
	}
	if err := events.CheckProject(cfg.Project); err != nil {
		return nil, fmt.Errorf("new executor: %w (pass --project)", err)
	}
	if err := events.CheckExecutorID(cfg.ID); err != nil {
		return nil, fmt.Errorf("new executor: %w (pass --id)", err)
	}
	if cfg.DataDir == "" {
		return nil, errors.New("new executor: no data folder: pass --data DIR")
	}
	if cfg.Workspace == "" {
		cfg.Workspace = filepath.Join(cfg.DataDir, "workspace")
	}
	for _, d := range []string{releasesDir(cfg.DataDir), casDir(cfg.DataDir), cfg.Workspace} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, fmt.Errorf("new executor: make %s: %w", d, err)
		}
	}
	db, err := store.Open(filepath.Join(cfg.DataDir, dbName))
	if err != nil {
		return nil, fmt.Errorf("new executor: %w", err)
	}
	e := &Executor{
		cfg:     cfg,
		log:     cfg.Logger.With("component", "executor", "project", cfg.Project, "executor", cfg.ID),
		db:      db,
		latest:  make(chan desired, 1),
		changed: make(chan struct{}, 1),
		dirs:    make(map[string]int),
		gcKick:  make(chan struct{}, 1),
		addr:    cfg.Server.Addr,
	}
	e.dirDigests = make(map[string][]string)
	if aside, why := db.Recovered(); aside != "" {
		e.log.Error("the state database was corrupt: moved it aside; starting from empty state and converging on the desired release from NATS",
			"moved_to", aside, "error", why)
	}
	switch {
	case cfg.Server.Listener != nil:
		e.addr = cfg.Server.Listener.Addr().String()
	case e.addr == "":
		e.addr = DefaultAddr
	}
	e.bundles = newBundleCache(db, bucketBundles, func(err error) { e.log.Warn("bundle cache", "error", err) })
	e.bundler = bundle.New(e.bundles)
	so := cfg.Server
	so.ID = cfg.ID
	if so.Logger == nil {
		so.Logger = cfg.Logger
	}
	if so.Registry == nil {
		so.Registry = prometheus.NewRegistry()
	}
	so.Secrets = e.secretValues
	if e.cacheMetrics, err = newCacheMetrics(so.Registry, func() float64 { return float64(e.bundler.Built()) }); err != nil {
		db.Close()
		return nil, err
	}
	if cfg.OpencodeDir != "" && cfg.Harness == loader.HarnessDefault {
		so.OnSwitch = newOpencodePlugin(cfg.OpencodeDir, cfg.ID, so.Token != "", cfg.Logger).switched
	}
	if e.srv, err = NewServer(so); err != nil {
		db.Close()
		return nil, err
	}
	return e, nil
}

// Server is the executor's HTTP API (for `beeuni up` to mount more routes).
func (e *Executor) Server() *Server { return e.srv }

func (e *Executor) secretValues() map[string]string {
	if w := e.secrets.Load(); w != nil {
		return w.Snapshot()
	}
	return nil
}

// Run restores the last tool set, serves it, and converges on the project's
// releases until ctx ends. It returns once every goroutine it started ended.
func (e *Executor) Run(ctx context.Context) error {
	e.restore(ctx)
	e.collect()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	wg.Go(func() {
		if err := e.srv.Run(ctx); err != nil {
			errs <- err
			cancel()
		}
	})
	wg.Go(func() { e.follow(ctx) })
	wg.Go(func() { e.convergeLoop(ctx) })
	wg.Go(func() { e.reportLoop(ctx) })
	wg.Go(func() { e.bundles.run(ctx) })
	wg.Wait()
	e.wg.Wait()
	e.bundles.flush() // what a converge ending with ctx put after run's last flush
	close(errs)
	return <-errs
}

// Close releases the state database. Call it after Run returned.
func (e *Executor) Close() error {
	e.bundles.flush() // when Run never ran
	if b := e.bus.Load(); b != nil && e.cfg.Bus == nil {
		b.Close()
	}
	return e.db.Close()
}

// follow connects to NATS (retrying while it is away), then watches the
// desired release and the secrets until ctx ends.
func (e *Executor) follow(ctx context.Context) {
	bus := e.cfg.Bus
	if bus == nil {
		var err error
		bus, err = events.Connect(ctx, e.cfg.NATSURL, events.Options{Name: "beeuni-executor " + e.cfg.ID,
			Logger: e.cfg.Logger, RetryOnFailedConnect: true})
		if err != nil {
			e.log.Error("connect to NATS", "error", err)
			return
		}
	}
	e.bus.Store(bus)
	sw, err := bus.NewSecretWatcher(e.cfg.Project)
	if err != nil {
		e.log.Error("watch secrets", "error", err)
		return
	}
	e.secrets.Store(sw)
	var wg sync.WaitGroup
	wg.Go(func() {
		if err := sw.Run(ctx); err != nil && ctx.Err() == nil {
			e.log.Error("watch secrets", "error", err)
		}
	})
	err = bus.WatchDesired(ctx, e.cfg.Project, func(value []byte, rev uint64) {
		// Newest wins: replace a pointer not yet taken by the converge loop.
		select {
		case <-e.latest:
		default:
		}
		e.latest <- desired{value: value, revision: rev}
	})
	if err != nil && ctx.Err() == nil {
		e.log.Error("watch desired release", "error", err)
	}
	wg.Wait()
}

// convergeLoop converges on each pointer follow hands over, newest first,
// and tries a pointer again while it fails for a reason that may pass.
func (e *Executor) convergeLoop(ctx context.Context) {
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	// The cache is cleaned up a moment after a switch, not at once: a burst
	// of releases costs one clean-up, and the CPU of a switch's clean-up
	// does not compete with the next converge (or, on a shared host, with
	// other executors converging).
	gcTimer := time.NewTimer(time.Hour)
	gcTimer.Stop()
	defer gcTimer.Stop()
	var (
		pending desired
		retry   <-chan time.Time // set while pending waits to be tried again
		wait    time.Duration
	)
	for {
		var d desired
		select {
		case <-ctx.Done():
			return
		case d = <-e.latest:
			wait = 0
		case <-retry:
			d = pending
		case <-e.gcKick:
			e.collect()
			continue
		case <-gcTimer.C:
			e.collect()
			continue
		}
		timer.Stop()
		retry = nil
		again := e.converge(ctx, d)
		if e.collectDue {
			e.collectDue = false
			gcTimer.Reset(collectDelay)
		}
		if again && ctx.Err() == nil {
			wait = RetryDelay(wait)
			pending = d
			timer.Reset(wait)
			retry = timer.C
			e.log.Info("converge will be tried again", "revision", d.revision, "retry_in", wait)
		}
	}
}

// collectDelay is how long after a switch the cache is cleaned up.
const collectDelay = time.Second

// newer reports whether a newer pointer is waiting: a load in progress is
// then not switched to.
func (e *Executor) newer() bool { return len(e.latest) > 0 }

func (e *Executor) notify() {
	select {
	case e.changed <- struct{}{}:
	default:
	}
}

func releasesDir(data string) string { return filepath.Join(data, "releases") }
func casDir(data string) string      { return filepath.Join(data, "cas") }

// spareDir is a freed release folder kept for the next layout to reuse.
func spareDir(data string) string { return filepath.Join(data, "spare") }
