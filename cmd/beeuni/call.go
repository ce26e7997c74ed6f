package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/redact"
	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/release"
)

// toolsCall is `beeuni tools call NAME [--args JSON|-] [--agent A]
// [--parent-agent P] [--session S]`: it loads the working tree's tool and
// calls it as the executor would, and prints what the model receives.
func (a *app) toolsCall(ctx context.Context, args []string) int {
	usage := "tools call NAME [--args JSON|-] [--agent A] [--parent-agent P] [--session S] [--dir DIR] [--harness H] [--validate-args off|warn|enforce]"
	fl := a.newFlags("tools call", usage)
	var pc projectCmd
	addProjectFlags(fl, &pc)
	argsJSON := fl.String("args", "{}", "the arguments as a JSON object, or - to read them from standard input")
	agent := fl.String("agent", "beeuni", "the agent making the call (its tools list decides visibility)")
	parent := fl.String("parent-agent", "", "the session agent that started --agent as a subagent with `task` (the harness's subagent rule applies)")
	session := fl.String("session", "local", "the session id the tool sees as context.sessionId")
	var sf serverFlags
	fl.StringVar(&sf.validateArgs, "validate-args", "", "check the arguments against the parameters schema: off (the default), warn or enforce")
	pos, h, root, code, ok := a.parseProject(fl, &pc, args, func(pos []string) error {
		if len(pos) != 1 {
			return errors.New("tools call takes one tool name")
		}
		return nil
	})
	if !ok {
		return code
	}
	if !a.checkServerFlags(&sf) {
		return exitUsage
	}
	name := pos[0]
	raw, err := a.callArgs(*argsJSON)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	if !a.manifestExists(root) {
		return exitFailure
	}
	// The working tree as it is, so a tool can be tried before it is
	// committed; what Git would not ship is said first, as warnings.
	if w, err := release.OpenWorktree(ctx, root); err == nil {
		v := &shipView{root: root, wt: w}
		for _, f := range v.shipping(h) {
			f.Severity = loader.SeverityWarning
			fmt.Fprintln(a.stderr, f.String())
		}
	}
	p := loader.Read(os.DirFS(root), h)
	if p.HasErrors() {
		for _, f := range p.Findings {
			fmt.Fprintln(a.stderr, f.String())
		}
		a.errorf(nil, "tools call: fix the errors above first (run `beeuni validate`)")
		return exitFailure
	}
	if _, ok := p.Tool(name); !ok {
		a.errorf(nil, "%s", notLoadedText(h, name))
		return exitFailure
	}
	if !p.VisibleTo(*agent, *parent, name) {
		if *parent != "" && p.Visible(*agent, name) {
			a.errorf(nil, "tool %s is hidden from agent %s, a subagent of %s: on the %s runtime a subagent sees only the tools both its own list and its session agent's list allow: add it to agents.%s.tools in %s, or call it from another agent", name, *agent, *parent, h, *parent, loader.ManifestName)
			return exitFailure
		}
		a.errorf(nil, "tool %s is hidden from agent %s: add it to agents.%s.tools in %s, or call it as another agent with --agent", name, *agent, *agent, loader.ManifestName)
		return exitFailure
	}
	var spec []jshost.Spec
	for _, s := range p.Specs() {
		if s.Name == name {
			spec = append(spec, s)
		}
	}
	// The tool's console output is shown; the load-failure record is not,
	// since the failure is printed below as the command's error.
	logger := slog.New(dropMessage{slog.NewTextHandler(a.stderr, &slog.HandlerOptions{Level: slog.LevelInfo}), loadFailedMsg})
	set := jshost.Load(ctx, spec, jshost.Options{Root: root, Logger: logger, Bundler: bundle.New(nil), Policy: localPolicy(root), Launcher: selfLauncher()})
	defer set.Close()
	for _, f := range set.Failures() {
		a.errorf(nil, "%s", notLoadedText(h, name))
		fmt.Fprintln(a.stderr, redact.Line(fmt.Sprintf("tool %s (%s) did not load: %s", f.Name, f.Source, f.Reason)))
		return exitFailure
	}
	// The executor's pipeline: duplicate keys, normalization, parseArgs, validation.
	check := &executor.ArgsCheck{Tool: name, Agent: *agent, Session: *session, Mode: sf.mode,
		Validator: executor.Validators(nil, set.Tools(), logger)[name], Log: logger}
	res, err := set.CallWith(ctx, name, raw, jshost.CallContext{SessionID: *session, Agent: *agent, Env: environ()},
		jshost.CallOptions{Args: check})
	if err != nil {
		a.errorf(nil, "call %s: %v", name, err)
		return exitFailure
	}
	if res.IsError {
		fmt.Fprintln(a.stderr, res.Output)
		return exitFailure
	}
	fmt.Fprintln(a.stdout, strings.TrimSuffix(res.Output, "\n"))
	return exitOK
}

// notLoadedText is what a call to a tool that is not loaded answers: on the
// experimental runtime the reference's `Tool <name> not found`, elsewhere
// the executor's 404 text.
func notLoadedText(h loader.Harness, name string) string {
	if h == loader.HarnessExperimental {
		return fmt.Sprintf("Tool %s not found", name)
	}
	return fmt.Sprintf("no tool named %s is loaded", name)
}

// loadFailedMsg is the record jshost logs for modules that did not load.
const loadFailedMsg = "[tools] project tools that did not load"

// dropMessage is a slog handler that leaves out records with one message.
type dropMessage struct {
	slog.Handler
	msg string
}

func (d dropMessage) Handle(ctx context.Context, r slog.Record) error {
	if r.Message == d.msg {
		return nil
	}
	return d.Handler.Handle(ctx, r)
}

func (d dropMessage) WithAttrs(as []slog.Attr) slog.Handler {
	return dropMessage{d.Handler.WithAttrs(as), d.msg}
}

func (d dropMessage) WithGroup(name string) slog.Handler {
	return dropMessage{d.Handler.WithGroup(name), d.msg}
}

// callArgs reads --args: a JSON object, or - for standard input.
func (a *app) callArgs(v string) (json.RawMessage, error) {
	data := []byte(v)
	if v == "-" {
		var err error
		if data, err = io.ReadAll(io.LimitReader(a.stdin, 1<<20+1)); err != nil {
			return nil, fmt.Errorf("--args -: read standard input: %w", err)
		}
		if len(data) > 1<<20 {
			return nil, errors.New("--args -: the arguments are larger than 1 MiB")
		}
	}
	if strings.TrimSpace(string(data)) == "" {
		data = []byte("{}")
	}
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("--args must be a JSON object such as '{\"query\": \"beeuni\"}'")
	}
	return data, nil
}

// localPolicy is the file policy of tools run on the user's own tree: the
// tree is the workspace; a `beeuni up` data folder in it (its signing
// key, NATS, the executor's cache) is beeuni's own state.
func localPolicy(root string) policy.Config {
	return policy.Config{Private: []string{filepath.Join(root, ".beeuni")}}
}

// environ is the process environment as context.env sees it.
func environ() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if k, v, ok := strings.Cut(kv, "="); ok {
			env[k] = v
		}
	}
	return env
}
