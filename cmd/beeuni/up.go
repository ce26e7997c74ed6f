package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
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
	usage := "up [--repo DIR] [--demo] [--listen ADDR] [--data DIR] [--nats-port N] [--token T] [--hook-secret S] [--harness H] [--opencode-dir DIR] [--max-memory BYTES] [--call-memory BYTES] [--cache-max BYTES] [--idle-release DURATION] [--fs-read PATHS] [--fs-write PATHS] [--nats-log]"
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
	natsLog := fl.Bool("nats-log", false, "show the embedded NATS server's log (also with BEEUNI_LOG_LEVEL=debug); by default only its warnings and errors")
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
	a.tuneGC(log)
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
		StoreDir: filepath.Join(dataDir, "nats"), ServerName: "beeuni-up", Logger: a.natsLogger(log, *natsLog)})
	if err != nil {
		a.errorf(nil, "start the embedded NATS server: %v (is another `beeuni up` running? pass --nats-port)", err)
		return exitFailure
	}
	defer nats.Shutdown()
	// Operator commands run beside this one find the project and NATS here.
	if err := writeUpState(dataDir, upState{Project: name, NATS: nats.ClientURL(), Repo: repoDir, Listen: *listen}); err != nil {
		a.errorf(nil, "%v", err)
		return exitFailure
	}
	defer os.Remove(filepath.Join(dataDir, upStateFile))
	self := a.selfCommand()
	notices := &upNotices{w: a.stdout, self: self}
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
	checker := modcheck.New(modcheck.Options{Logger: log, Spare: true, TempDir: filepath.Join(dataDir, "controller", "check")})
	defer checker.Close()
	ctl, err := controller.New(controller.Config{Project: name, Repo: repoDir, Branch: *branch, Poll: *poll,
		DataDir: filepath.Join(dataDir, "controller"), HookSecret: *secret, Key: key, Bus: bus, DB: db, Logger: log, Registerer: reg, Harness: h,
		CheckModules: checker.Check, OnRejected: notices.rejected})
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
	// Bound before the tool set is restored, so the address the banner
	// prints answers as soon as it is printed.
	ln, err := net.Listen("tcp", *listen)
	if err != nil {
		a.errorf(nil, "listen on %s: %v (choose another address with --listen)", *listen, err)
		return exitFailure
	}
	ex, err := executor.NewExecutor(executor.Config{ID: "local", Project: name, DataDir: filepath.Join(dataDir, "executor"),
		Workspace: repoDir, Harness: h, OpencodeDir: ef.opencodeFolder(repoDir), TrustKey: key.Public().(ed25519.PublicKey), Bus: bus, DefaultTimeout: ef.timeout, Logger: log,
		Policy: pol, MaxMemory: uint64(ef.tools.maxMemory), CallMemory: uint64(ef.tools.callMemory), CacheMax: uint64(ef.cacheMax),
		Launcher: selfLauncher(),
		Server:   ef.server.apply(executor.Options{Addr: *listen, Listener: ln, Token: ef.token, Env: envSnapshot(), Logger: log, Registry: reg, IdleRelease: ef.idleRelease})})
	if err != nil {
		ln.Close()
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
		// A tool set is loaded, or the first commit was rejected: there
		// is nothing to load until a commit passes.
		ready := func() bool {
			r := ctl.Status().Rejected
			return srv.Status().Release != "" || r != nil && r.StaysOn == ""
		}
		info := bannerInfo{project: name, repo: repoDir, branch: *branch, demo: isDemo, listen: *listen,
			nats: nats.ClientURL(), data: dataDir, token: ef.token != "", self: self, upArgs: args}
		if !waitFor(ctx, time.Minute, ready) {
			if ctx.Err() == nil {
				log.Warn("no tool set loaded after a minute: see the log above and `" + info.statusCommand() + "`")
			}
			return nil
		}
		if dir := ef.opencodeFolder(repoDir); dir != "" && h == loader.HarnessDefault {
			info.opencodePlugin = filepath.Join(dir, filepath.FromSlash(executor.OpencodePluginFile))
		}
		notices.banner(func(w io.Writer) { printBanner(w, srv, ctl.Status().Rejected, info) })
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
	self                                      string   // how to run beeuni (selfCommand)
	upArgs                                    []string // the arguments up was given
}

