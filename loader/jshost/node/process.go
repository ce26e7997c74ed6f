package node

import (
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// process is the part of Node's process a tool reads.
func process(r *rt.Runtime) *goja.Object {
	vm := r.VM
	p := vm.NewObject()
	env := vm.NewObject()
	for k, v := range r.Host.Env {
		_ = env.Set(k, v)
	}
	_ = p.Set("env", env)
	_ = p.Set("platform", runtime.GOOS)
	_ = p.Set("arch", nodeArch())
	_ = p.Set("version", "v22.0.0")
	_ = p.Set("versions", map[string]string{"node": "22.0.0", "bun": rt.BunVersion})
	_ = p.Set("argv", []string{"beeuni"})
	_ = p.Set("pid", 1)
	_ = p.Set("cwd", func() string { return r.Host.Directory })
	_ = p.Set("exit", func(code goja.Value) {
		panic(vm.NewGoError(fmt.Errorf("process.exit(%s) is not available to tools: return or throw instead", code)))
	})
	_ = p.Set("nextTick", func(c goja.FunctionCall) goja.Value {
		fn, ok := goja.AssertFunction(c.Argument(0))
		if !ok {
			panic(vm.NewTypeError("The \"callback\" argument must be of type function"))
		}
		args := append([]goja.Value(nil), c.Arguments[1:]...)
		qm, _ := goja.AssertFunction(vm.Get("queueMicrotask"))
		_, _ = qm(goja.Undefined(), vm.ToValue(func() { _, _ = fn(goja.Undefined(), args...) }))
		return goja.Undefined()
	})
	start := time.Now()
	_ = p.Set("uptime", func() float64 { return time.Since(start).Seconds() })
	_ = p.Set("hrtime", func(c goja.FunctionCall) goja.Value {
		ns := time.Since(start).Nanoseconds()
		return vm.ToValue([]int64{ns / 1e9, ns % 1e9})
	})
	hr := p.Get("hrtime").ToObject(vm)
	_ = hr.Set("bigint", func() goja.Value {
		v, _ := vm.RunString(fmt.Sprintf("%dn", time.Since(start).Nanoseconds()))
		return v
	})
	_ = p.Set("emitWarning", func(c goja.FunctionCall) goja.Value {
		r.Host.Logger.Warn("tool console", slog.String("tool", r.Tool), slog.String("text", r.Format(c.Arguments)))
		return goja.Undefined()
	})
	return p
}
