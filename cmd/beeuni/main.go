// Command beeuni hosts the tools AI agents call and keeps a fleet of sandbox
// executors converged on each project's tool configuration in Git.
//
// This file only dispatches: every subcommand lives in its own file and the
// packages do the work.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"syscall"
)

// Exit codes shared by every command (SPEC section 2).
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// app carries what a command may touch of the outside world, so tests can run
// commands in process with their own streams and environment.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// command is one subcommand: its usage line, a one-line summary and its body.
type command struct {
	usage   string
	summary string
	run     func(a *app, ctx context.Context, args []string) int
}

func (a *app) commands() map[string]command {
	return map[string]command{
		"validate":   {"validate [--dir DIR] [--load] [--harness H]", "check beeuni.yaml and its imports", (*app).validate},
		"tools":      {"tools ls|eject|call ...", "list, eject or call the project's tools", (*app).tools},
		"up":         {"up [--repo DIR] [--demo] [--listen ADDR] [--data DIR]", "everything on one machine: embedded NATS, a controller, one executor", (*app).up},
		"controller": {"controller --repo PATH|URL [flags]", "watch the branch; build, sign and publish releases", (*app).controllerCmd},
		"executor":   {"executor [--id ID] [--listen ADDR] [--data DIR] [flags]", "one sandbox executor: converge on releases, serve tool calls", (*app).executorCmd},
		"release":    {"release ls|show|diff|replay ...", "list, show, compare or replay the project's releases", (*app).releaseCmd},
		"status":     {"status [--json]", "the fleet: each executor, its release, converged or not", (*app).status},
		"secrets":    {"secrets set NAME=-", "store a secret for the fleet, read from standard input", (*app).secrets},
		"bench":      {"bench [SCENARIO] [--json] [--rounds N] [--quick]", "benchmarks against Bun, Node.js, Git, esbuild and NATS baselines", (*app).benchCmd},
	}
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := (&app{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv}).run(ctx, os.Args[1:])
	stop()
	os.Exit(code)
}

func (a *app) run(ctx context.Context, args []string) int {
	cmds := a.commands()
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.usage(cmds)
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	if args[0] == "internal" {
		return a.internalCmd(ctx, args[1:])
	}
	c, ok := cmds[args[0]]
	if !ok {
		fmt.Fprintf(a.stderr, "beeuni: unknown command %q\n\n", args[0])
		a.usage(cmds)
		return exitUsage
	}
	return c.run(a, ctx, args[1:])
}

func (a *app) usage(cmds map[string]command) {
	names := make([]string, 0, len(cmds))
	for n := range cmds {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	b.WriteString("Usage: beeuni COMMAND [flags]\n\nCommands:\n")
	for _, n := range names {
		fmt.Fprintf(&b, "  %-48s %s\n", cmds[n].usage, cmds[n].summary)
	}
	b.WriteString("\nRun 'beeuni COMMAND --help' for a command's flags.\n")
	fmt.Fprint(a.stderr, b.String())
}
