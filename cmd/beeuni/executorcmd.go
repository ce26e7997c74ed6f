package main

import (
	"context"
	"crypto/ed25519"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/gctune"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/release"
)

// executorFlags are the flags `beeuni executor` and `beeuni up` share.
type executorFlags struct {
	harness     string
	token       string
	timeout     time.Duration
	opencodeDir string
	tools       toolFlags
	cacheMax    byteSize
	idleRelease time.Duration
	server      serverFlags // --validate-args, --mcp-allowed-origins (serverflags.go)
}

func (a *app) addExecutorFlags(fl *flag.FlagSet, f *executorFlags) {
	fl.StringVar(&f.harness, "harness", string(loader.HarnessDefault), "the harness whose rules apply: default or experimental")
	fl.StringVar(&f.token, "token", a.getenv(executor.EnvToken), "require Authorization: Bearer TOKEN on every route but /healthz (env "+executor.EnvToken+"; BEEUNI_TOKEN is the Beeuni API token tools read, not this)")
	fl.DurationVar(&f.timeout, "timeout", 60*time.Second, "a tool call's deadline unless its module exports timeout")
	addToolFlags(fl, &f.tools)
	f.cacheMax = executor.DefaultCacheMax
	fl.Var(&f.cacheMax, "cache-max", "the content cache's bound, e.g. 1GiB: past it, content only previous releases keep goes, oldest first (content in use is kept)")
	a.addServerFlags(fl, &f.server)
	fl.DurationVar(&f.idleRelease, "idle-release", 2*time.Second,
		"give the heap back to the OS after this long without a call or a switch (0: leave it to the Go runtime); the collector runs at GOGC="+strconv.Itoa(gctune.Percent)+" unless GOGC is set")
	fl.StringVar(&f.opencodeDir, "opencode-dir", a.getenv("BEEUNI_OPENCODE_DIR"),
		"on the default harness, the opencode config folder the plugin is written to, as "+executor.OpencodePluginFile+" (default: the checkout's .opencode; off: write none) (env BEEUNI_OPENCODE_DIR)")
}

// tuneGC sets the Go collector of a long-running server (internal/gctune)
// and logs what it set.
func (a *app) tuneGC(log *slog.Logger) {
	gc := gctune.Apply(a.getenv, gctune.CgroupV2)
	log.Info("go collector", slog.Int("gogc", gc.Percent), slog.String("gogc_from", gc.PercentFrom),
		slog.Int64("memory_limit_bytes", gc.LimitBytes), slog.String("memory_limit_from", gc.LimitFrom))
}

// opencodeFolder is where the default runtime's plugin goes for a checkout:
// opencode reads the .opencode folder of the directory it runs in.
func (f *executorFlags) opencodeFolder(workspace string) string {
	switch f.opencodeDir {
	case "off":
		return ""
	case "":
		return filepath.Join(workspace, ".opencode")
	}
	abs, err := filepath.Abs(f.opencodeDir)
	if err != nil {
		return f.opencodeDir
	}
	return abs
}

// executorCmd is `beeuni executor`: one sandbox executor.
func (a *app) executorCmd(ctx context.Context, args []string) int {
	usage := "executor [--id ID] [--listen ADDR] [--data DIR] [--dir CHECKOUT] [--harness experimental|default] [--trust-key FILE] [--token T] [--opencode-dir DIR] [--nats URL] [--project NAME] [--max-memory BYTES] [--call-memory BYTES] [--cache-max BYTES] [--idle-release DURATION] [--fs-read PATHS] [--fs-write PATHS]"
	fl := a.newFlags("executor", usage)
	var nf netFlags
	a.addNetFlags(fl, &nf)
	var ef executorFlags
	a.addExecutorFlags(fl, &ef)
	id := fl.String("id", defaultID(), "this executor's id in the fleet")
	listen := fl.String("listen", executor.DefaultAddr, "HTTP address of the tool API")
	data := fl.String("data", "", "data folder: loaded tool set, content cache, releases (default: .beeuni/executor-ID)")
	workspace := fl.String("dir", ".", "the project checkout tools work on: context.directory and their relative paths (memory/ notes)")
	trust := fl.String("trust-key", a.getenv("BEEUNI_TRUST_KEY"), "the controller's public key (signing.key.pub): refuse releases it did not sign (env BEEUNI_TRUST_KEY)")
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		a.errorf(nil, "executor takes no arguments, got %q", pos[0])
		return exitUsage
	}
	h, err := loader.ParseHarness(ef.harness)
	if err != nil {
		a.errorf(nil, "--harness: %v", err)
		return exitUsage
	}
	if !a.checkServerFlags(&ef.server) {
		return exitUsage
	}
	if *data == "" {
		*data = filepath.Join(".beeuni", "executor-"+*id)
	}
	// A sandbox's checkout may be made empty at first (memory/ grows there).
	if err := os.MkdirAll(*workspace, 0o755); err != nil {
		a.errorf(nil, "--dir: create the checkout folder: %v (pass --dir with a folder this user may create)", err)
		return exitFailure
	}
	ws, err := projectDir(*workspace)
	if err != nil {
		a.errorf(nil, "--dir: %v", err)
		return exitUsage
	}
	var pub ed25519.PublicKey
	if *trust != "" {
		if pub, err = release.LoadPublicKey(*trust); err != nil {
			a.errorf(nil, "--trust-key: %v", err)
			return exitFailure
		}
	}
	pol, err := ef.tools.policy(absPaths(*trust), natsAddrs(nf.natsURL), ef.token)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	log := a.newLogger()
	a.tuneGC(log)
	if pub == nil {
		log.Warn("no --trust-key: release signatures are not checked (content digests still are)")
	}
	ex, err := executor.NewExecutor(executor.Config{ID: *id, Project: resolveProject(nf.project, ws), DataDir: *data, Workspace: ws, Harness: h, OpencodeDir: ef.opencodeFolder(ws),
		TrustKey: pub, NATSURL: nf.natsURL, DefaultTimeout: ef.timeout, Logger: log, Failpoint: a.failpoint(),
		Policy: pol, MaxMemory: uint64(ef.tools.maxMemory), CallMemory: uint64(ef.tools.callMemory), CacheMax: uint64(ef.cacheMax),
		Launcher: selfLauncher(),
		Server:   ef.server.apply(executor.Options{Addr: *listen, Token: ef.token, Env: envSnapshot(), Logger: log, Registry: newRegistry(), IdleRelease: ef.idleRelease})})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer ex.Close()
	return a.runAll(ctx, log, ex.Run)
}
