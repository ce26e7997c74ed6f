package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"path/filepath"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/internal/modcheck"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// controllerCmd is `beeuni controller`: watch the branch, build, sign and
// publish releases, serve the merge hook.
func (a *app) controllerCmd(ctx context.Context, args []string) int {
	usage := "controller --repo PATH|URL [--branch main] [--poll 30s] [--listen ADDR] [--data DIR] [--hook-secret S] [--signing-key FILE] [--token T] [--nats URL] [--project NAME] [--replicas N]"
	fl := a.newFlags("controller", usage)
	var nf netFlags
	a.addNetFlags(fl, &nf)
	repo := fl.String("repo", "", "the project's Git repository: a local path or a URL")
	branch := fl.String("branch", controller.DefaultBranch, "the branch to watch")
	poll := fl.Duration("poll", controller.DefaultPoll, "how often to look at the branch (the merge hook makes it look at once)")
	listen := fl.String("listen", "127.0.0.1:7410", "HTTP address of the merge hook, /status and /metrics")
	data := fl.String("data", filepath.Join(".beeuni", "controller"), "data folder: state, mirror of a remote repository, signing key")
	secret := fl.String("hook-secret", a.getenv("BEEUNI_HOOK_SECRET"), "require X-Beeuni-Signature on the merge hook (env BEEUNI_HOOK_SECRET)")
	token := fl.String("token", a.getenv(controller.EnvToken), "require Authorization: Bearer TOKEN on /status and /metrics (env "+controller.EnvToken+"); the merge hook is guarded by --hook-secret")
	keyFile := fl.String("signing-key", "", "ed25519 signing key file (default: DATA/signing.key, made on first run; its public key is written beside it as .pub)")
	replicas := fl.Int("replicas", 1, "JetStream replicas for the streams and buckets it creates (3 on a 3-node cluster)")
	harness := fl.String("harness", string(loader.HarnessDefault), "the harness whose rules resolve the tool set kept in records")
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if len(pos) > 0 || *repo == "" {
		a.errorf(nil, "controller: pass --repo with the project's repository (and no other arguments)")
		fl.Usage()
		return exitUsage
	}
	h, err := loader.ParseHarness(*harness)
	if err != nil {
		a.errorf(nil, "--harness: %v", err)
		return exitUsage
	}
	log := a.newLogger()
	project := nf.project
	if project == "" {
		project = projectToken(filepath.Base(filepath.Clean(*repo)))
	}
	key, err := loadSigningKey(*keyFile, *data)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	bus, err := events.Connect(ctx, nf.natsURL, events.Options{Name: "beeuni-controller " + project, Logger: log, RetryOnFailedConnect: true})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer bus.Close()
	db, err := store.Open(filepath.Join(*data, "controller.db"))
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer db.Close()
	reg := newRegistry()
	// A check process is kept started ahead: a merge's module check does
	// not wait for one to start (docs/benchmarks.md).
	checker := modcheck.New(modcheck.Options{Logger: log, Spare: true, TempDir: filepath.Join(*data, "check")})
	defer checker.Close()
	c, err := controller.New(controller.Config{Project: project, Repo: *repo, Branch: *branch, Poll: *poll, DataDir: *data,
		HookSecret: *secret, Token: *token, Key: key, Bus: bus, DB: db, Logger: log, Registerer: reg, Harness: h, Replicas: *replicas,
		CheckModules: checker.Check, Failpoint: a.failpoint()})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	mux := http.NewServeMux()
	mux.Handle("/", c.Handler())
	mux.Handle("GET /metrics", c.RequireToken(promhttp.HandlerFor(reg, promhttp.HandlerOpts{})))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	return a.runAll(ctx, log, c.Run, func(ctx context.Context) error { return serveHTTP(ctx, *listen, mux, log) })
}

// loadSigningKey loads (or makes) the controller's key and writes its public
// key beside it for executors' --trust-key.
func loadSigningKey(file, data string) (ed25519.PrivateKey, error) {
	if file == "" {
		file = filepath.Join(data, "signing.key")
	}
	key, err := release.LoadOrCreateKey(file)
	if err != nil {
		return nil, fmt.Errorf("signing key: %w", err)
	}
	pub := key.Public().(ed25519.PublicKey)
	// A key mounted read-only may come with its public half: leave it be.
	if have, err := release.LoadPublicKey(file + ".pub"); err == nil && have.Equal(pub) {
		return key, nil
	}
	if err := release.WritePublicKey(file+".pub", pub); err != nil {
		return nil, fmt.Errorf("signing key: write the public key beside it (executors' --trust-key): %w", err)
	}
	return key, nil
}

// runAll runs components until ctx ends or one fails; the others are then
// stopped and awaited. It maps the outcome to an exit code.
func (a *app) runAll(ctx context.Context, log interface{ Error(string, ...any) }, runs ...func(context.Context) error) int {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make(chan error, len(runs))
	for _, run := range runs {
		wg.Go(func() {
			if err := run(ctx); err != nil {
				errs <- err
				cancel()
			}
		})
	}
	wg.Wait()
	close(errs)
	if err, ok := <-errs; ok {
		log.Error("stopped", "error", err)
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	return exitOK
}

// waitFor polls cond until it is true or the timeout passes.
func waitFor(ctx context.Context, timeout time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	for !cond() {
		if time.Now().After(deadline) || ctx.Err() != nil {
			return false
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
	return true
}
