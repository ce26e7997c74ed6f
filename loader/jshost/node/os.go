package node

import (
	"os"
	"os/user"
	"runtime"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// osModule is node:os about the box the tool runs in.
func osModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	o := vm.NewObject()
	_ = o.Set("EOL", "\n")
	_ = o.Set("platform", func() string { return runtime.GOOS })
	_ = o.Set("arch", nodeArch)
	_ = o.Set("type", func() string {
		if runtime.GOOS == "linux" {
			return "Linux"
		}
		return strings.ToUpper(runtime.GOOS[:1]) + runtime.GOOS[1:]
	})
	_ = o.Set("release", func() string {
		b, _ := os.ReadFile("/proc/sys/kernel/osrelease")
		return strings.TrimSpace(string(b))
	})
	_ = o.Set("hostname", func() string { h, _ := os.Hostname(); return h })
	_ = o.Set("homedir", func() string { h, _ := os.UserHomeDir(); return h })
	_ = o.Set("tmpdir", func() string { return strings.TrimSuffix(os.TempDir(), "/") })
	_ = o.Set("endianness", func() string { return "LE" })
	_ = o.Set("availableParallelism", runtime.NumCPU)
	_ = o.Set("cpus", func() []map[string]any {
		out := make([]map[string]any, runtime.NumCPU())
		for i := range out {
			out[i] = map[string]any{"model": runtime.GOARCH, "speed": 0}
		}
		return out
	})
	_ = o.Set("userInfo", func() map[string]any {
		u, err := user.Current()
		if err != nil {
			return map[string]any{"username": os.Getenv("USER"), "homedir": os.Getenv("HOME"), "shell": os.Getenv("SHELL")}
		}
		return map[string]any{"username": u.Username, "homedir": u.HomeDir, "uid": u.Uid, "gid": u.Gid, "shell": os.Getenv("SHELL")}
	})
	return o
}

// nodeArch is process.arch and os.arch(): Node's names for GOARCH.
func nodeArch() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x64"
	case "386":
		return "ia32"
	}
	return runtime.GOARCH
}
