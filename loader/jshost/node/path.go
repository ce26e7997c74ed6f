package node

import (
	_ "embed"
	"path"
	"path/filepath"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// pathModule is node:path (POSIX), also node:path/posix: cwd is the checkout.
func pathModule(r *rt.Runtime) goja.Value {
	vm, dir := r.VM, r.Host.Directory
	o := vm.NewObject()
	strs := func(c goja.FunctionCall) []string {
		out := make([]string, len(c.Arguments))
		for i, a := range c.Arguments {
			s, ok := a.Export().(string)
			if !ok {
				panic(vm.NewTypeError(`The "path" argument must be of type string. Received ` + a.String()))
			}
			out[i] = s
		}
		return out
	}
	resolve := func(parts []string) string {
		r := ""
		for i := len(parts) - 1; i >= 0 && !strings.HasPrefix(r, "/"); i-- {
			if parts[i] != "" {
				r = strings.TrimSuffix(parts[i], "/") + "/" + r
			}
		}
		if !strings.HasPrefix(r, "/") {
			r = dir + "/" + r
		}
		return path.Clean(r)
	}
	_ = o.Set("sep", "/")
	_ = o.Set("delimiter", ":")
	_ = o.Set("normalize", func(p string) string { return normalize(p) })
	_ = o.Set("join", func(c goja.FunctionCall) goja.Value {
		var parts []string
		for _, s := range strs(c) {
			if s != "" {
				parts = append(parts, s)
			}
		}
		if len(parts) == 0 {
			return vm.ToValue(".")
		}
		return vm.ToValue(normalize(strings.Join(parts, "/")))
	})
	_ = o.Set("resolve", func(c goja.FunctionCall) goja.Value { return vm.ToValue(resolve(strs(c))) })
	_ = o.Set("isAbsolute", func(p string) bool { return strings.HasPrefix(p, "/") })
	_ = o.Set("dirname", func(p string) string { return dirname(p) })
	_ = o.Set("basename", func(p string, ext goja.Value) string {
		b := basename(p)
		if ext != nil && !goja.IsUndefined(ext) {
			if e := ext.String(); e != b && strings.HasSuffix(b, e) {
				b = strings.TrimSuffix(b, e)
			}
		}
		return b
	})
	_ = o.Set("extname", func(p string) string { return extname(basename(p)) })
	_ = o.Set("relative", func(from, to string) string {
		a, b := resolve([]string{from}), resolve([]string{to})
		r, err := filepath.Rel(a, b)
		if err != nil || r == "." {
			return ""
		}
		return r
	})
	_ = o.Set("parse", func(p string) map[string]string {
		base := basename(p)
		ext := extname(base)
		root := ""
		if strings.HasPrefix(p, "/") {
			root = "/"
		}
		dir := dirname(p)
		if dir == "." && !strings.Contains(p, "/") {
			dir = ""
		}
		return map[string]string{"root": root, "dir": dir, "base": base, "ext": ext, "name": strings.TrimSuffix(base, ext)}
	})
	_ = o.Set("format", func(obj map[string]any) string {
		get := func(k string) string { s, _ := obj[k].(string); return s }
		dir := get("dir")
		if dir == "" {
			dir = get("root")
		}
		base := get("base")
		if base == "" {
			base = get("name") + get("ext")
		}
		if dir == "" {
			return base
		}
		if dir == get("root") {
			return dir + base
		}
		return dir + "/" + base
	})
	_ = o.Set("toNamespacedPath", func(p string) string { return p })
	_ = o.Set("posix", o)
	_ = o.Set("win32", pathWin32(r, o))
	return o
}

//go:embed js/path_win32.js
var pathWin32JS string

var pathWin32Program = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:path_win32.js", pathWin32JS, true) })

// pathWin32 is path.win32: Node's own code (js/path_win32.js), whose
// resolve starts from the checkout as Node's starts from the cwd on Linux.
func pathWin32(r *rt.Runtime, posix *goja.Object) *goja.Object {
	vm := r.VM
	n := vm.NewObject()
	_ = n.Set("cwd", func() string { return r.Host.Directory })
	env := vm.NewObject()
	for k, v := range r.Host.Env {
		if strings.HasPrefix(k, "=") { // the drive cwds win32.resolve reads
			_ = env.Set(k, v)
		}
	}
	_ = n.Set("env", env)
	_ = n.Set("posix", posix)
	_ = n.Set("inspect", func(v goja.Value) string { return r.Inspect(v) })
	return runFactory(r, pathWin32Program(), n)
}

// normalize is Node's path.normalize: Clean, keeping a trailing slash.
func normalize(p string) string {
	if p == "" {
		return "."
	}
	c := path.Clean(p)
	if strings.HasSuffix(p, "/") && c != "/" {
		c += "/"
	}
	return c
}

func trimSlashes(p string) string {
	for len(p) > 1 && strings.HasSuffix(p, "/") {
		p = p[:len(p)-1]
	}
	return p
}

func dirname(p string) string {
	if p == "" {
		return "."
	}
	return path.Dir(trimSlashes(p))
}

func basename(p string) string {
	p = trimSlashes(p)
	if p == "/" {
		return ""
	}
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[i+1:]
	}
	return p
}

func extname(base string) string {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 {
		return ""
	}
	return base[i:]
}
