package bench

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/gitrepo"
	"github.com/beeuni/beeuni/internal/modcheck"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// benchProject is the NATS project name of the fleet scenarios.
const benchProject = "bench"

// fleet is an embedded NATS server, a controller on a real Git repository
// with its merge hook on loopback, and the executors started so far, all in
// this process.
type fleet struct {
	dir     string
	nats    *events.Embedded   // nodes[0]
	nodes   []*events.Embedded // one, or the nodes of a cluster
	checker *modcheck.Checker  // the controller's module check, when on
	bus     *events.Bus
	git     *git.Repository
	repoDir string
	key     ed25519.PrivateKey
	db      *store.DB
	ctl     *controller.Controller
	hookURL string
	hooks   *http.Client
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	execs  []*fleetExecutor

	errMu  sync.Mutex
	runErr error // the first error a component's Run returned
}

// run runs a component until the fleet closes, then after. Its error is
// kept for the messages of the waits, which would otherwise only time out.
func (f *fleet) run(what string, run func(context.Context) error, after func()) {
	f.wg.Go(func() {
		err := run(f.ctx)
		if after != nil {
			after()
		}
		if err != nil && !errors.Is(err, http.ErrServerClosed) && f.ctx.Err() == nil {
			f.errMu.Lock()
			if f.runErr == nil {
				f.runErr = fmt.Errorf("%s stopped: %w", what, err)
			}
			f.errMu.Unlock()
		}
	})
}

// stopped is "" or the first component error, for a wait's message.
func (f *fleet) stopped() string {
	f.errMu.Lock()
	defer f.errMu.Unlock()
	if f.runErr == nil {
		return ""
	}
	return " (" + f.runErr.Error() + ")"
}

type fleetExecutor struct {
	ex  *executor.Executor
	bus *events.Bus
	url string
}

// startFleet commits files as the first commit and starts NATS and the
// controller; executors are added with addExecutors.
func startFleet(ctx context.Context, dir string, files map[string]string) (*fleet, error) {
	return startFleetOn(ctx, dir, files, 1, "")
}

