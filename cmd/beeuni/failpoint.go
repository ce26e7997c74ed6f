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
// The variable is taken out of the environment once read, so no tool the
// process loads sees it; its name stays out of the release binary.
func (a *app) failpoint() func(step string) {
	step := a.getenv("BEEUNI_FAILPOINT")
	if step == "" {
		return nil
	}
	_ = os.Unsetenv("BEEUNI_FAILPOINT")
	return func(at string) {
		if at == step {
			_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		}
	}
}
