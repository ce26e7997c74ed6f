package main

import (
	"errors"
	"flag"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"

	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// toolFlags are what `beeuni executor` and `beeuni up` let the operator
// decide about tools: memory bounds and the file policy.
type toolFlags struct {
	maxMemory, callMemory byteSize
	fsRead, fsWrite       string
}

func addToolFlags(fl *flag.FlagSet, f *toolFlags) {
	f.maxMemory, f.callMemory = jshost.DefaultMaxMemory, jshost.DefaultCallMemory
	fl.Var(&f.maxMemory, "max-memory", "the JS heaps of all tool calls together, e.g. 1GiB (also the process's Go memory limit)")
	fl.Var(&f.callMemory, "call-memory", "one tool call's JS heap, e.g. 256MiB: a single allocation past it throws a RangeError")
	fl.StringVar(&f.fsRead, "fs-read", "", "paths tools may (PATH) or may not (-PATH) read, comma-separated; beeuni's own state is never readable")
	fl.StringVar(&f.fsWrite, "fs-write", "", "paths tools may (PATH) or may not (-PATH) write, comma-separated; by default the workspace and the temp folder")
}

// policy checks the flags with what else tools must not reach, and sets
// the process's Go memory limit (unless GOMEMLIMIT does). An error names
// the flag to fix.
func (f *toolFlags) policy(private []string, deny []string, hide ...string) (policy.Config, error) {
	if f.callMemory > f.maxMemory {
		return policy.Config{}, fmt.Errorf("--call-memory %s is over --max-memory %s", &f.callMemory, &f.maxMemory)
	}
	cfg := policy.Config{Read: f.fsRead, Write: f.fsWrite, Private: private, DenyDial: deny, HideValues: hide}
	if _, err := policy.New(cfg); err != nil {
		return cfg, err
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(f.maxMemory))
	}
	return cfg, nil
}

// natsAddrs are the host:port of a NATS URL list, for the dial policy.
func natsAddrs(urls string) []string {
	var out []string
	for u := range strings.SplitSeq(urls, ",") {
		p, err := url.Parse(strings.TrimSpace(u))
		if err != nil || p.Host == "" {
			continue
		}
		host := p.Host
		if p.Port() == "" {
			host = net.JoinHostPort(p.Hostname(), "4222")
		}
		out = append(out, host)
	}
	return out
}

// absPaths makes the non-empty paths absolute.
func absPaths(paths ...string) []string {
	var out []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

// byteSize is a flag of bytes: 1073741824, 1GiB, 512MiB, 64KiB (also G,
// M, K, GB, MB, KB, all powers of 1024).
type byteSize uint64

func (b *byteSize) String() string {
	for _, u := range []struct {
		s string
		n uint64
	}{{"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if uint64(*b) >= u.n && uint64(*b)%u.n == 0 {
			return strconv.FormatUint(uint64(*b)/u.n, 10) + u.s
		}
	}
	return strconv.FormatUint(uint64(*b), 10)
}

func (b *byteSize) Set(s string) error {
	num := strings.TrimRight(s, "KMGiBb")
	unit := strings.ToLower(strings.TrimSpace(s[len(num):]))
	n, err := strconv.ParseUint(strings.TrimSpace(num), 10, 64)
	if err != nil {
		return errors.New("want a size such as 256MiB or 1GiB")
	}
	mult := map[string]uint64{"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20, "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30}[unit]
	if mult == 0 {
		return errors.New("want a size such as 256MiB or 1GiB")
	}
	if n == 0 {
		return errors.New("want a size above 0")
	}
	*b = byteSize(n * mult)
	return nil
}
