//go:build failpoint

package main

import (
	"os"
	"syscall"
)

// failpoint is BEEUNI_FAILPOINT=STEP, compiled only with -tags failpoint
// (the crash tests of e2e/process build so): the process kills itself
// (SIGKILL, as kill -9 would) when it reaches STEP of converging or
// publishing. The release binary has no such switch (nofailpoint.go).
func (a *app) failpoint() func(step string) {
	step := a.getenv("BEEUNI_FAILPOINT")
	if step == "" {
		return nil
	}
	return func(at string) {
		if at == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
}
