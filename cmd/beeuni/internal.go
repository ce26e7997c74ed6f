package main

import (
	"context"

	"github.com/beeuni/beeuni/internal/launch"
	"github.com/beeuni/beeuni/internal/modcheck"
)

// internalCmd is `beeuni internal SUBCOMMAND`: processes beeuni starts from
// its own binary, left out of the help. `internal check` is the
// controller's module check: it confines itself, reads a request on stdin
// and reports on stdout (internal/modcheck). `internal launch` starts a
// process a tool asked for, confined (internal/launch).
func (a *app) internalCmd(ctx context.Context, args []string) int {
	if len(args) == 1 && args[0] == "check" {
		return modcheck.Serve(ctx, a.stdin, a.stdout, a.stderr)
	}
	if launch.Requested(append([]string{"internal"}, args...), a.getenv) {
		return launch.Serve()
	}
	a.errorf(nil, "internal commands are started by beeuni itself, not by hand")
	return exitUsage
}
