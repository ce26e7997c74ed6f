// Package controller watches a project's branch through go-git and turns each
// new head commit into a signed config release on NATS: fetch -> build ->
// validate -> sign -> store -> publish, once per commit, across restarts.
package controller

import (
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/internal/redact"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// Defaults of Config.
const (
	DefaultBranch     = "main"
	DefaultPoll       = 30 * time.Second
	DefaultMinBackoff = 500 * time.Millisecond
	DefaultMaxBackoff = 30 * time.Second
)

// Config is what a controller needs; zero values take the defaults.
type Config struct {
	Project    string
	Repo       string // a local path or a Git URL
	Branch     string
	Poll       time.Duration
	DataDir    string // mirror of a remote repo, the checkout used to load modules
	HookSecret string // when set, POST /hooks/merge must carry a valid HMAC
	// Token, when set, is required as a bearer token on GET /status (and,
	// through RequireToken, /metrics).
	Token      string
	Key        ed25519.PrivateKey
	Bus        *events.Bus
	DB         *store.DB
	Logger     *slog.Logger
	Registerer prometheus.Registerer
	// Harness is the one whose rules resolve the tool set kept in records.
	Harness loader.Harness
	// CheckModules loads the modules a commit changed from the release laid
	// out at root and returns those that did not load, and what the ones
	// that did told about their tools, by tool name (shipped in the
	// release's bundle pack: executors load those without evaluating them).
	// It must run them outside the controller's process, where neither the
	// signing key nor any token is in reach (modcheck.Checker.Check: a
	// confined child). nil: modules are not load-checked; the manifest
	// still is.
	CheckModules func(ctx context.Context, root string, specs []jshost.Spec) ([]jshost.Failure, map[string]jshost.Meta, error)
	// Replicas is the JetStream replica count of streams and buckets the
	// controller creates when missing (3 on a 3-node cluster).
	Replicas   int
	MinBackoff time.Duration
	MaxBackoff time.Duration
	// Failpoint, when set, is called at each crash-test step of a reconcile
	// ("built": the release is stored but not yet published): crash tests
	// kill the process there to prove a restart publishes it exactly once.
	Failpoint func(step string)
	// OnRejected, when set, is called after a rejected release is recorded
	// on NATS (`beeuni up` prints it).
	OnRejected func(Rejection)
	now        func() time.Time
}

// Controller builds and publishes a project's releases. Create it with New,
// then call Run; Handler serves the merge hook and the status.
type Controller struct {
	cfg     Config
	src     *source
	log     *slog.Logger
	metrics *metrics
	nudge   chan struct{}

	mu     sync.Mutex // guards status
	status Status

	buildMu sync.Mutex // one reconcile or replay at a time; guards prev, repo, ensured and rebuilt
	prev    *release.Snapshot
	repo    *release.Repo
	bundler *bundle.Bundler // the fleet's bundles, kept between builds
	ensured bool
	rebuilt bool // an empty state was filled from NATS (or found nothing there)
}

// Status is what GET /status reports.
type Status struct {
	Project string `json:"project"`
	Repo    string `json:"repo"`
	Branch  string `json:"branch"`
	Head    string `json:"head,omitempty"`
	// LastCommit is the last commit built and published (or rejected);
	// Pending is a release built and stored but not yet published (NATS
	// down): it is published, not built again, when NATS is back.
	LastCommit  string    `json:"last_commit,omitempty"`
	Pending     string    `json:"pending,omitempty"`
	Desired     string    `json:"desired,omitempty"`
	Pinned      string    `json:"pinned,omitempty"`
	LastRelease string    `json:"last_release,omitempty"`
	LastSuccess time.Time `json:"last_success,omitzero"`
	LastCheck   time.Time `json:"last_check,omitzero"`
	Healthy     bool      `json:"healthy"`
	Error       string    `json:"error,omitempty"`
	Retrying    string    `json:"retrying_in,omitempty"`
	// Rejected is the newest commit refused since the last published one;
	// absent when the branch head was published.
	Rejected *Rejection `json:"rejected,omitempty"`
}

// New checks cfg and prepares a controller; nothing runs until Run.
func New(cfg Config) (*Controller, error) {
	if cfg.Branch == "" {
		cfg.Branch = DefaultBranch
	}
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.MinBackoff <= 0 {
		cfg.MinBackoff = DefaultMinBackoff
	}
	if cfg.MaxBackoff <= 0 {
		cfg.MaxBackoff = DefaultMaxBackoff
	}
	if cfg.Replicas <= 0 {
		cfg.Replicas = 1
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Registerer == nil {
		cfg.Registerer = prometheus.NewRegistry()
	}
	if cfg.Harness == "" {
		cfg.Harness = loader.HarnessDefault
	}
	if cfg.now == nil {
		cfg.now = time.Now
	}
	switch {
	case cfg.Key == nil:
		return nil, errors.New("new controller: no signing key: pass --signing-key FILE")
	case cfg.Bus == nil:
		return nil, errors.New("new controller: no NATS connection")
	case cfg.DB == nil:
		return nil, errors.New("new controller: no state database")
	}
	if err := events.CheckProject(cfg.Project); err != nil {
		return nil, fmt.Errorf("new controller: %w (pass --project)", err)
	}
	if cfg.DataDir != "" {
		// Modules are laid out under it to be bundled and checked: without
		// it every release would go out unchecked and without bundles.
		if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
			return nil, fmt.Errorf("new controller: create the data folder: %w (pass --data with a folder this user may create)", err)
		}
	}
	src, err := newSource(cfg.Repo, cfg.Branch, cfg.DataDir)
	if err != nil {
		return nil, err
	}
	m, err := newMetrics(cfg.Registerer, cfg.Project)
	if err != nil {
		return nil, fmt.Errorf("new controller: %w", err)
	}
	c := &Controller{
		cfg:     cfg,
		src:     src,
		log:     cfg.Logger.With("component", "controller", "project", cfg.Project),
		metrics: m,
		bundler: jshost.Offering(bundle.New(nil)),
		nudge:   make(chan struct{}, 1),
		status:  Status{Project: cfg.Project, Repo: redact.URL(cfg.Repo), Branch: cfg.Branch},
	}
	if aside, why := cfg.DB.Recovered(); aside != "" {
		c.log.Error("the state database was corrupt: moved it aside; rebuilding the state from the releases in NATS",
			"moved_to", aside, "error", why)
	}
	return c, nil
}

// Nudge makes the controller look at the branch at once (the merge hook).
func (c *Controller) Nudge() {
	select {
	case c.nudge <- struct{}{}:
	default:
	}
}

// Status returns a copy of the controller's status.
func (c *Controller) Status() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.status
}

