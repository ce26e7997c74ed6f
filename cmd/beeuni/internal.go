package main

import (
	"context"

	"github.com/beeuni/beeuni/internal/modcheck"
)

// internalCmd is `beeuni internal SUBCOMMAND`: processes beeuni starts from
// its own binary, left out of the help. `internal check` is the
// controller's module check: it confines itself, reads a request on stdin
// and reports on stdout (internal/modcheck).
func (a *app) internalCmd(ctx context.Context, args []string) int {
	if len(args) == 1 && args[0] == "check" {
		return modcheck.Serve(ctx, a.stdin, a.stdout, a.stderr)
	}
	a.errorf(nil, "internal commands are started by beeuni itself, not by hand")
	return exitUsage
}
