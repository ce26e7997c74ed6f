package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/modcheck"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/store"
)

// upPoll is how often `beeuni up` looks at the branch: a local commit shows
// up within a second even without the merge hook.
const upPoll = time.Second

// up is `beeuni up`: everything on one machine, on embedded defaults:
// NATS with JetStream, a controller, one executor, one HTTP address.
func (a *app) up(ctx context.Context, args []string) int {
	usage := "up [--repo DIR] [--demo] [--listen ADDR] [--data DIR] [--nats-port N] [--token T] [--hook-secret S] [--harness H] [--opencode-dir DIR] [--max-memory BYTES] [--call-memory BYTES] [--cache-max BYTES] [--fs-read PATHS] [--fs-write PATHS]"
	fl := a.newFlags("up", usage)
	repo := fl.String("repo", "", "the project's Git repository (default: the current folder if it is one with a beeuni.yaml, else the demo)")
	demo := fl.Bool("demo", false, "serve the demo project: a Git repository made from examples/demo in the data folder")
	branch := fl.String("branch", "", "the branch to watch (default: the repository's current branch)")
	listen := fl.String("listen", executor.DefaultAddr, "HTTP address of the tool API and the merge hook")
	data := fl.String("data", ".beeuni", "data folder: NATS, state, releases, signing key, the demo repository")
	natsPort := fl.Int("nats-port", events.DefaultPort, "port of the embedded NATS server on 127.0.0.1 (-1: any free port)")
	project := fl.String("project", a.getenv("BEEUNI_PROJECT"), "project name (default: the repository folder's name)")
	poll := fl.Duration("poll", upPoll, "how often the controller looks at the branch")
	secret := fl.String("hook-secret", a.getenv("BEEUNI_HOOK_SECRET"), "require X-Beeuni-Signature on POST /hooks/merge (env BEEUNI_HOOK_SECRET)")
	var ef executorFlags
	a.addExecutorFlags(fl, &ef)
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if len(pos) > 0 {
		a.errorf(nil, "up takes no arguments, got %q", pos[0])
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
	dataDir, err := filepath.Abs(*data)
	if err != nil {
		a.errorf(nil, "--data: %v", err)
		return exitUsage
	}
	log := a.newLogger()
	repoDir, isDemo, err := chooseRepo(*repo, *demo, dataDir)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	if *branch == "" {
		*branch = currentBranch(repoDir)
	}
	name := *project
	if name == "" {
		name = projectToken(filepath.Base(repoDir))
	}

	nats, err := events.StartEmbedded(events.EmbeddedOptions{Host: "127.0.0.1", Port: *natsPort,
		StoreDir: filepath.Join(dataDir, "nats"), ServerName: "beeuni-up", Logger: log})
	if err != nil {
		a.errorf(nil, "start the embedded NATS server: %v (is another `beeuni up` running? pass --nats-port)", err)
		return exitFailure
	}
	defer nats.Shutdown()
	bus, err := events.Connect(ctx, nats.ClientURL(), events.Options{Name: "beeuni-up", Logger: log})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer bus.Close()
	if err := bus.Ensure(ctx, 1); err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	key, err := loadSigningKey("", filepath.Join(dataDir, "controller"))
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	db, err := store.Open(filepath.Join(dataDir, "controller", "controller.db"))
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer db.Close()
	reg := newRegistry()
	ctl, err := controller.New(controller.Config{Project: name, Repo: repoDir, Branch: *branch, Poll: *poll,
		DataDir: filepath.Join(dataDir, "controller"), HookSecret: *secret, Key: key, Bus: bus, DB: db, Logger: log, Registerer: reg, Harness: h,
		CheckModules: modcheck.New(modcheck.Options{Logger: log}).Check})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	// Tools reach neither the controller's and NATS's state nor NATS, and
	// may not commit to the branch the controller builds.
	pol, err := ef.tools.policy([]string{filepath.Join(dataDir, "controller"), filepath.Join(dataDir, "nats")},
		natsAddrs(nats.ClientURL()), ef.token)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	pol.ReadOnly = []string{filepath.Join(repoDir, ".git")}
	pol.HideValues = append(pol.HideValues, *secret)
	ex, err := executor.NewExecutor(executor.Config{ID: "local", Project: name, DataDir: filepath.Join(dataDir, "executor"),
		Workspace: repoDir, Harness: h, OpencodeDir: ef.opencodeFolder(repoDir), TrustKey: key.Public().(ed25519.PublicKey), Bus: bus, DefaultTimeout: ef.timeout, Logger: log,
		Policy: pol, MaxMemory: uint64(ef.tools.maxMemory), CallMemory: uint64(ef.tools.callMemory), CacheMax: uint64(ef.cacheMax),
		Server: ef.server.apply(executor.Options{Addr: *listen, Token: ef.token, Env: envSnapshot(), Logger: log, Registry: reg})})
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer ex.Close()
	srv := ex.Server()
	// One address, one token: --token guards the tool API, the
	// controller's status and /metrics alike. The hook carries no token:
	// CI calls it, and --hook-secret protects it.
	srv.HandlePublic("POST /hooks/merge", ctl.Handler())
	srv.Handle("GET /controller/status", http.StripPrefix("/controller", ctl.Handler()))

	banner := func(ctx context.Context) error {
		if !waitFor(ctx, time.Minute, func() bool { return srv.Status().Release != "" }) {
			if ctx.Err() == nil {
				log.Warn("no tool set loaded after a minute: see the log above and `beeuni status`")
			}
			return nil
		}
		info := bannerInfo{project: name, repo: repoDir, branch: *branch, demo: isDemo, listen: *listen,
			nats: nats.ClientURL(), data: dataDir, token: ef.token != ""}
		if dir := ef.opencodeFolder(repoDir); dir != "" && h == loader.HarnessDefault {
			info.opencodePlugin = filepath.Join(dir, filepath.FromSlash(executor.OpencodePluginFile))
		}
		a.printBanner(srv, info)
		return nil
	}
	return a.runAll(ctx, log, ctl.Run, ex.Run, banner)
}

// chooseRepo picks the repository `up` watches, making the demo one when
// that is what is asked for or there is no project here.
func chooseRepo(repo string, demo bool, dataDir string) (dir string, isDemo bool, err error) {
	if repo != "" && !demo {
		abs, err := filepath.Abs(repo)
		return abs, false, err
	}
	if !demo {
		cwd, err := os.Getwd()
		if err == nil && exists(filepath.Join(cwd, ".git")) && exists(filepath.Join(cwd, loader.ManifestName)) {
			return cwd, false, nil
		}
	}
	dir = filepath.Join(dataDir, "demo")
	if exists(filepath.Join(dir, ".git")) {
		return dir, true, nil
	}
	return dir, true, makeDemoRepo(dir)
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

type bannerInfo struct {
	project, repo, branch, listen, nats, data string
	opencodePlugin                            string // "" when none is written
	demo, token                               bool
}

// printBanner tells a newcomer what runs, how to call a tool and how to see
// a change converge.
func (a *app) printBanner(srv *executor.Server, in bannerInfo) {
	st := srv.Status()
	base := "http://" + in.listen
	auth := ""
	if in.token {
		auth = ` -H "Authorization: Bearer $` + executor.EnvToken + `"`
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\nbeeuni is up: project %s, release %s, %d tools loaded", in.project, st.Release, len(st.Tools))
	if len(st.Failed) > 0 {
		fmt.Fprintf(&b, ", %d failed (see `beeuni status`)", len(st.Failed))
	}
	fmt.Fprintf(&b, "\n\n  Tool API     %s/beeuni/tools\n  Merge hook   POST %s/hooks/merge\n  NATS         %s (data in %s)\n  Repository   %s (branch %s)\n\n",
		base, base, in.nats, filepath.Join(in.data, "nats"), in.repo, in.branch)
	fmt.Fprintf(&b, "Tools: %s\n\n", strings.Join(st.Tools, ", "))
	tool, args := "greet", `{"name": "Ada"}`
	if !contains(st.Tools, tool) && len(st.Tools) > 0 {
		tool, args = st.Tools[len(st.Tools)-1], `{}`
	}
	fmt.Fprintf(&b, "Call a tool:\n  curl -s -X POST %s/beeuni/tools/%s%s -d '%s'\n\n", base, tool, auth, args)
	file := "tools/greet.ts"
	if !in.demo {
		file = "<a tool module>"
	}
	fmt.Fprintf(&b, "Change a tool and watch it converge:\n  cd %s\n  edit %s, then: git commit -am \"Change a tool\"\n", in.repo, file)
	fmt.Fprintf(&b, "  curl -s -X POST %s/hooks/merge   # the merge hook; without it the branch is polled every second\n", base)
	nflag := ""
	if in.nats != defaultNATSURL {
		nflag = " --nats " + in.nats
	}
	fmt.Fprintf(&b, "  beeuni status --project %s%s   # every executor, its release, converged or not\n\n", in.project, nflag)
	if in.opencodePlugin != "" {
		tokenVar := ""
		if in.token {
			tokenVar = " BEEUNI_EXECUTOR_TOKEN=<the --token>"
		}
		fmt.Fprintf(&b, "Use the tools in opencode (plugin %s):\n  cd %s && BEEUNI_EXECUTOR_URL=%s%s opencode\n\n", in.opencodePlugin, in.repo, base, tokenVar)
	}
	fmt.Fprintf(&b, "Ctrl-C stops everything; `beeuni up` again reuses %s.\n", in.data)
	fmt.Fprint(a.stdout, b.String())
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}