func (c *Controller) setStatus(f func(*Status)) {
	c.mu.Lock()
	f(&c.status)
	c.mu.Unlock()
}

// Run watches the branch until ctx ends: at start, every --poll, and at each
// nudge. A failed look is retried with backoff; the fleet keeps its release.
func (c *Controller) Run(ctx context.Context) error {
	st, err := loadState(c.cfg.DB)
	if err != nil {
		return err
	}
	rejected := c.loadRejection(st)
	c.setStatus(func(s *Status) {
		s.LastCommit, s.Desired, s.Rejected = st.LastCommit, st.Desired, rejected
		if st.Pin != nil {
			s.Pinned = st.Pin.Release
		}
	})
	stopReplay, err := c.serveReplay(ctx)
	if err != nil {
		return err
	}
	defer stopReplay()
	defer func() {
		c.buildMu.Lock()
		c.closeObjects()
		c.buildMu.Unlock()
	}()

	backoff := time.Duration(0)
	timer := time.NewTimer(0)
	defer timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-timer.C:
		case <-c.nudge:
			if !timer.Stop() {
				select {
				case <-timer.C:
				default:
				}
			}
		}
		err := c.reconcile(ctx)
		next := c.cfg.Poll
		if err != nil && ctx.Err() == nil {
			backoff = min(max(2*backoff, c.cfg.MinBackoff), c.cfg.MaxBackoff)
			next = min(backoff, c.cfg.Poll)
			msg := redact.Text(err.Error())
			c.log.Warn("look at the branch failed; retrying", "error", msg, "retry_in", next)
			c.setStatus(func(s *Status) { s.Healthy, s.Error, s.Retrying = false, msg, next.String() })
		} else if err == nil {
			backoff = 0
		}
		timer.Reset(next)
	}
}
