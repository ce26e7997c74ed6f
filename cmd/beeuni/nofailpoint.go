//go:build !failpoint

package main

// failpoint is no hook in the release binary: no environment can make a
// production process kill itself. Crash tests build with -tags failpoint
// (failpoint.go).
func (a *app) failpoint() func(step string) { return nil }