// statusCommand is `beeuni status` as the user can run it from anywhere.
func (in bannerInfo) statusCommand() string {
	cmd := in.self + " status --project " + in.project
	if in.nats != defaultNATSURL {
		cmd += " --nats " + in.nats
	}
	return cmd
}

// printBanner tells a newcomer what runs, how to call a tool and how to see
// a change converge; rejected is the controller's newest rejection, if any.
func printBanner(w io.Writer, srv *executor.Server, rejected *controller.Rejection, in bannerInfo) {
	st := srv.Status()
	base := "http://" + in.listen
	auth := ""
	if in.token {
		auth = ` -H "Authorization: Bearer $` + executor.EnvToken + `"`
	}
	var b strings.Builder
	if st.Release == "" {
		fmt.Fprintf(&b, "\nbeeuni is up: project %s, no release yet", in.project)
	} else {
		fmt.Fprintf(&b, "\nbeeuni is up: project %s, release %s, %d tools loaded", in.project, st.Release, len(st.Tools))
	}
	if len(st.Failed) > 0 {
		fmt.Fprintf(&b, ", %d failed (see `%s`)", len(st.Failed), in.statusCommand())
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
	fmt.Fprintf(&b, "Change a tool and watch it converge:\n  edit %s in %s, then: (cd %s && git commit -am \"Change a tool\")\n", file, in.repo, shellQuote(in.repo))
	fmt.Fprintf(&b, "  curl -s -X POST %s/hooks/merge   # the merge hook; without it the branch is polled every second\n", base)
	fmt.Fprintf(&b, "  %s   # every executor, its release, converged or not\n\n", in.statusCommand())
	if in.opencodePlugin != "" {
		tokenVar := ""
		if in.token {
			tokenVar = " BEEUNI_EXECUTOR_TOKEN=<the --token>"
		}
		fmt.Fprintf(&b, "Use the tools in opencode (plugin %s):\n  cd %s && BEEUNI_EXECUTOR_URL=%s%s opencode\n\n", in.opencodePlugin, in.repo, base, tokenVar)
	}
	if rejected != nil {
		writeRejection(&b, rejected, in.self)
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "Ctrl-C stops everything; `%s` again reuses %s.\n", upCommand(in.self, in.upArgs), in.data)
	fmt.Fprint(w, b.String())
}

// upCommand is the command that started this `up`, to run it again.
func upCommand(self string, args []string) string {
	cmd := self + " up"
	for _, a := range args {
		cmd += " " + shellQuote(a)
	}
	return cmd
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// upNotices writes what `up` tells the user on standard output: the banner
// once, then each commit the controller rejects. A rejection before the
// banner is in the banner, so it is not printed twice.
type upNotices struct {
	w    io.Writer
	self string

	mu      sync.Mutex // orders the banner and the notices; guards printed
	printed bool
}

// banner prints the banner with print, once.
func (n *upNotices) banner(print func(io.Writer)) {
	n.mu.Lock()
	defer n.mu.Unlock()
	print(n.w)
	n.printed = true
}

// rejected is the controller's OnRejected.
func (n *upNotices) rejected(r controller.Rejection) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.printed {
		return
	}
	var b strings.Builder
	b.WriteString("\n")
	writeRejection(&b, &r, n.self)
	fmt.Fprint(n.w, b.String())
}

// natsLogger is the embedded NATS server's logger: quiet (its warnings and
// errors only) unless --nats-log or BEEUNI_LOG_LEVEL=debug asks for its
// startup banner and the rest.
func (a *app) natsLogger(log *slog.Logger, verbose bool) *slog.Logger {
	if verbose || log.Enabled(context.Background(), slog.LevelDebug) {
		return log
	}
	return slog.New(minLevel{log.Handler(), slog.LevelWarn})
}

// minLevel drops records below its level.
type minLevel struct {
	slog.Handler
	level slog.Level
}

func (m minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= m.level && m.Handler.Enabled(ctx, l)
}

func (m minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{m.Handler.WithAttrs(attrs), m.level}
}

func (m minLevel) WithGroup(name string) slog.Handler {
	return minLevel{m.Handler.WithGroup(name), m.level}
}
