package node

import (
	"context"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

type processKey struct{}

// process is the part of Node's process a tool reads: the global and
// node:process, one object per runtime.
func process(r *rt.Runtime) *goja.Object {
	return rt.Local(r, processKey{}, func() *goja.Object { return newProcess(r) })
}

func newProcess(r *rt.Runtime) *goja.Object {
	vm := r.VM
	// An EventEmitter, as in Node (libraries call process.on at import);
	// its events other than those a tool emits itself never come.
	ee, _ := goja.AssertConstructor(eventsModule(r))
	p, err := ee(nil)
	if err != nil {
		panic(err)
	}
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
		_, _ = qm(goja.Undefined(), vm.ToValue(func() {
			_, err := fn(goja.Undefined(), args...)
			if ex, ok := err.(*goja.Exception); ok {
				r.Uncaught("a process.nextTick callback", ex)
			} else if err != nil {
				panic(err) // an interrupt: the host is stopping the call
			}
		}))
		return goja.Undefined()
	})
	start := origin(r)
	_ = p.Set("uptime", func() float64 { return time.Since(start).Seconds() })
	_ = p.Set("hrtime", func(c goja.FunctionCall) goja.Value {
		ns := time.Since(start).Nanoseconds()
		// hrtime(prev) is the time since prev, [seconds, nanoseconds].
		if prev, ok := c.Argument(0).(*goja.Object); ok {
			ns -= prev.Get("0").ToInteger()*1e9 + prev.Get("1").ToInteger()
		}
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
	_ = p.Set("argv0", "beeuni")
	_ = p.Set("execArgv", []string{})
	_ = p.Set("title", "beeuni")
	_ = p.Set("release", map[string]string{"name": "node"})
	_ = p.Set("memoryUsage", memoryUsage(r))
	_ = p.Set("stdout", stream(r, slog.LevelInfo, 1))
	_ = p.Set("stderr", stream(r, slog.LevelWarn, 2))
	return p
}

// memoryUsage is process.memoryUsage: the Go heap of the whole host, the
// nearest it has to Node's numbers.
func memoryUsage(r *rt.Runtime) goja.Value {
	read := func() map[string]uint64 {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return map[string]uint64{"rss": m.Sys, "heapTotal": m.HeapSys, "heapUsed": m.HeapAlloc, "external": 0, "arrayBuffers": 0}
	}
	f := r.VM.ToValue(func() map[string]uint64 { return read() }).ToObject(r.VM)
	_ = f.Set("rss", func() uint64 { return read()["rss"] })
	return f
}

// stream is process.stdout or process.stderr: not a terminal (no isTTY,
// as Node's pipes); what a tool writes goes to the log as console output.
func stream(r *rt.Runtime, level slog.Level, fd int) *goja.Object {
	vm := r.VM
	s := vm.NewObject()
	_ = s.Set("fd", fd)
	_ = s.Set("write", func(c goja.FunctionCall) goja.Value {
		text := c.Argument(0).String()
		if o, ok := c.Argument(0).(*goja.Object); ok {
			if b, ok := exportBytes(o); ok {
				text = string(b)
			}
		}
		r.Host.Logger.Log(context.Background(), level, "tool console", slog.String("tool", r.Tool), slog.String("text", text))
		for _, a := range c.Arguments[1:] {
			if fn, ok := goja.AssertFunction(a); ok {
				_, _ = fn(goja.Undefined())
			}
		}
		return vm.ToValue(true)
	})
	return s
}