// startFleetOn is startFleet on nodes NATS servers: one embedded server, or
// an in-process cluster whose buckets have a replica on each node (up to 3).
// With checkBin, the controller checks changed modules as `beeuni
// controller` does: in a confined `checkBin internal check` process.
func startFleetOn(ctx context.Context, dir string, files map[string]string, nodes int, checkBin string) (*fleet, error) {
	f := &fleet{dir: dir, repoDir: filepath.Join(dir, "repo"), log: slog.New(slog.DiscardHandler),
		hooks: &http.Client{Timeout: 10 * time.Second}}
	f.ctx, f.cancel = context.WithCancel(ctx)
	ok := false
	defer func() {
		if !ok {
			f.close()
		}
	}()
	var err error
	if f.git, err = git.PlainInitWithOptions(f.repoDir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"}}); err != nil {
		return nil, fmt.Errorf("init the fleet's repository: %w", err)
	}
	if _, err := f.commit(files); err != nil {
		return nil, err
	}
	if f.nodes, err = startNATS(ctx, filepath.Join(dir, "nats"), nodes); err != nil {
		return nil, err
	}
	f.nats = f.nodes[0]
	if f.bus, err = events.Connect(ctx, f.nats.ClientURL(), events.Options{Name: "bench-controller"}); err != nil {
		return nil, err
	}
	if err := f.bus.Ensure(ctx, min(nodes, 3)); err != nil {
		return nil, err
	}
	if _, f.key, err = ed25519.GenerateKey(nil); err != nil {
		return nil, err
	}
	if f.db, err = store.Open(filepath.Join(dir, "controller.db")); err != nil {
		return nil, err
	}
	cc := controller.Config{Project: benchProject, Repo: f.repoDir, Branch: "main", Poll: time.Hour,
		DataDir: filepath.Join(dir, "controller"), Key: f.key, Bus: f.bus, DB: f.db, Logger: f.log}
	if checkBin != "" {
		// As `beeuni controller` runs it: a check process kept started ahead.
		f.checker = modcheck.New(modcheck.Options{Command: []string{checkBin, "internal", "check"}, Spare: true, TempDir: filepath.Join(dir, "check")})
		cc.CheckModules = f.checker.Check
	}
	if f.ctl, err = controller.New(cc); err != nil {
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	hook := &http.Server{Handler: f.ctl.Handler(), ReadHeaderTimeout: 10 * time.Second}
	f.hookURL = "http://" + ln.Addr().String() + "/hooks/merge"
	f.run("the merge hook's server", func(context.Context) error { return hook.Serve(ln) }, nil)
	f.wg.Go(func() {
		<-f.ctx.Done()
		_ = hook.Close() // ends Serve; nothing is left to flush
	})
	f.run("the controller", f.ctl.Run, nil)
	if !waitUntil(ctx, time.Minute, 5*time.Millisecond, func() bool { return f.ctl.Status().Desired != "" }) {
		return nil, fmt.Errorf("the controller published no release within a minute: %s%s", f.ctl.Status().Error, f.stopped())
	}
	ok = true
	return f, nil
}

// commit writes files into the work tree and commits them to main.
func (f *fleet) commit(files map[string]string) (string, error) {
	return gitrepo.Commit(f.repoDir, "bench change", files)
}

// hook calls the merge hook as CI would.
func (f *fleet) hook(ctx context.Context, commit string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.hookURL, bytes.NewReader(fmt.Appendf(nil, `{"commit":%q}`, commit)))
	if err != nil {
		return err
	}
	resp, err := f.hooks.Do(req)
	if err != nil {
		return fmt.Errorf("call the merge hook: %w", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("call the merge hook: status %d", resp.StatusCode)
	}
	return nil
}

// addExecutors starts n more executors, each with its own NATS connection,
// data folder, HTTP listener and tool set, and waits until every executor
// serves the desired release.
func (f *fleet) addExecutors(ctx context.Context, n int) error {
	for range n {
		i := len(f.execs)
		id := fmt.Sprintf("x%03d", i)
		bus, err := events.Connect(ctx, f.nats.ClientURL(), events.Options{Name: "bench-executor " + id})
		if err != nil {
			return err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			bus.Close()
			return err
		}
		ex, err := executor.NewExecutor(executor.Config{ID: id, Project: benchProject, DataDir: filepath.Join(f.dir, "exec", id),
			TrustKey: f.key.Public().(ed25519.PublicKey), Bus: bus, Logger: f.log,
			Server: executor.Options{Listener: ln, Env: envSnapshot(), Logger: f.log, Registry: prometheus.NewRegistry()}})
		if err != nil {
			ln.Close()
			bus.Close()
			return err
		}
		fe := &fleetExecutor{ex: ex, bus: bus, url: "http://" + ln.Addr().String()}
		f.execs = append(f.execs, fe)
		f.run("executor "+id, ex.Run, func() {
			ex.Close()
			bus.Close()
		})
	}
	want := f.ctl.Status().Desired
	if !waitUntil(ctx, 2*time.Minute, 5*time.Millisecond, func() bool { return f.serving(want) == len(f.execs) }) {
		return fmt.Errorf("%d of %d executors serve release %s after two minutes%s", f.serving(want), len(f.execs), want, f.stopped())
	}
	return nil
}

// serving counts the executors serving release id.
func (f *fleet) serving(id string) int {
	n := 0
	for _, e := range f.execs {
		if cur := e.ex.Server().Current(); cur != nil && cur.Release() == id {
			n++
		}
	}
	return n
}

// release commits files, calls the merge hook and returns, for each
// executor, how long after the hook call it served the new release.
func (f *fleet) release(ctx context.Context, files map[string]string, timeout time.Duration) ([]time.Duration, error) {
	before := f.ctl.Status().Desired
	commit, err := f.commit(files)
	if err != nil {
		return nil, err
	}
	took := make([]time.Duration, len(f.execs))
	start := time.Now()
	if err := f.hook(ctx, commit); err != nil {
		return nil, err
	}
	left := len(f.execs)
	var want string
	done := waitUntil(ctx, timeout, time.Millisecond, func() bool {
		if want == "" {
			if d := f.ctl.Status().Desired; d != before {
				want = d
			} else {
				return false
			}
		}
		now := time.Since(start)
		for i, e := range f.execs {
			if took[i] == 0 {
				if cur := e.ex.Server().Current(); cur != nil && cur.Release() == want {
					took[i] = now
					left--
				}
			}
		}
		return left == 0
	})
	if !done {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%d of %d executors did not serve release %q within %s (controller: %+v)%s", left, len(f.execs), want, timeout, f.ctl.Status(), f.stopped())
	}
	return took, nil
}

// close stops every executor and the controller, then NATS.
func (f *fleet) close() {
	f.cancel()
	f.wg.Wait()
	if f.bus != nil {
		f.bus.Close()
	}
	if f.db != nil {
		f.db.Close()
	}
	if f.checker != nil {
		f.checker.Close()
	}
	for _, n := range f.nodes {
		n.Shutdown()
	}
}

// pubKeyFile writes the fleet's public key for `beeuni executor --trust-key`.
func (f *fleet) pubKeyFile() (string, error) {
	p := filepath.Join(f.dir, "signing.key.pub")
	return p, release.WritePublicKey(p, f.key.Public().(ed25519.PublicKey))
}
