//go:build race

package jshost

// raceSlowdown: Go code (goja's builtins) runs several times slower
// under the race detector; tests that need a builtin to run a given time
// scale its work down by this much.
const raceSlowdown = 8
