// Package gctune sets the Go collector for beeuni's long-running servers
// (executor, up, bench), where tool calls allocate short-lived JS values
// at a high rate: the default GOGC of 100 spends a quarter of a JSON-heavy
// call collecting. A larger GOGC lets the heap grow to more times its live
// size between collections; the executor gives the memory back when it
// goes idle (executor.Options.IdleRelease), and a container's memory limit
// caps the growth.
package gctune

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
)

// Percent is the GOGC set when the environment sets none. Measured on the
// call benchmark (docs/benchmarks.md): 10 KB JSON tool 274 -> 196 µs per
// call at 16 clients, the trivial tool 35 -> 28 µs; 200 gains about half.
const Percent = 400

// limitShare is the part of a container's memory limit given to the Go
// runtime as its soft limit: the rest is for what Go does not count
// (thread stacks, SQLite's memory, the kernel's page cache charged to it).
const limitShare = 0.85

// Settings are what Apply set, for the start-up log.
type Settings struct {
	Percent     int    // the GOGC in force
	LimitBytes  int64  // the soft memory limit set, 0 when none was set here
	PercentFrom string // "default", or "GOGC" when the environment chose it
	LimitFrom   string // "", "GOMEMLIMIT" or the cgroup file read
}

// Apply sets the collector: GOGC=Percent unless the environment sets GOGC,
// and, unless it sets GOMEMLIMIT, a soft limit of limitShare of the cgroup
// memory limit at cgroupFile when there is one and no lower limit is set
// (the executor's --max-memory). The Go runtime has already
// read GOGC and GOMEMLIMIT when they are set; Apply leaves them alone.
func Apply(getenv func(string) string, cgroupFile string) Settings {
	s := Settings{PercentFrom: "GOGC"}
	if v := getenv("GOGC"); v != "" {
		s.Percent = debug.SetGCPercent(-1)
		debug.SetGCPercent(s.Percent)
	} else {
		debug.SetGCPercent(Percent)
		s.Percent, s.PercentFrom = Percent, "default"
	}
	if getenv("GOMEMLIMIT") != "" {
		s.LimitFrom = "GOMEMLIMIT"
		return s
	}
	if max, ok := cgroupLimit(cgroupFile); ok {
		// A lower limit set before (the executor's --max-memory) stays.
		if lim := int64(float64(max) * limitShare); lim < debug.SetMemoryLimit(-1) {
			s.LimitBytes, s.LimitFrom = lim, cgroupFile
			debug.SetMemoryLimit(lim)
		}
	}
	return s
}

// CgroupV2 is the memory limit of this process's cgroup (cgroup v2, the
// unified hierarchy mounted where containers mount it).
const CgroupV2 = "/sys/fs/cgroup/memory.max"

// cgroupLimit reads a memory.max file: a number of bytes, or "max" for none.
func cgroupLimit(path string) (int64, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return 0, false
	}
	v := strings.TrimSpace(string(b))
	if v == "max" {
		return 0, false
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, false
	}
	return n, true
}
