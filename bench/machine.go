package bench

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"time"
)

// Machine is what the figures were measured on.
type Machine struct {
	CPU        string `json:"cpu"`
	Cores      int    `json:"cores"`
	GOMAXPROCS int    `json:"gomaxprocs"`
	GOGC       int    `json:"gogc"` // the collector's setting in this process, beeuni's servers' included
	GoVersion  string `json:"go_version"`
	OS         string `json:"os"`
	Arch       string `json:"arch"`
	Kernel     string `json:"kernel,omitempty"`
	Memory     string `json:"memory,omitempty"`
	LoadAvg    string `json:"load_avg,omitempty"` // 1, 5, 15 min at start: the machine may be shared
	Node       string `json:"node,omitempty"`     // version of the Node.js baseline, "" when absent
	Bun        string `json:"bun,omitempty"`      // version of the Bun baseline, "" when absent or skipped
	Git        string `json:"git,omitempty"`      // version of the Git baseline, "" when absent
}

// probeMachine reads the machine facts; what cannot be read stays empty.
func probeMachine(ctx context.Context) Machine {
	m := Machine{
		CPU: cpuModel(), Cores: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), GOGC: gcPercent(),
		GoVersion: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH,
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.Kernel = strings.TrimSpace(string(b))
	}
	if kb := meminfoKB("MemTotal"); kb > 0 {
		m.Memory = fmt.Sprintf("%.1f GB", float64(kb)/(1<<20))
	}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAvg = strings.Join(f[:3], " ")
		}
	}
	m.Node = toolVersion(ctx, "node", "--version")
	if v := toolVersion(ctx, "git", "--version"); v != "" {
		m.Git = strings.TrimPrefix(v, "git version ")
	}
	return m
}

// gcPercent reads the GOGC in force (SetGCPercent has no getter).
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

func cpuModel() string {
	f, err := os.Open("/proc/cpuinfo")
	if err != nil {
		return runtime.GOARCH
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if k, v, ok := strings.Cut(sc.Text(), ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return runtime.GOARCH
}

func meminfoKB(key string) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	return statusKB(b, key)
}

// statusKB reads "Key:   1234 kB" from a /proc status or meminfo file.
func statusKB(b []byte, key string) int64 {
	for line := range bytes.SplitSeq(b, []byte("\n")) {
		k, v, ok := bytes.Cut(line, []byte(":"))
		if !ok || string(k) != key {
			continue
		}
		f := strings.Fields(string(v))
		if len(f) == 0 {
			return 0
		}
		n, _ := strconv.ParseInt(f[0], 10, 64)
		return n
	}
	return 0
}

func toolVersion(ctx context.Context, name string, args ...string) string {
	if name == "" {
		return ""
	}
	if _, err := exec.LookPath(name); err != nil {
		return ""
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}
