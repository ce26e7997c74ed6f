package jshost

import (
	"net/url"
	"os"
	"os/user"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/dop251/goja"
)

// osModule is node:os about the box the tool runs in.
func (w *worker) osModule() *goja.Object {
	vm := w.vm
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

// addFileURL adds fileURLToPath and pathToFileURL to node:url.
func (w *worker) addFileURL(m *goja.Object) {
	vm := w.vm
	_ = m.Set("fileURLToPath", func(v goja.Value) string {
		s := v.String()
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "file" {
			panic(vm.NewTypeError("The URL must be of scheme file: " + s))
		}
		return u.Path
	})
	_ = m.Set("pathToFileURL", func(p string) goja.Value {
		if !filepath.IsAbs(p) {
			p = filepath.Join(w.h.opts.Directory, p)
		}
		u := url.URL{Scheme: "file", Path: p}
		v, err := vm.New(vm.Get("URL"), vm.ToValue(u.String()))
		if err != nil {
			panic(err)
		}
		return v
	})
}
