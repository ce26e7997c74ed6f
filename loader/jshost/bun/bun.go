// Package bun is the Bun platform of every runtime: the Bun global and
// the "bun" module (the same object), emulating Bun rt.BunVersion, and
// bun:sqlite. Files (Bun.file, Bun.write, Bun.Glob's scans, bun:sqlite's
// database files and ATTACHed ones) go through the host's policy as
// node:fs does; processes (Bun.spawn, Bun.$) start through the host's
// launcher, confined, as node:child_process's do. Most of it is js/bun.js
// and js/sqlite.js over the Go bindings of this package; SQLite is
// github.com/ncruces/go-sqlite3 (pure Go: SQLite compiled to wasm, then to
// Go), one SQLite with its own bounded memory per open database.
package bun

import (
	_ "embed"
	"sync"
	"time"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/bun.js
var bunJS string

// bunProgram is compiled once per process: a *goja.Program is immutable
// and may run in any number of runtimes.
var bunProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:bun.js", bunJS, true) })

// Platform is the Bun platform: the Bun global and require("bun").
func Platform() rt.Platform {
	return rt.Platform{
		Install: func(r *rt.Runtime) error {
			r.LazyGlobal("Bun", false, func() goja.Value { return bunObject(r) })
			return nil
		},
		Modules: rt.Modules{
			"bun":        func(r *rt.Runtime) goja.Value { return bunObject(r) },
			"bun:sqlite": sqliteModule,
		},
	}
}

type bunKey struct{}

// bunObject is the runtime's Bun object, made once: the global and the
// module are the same object, as in Bun.
func bunObject(r *rt.Runtime) goja.Value {
	return rt.Local(r, bunKey{}, func() goja.Value {
		return runFactory(r, bunProgram(), natives(r))
	})
}

// natives are the Go bindings js/bun.js builds on.
func natives(r *rt.Runtime) *goja.Object {
	vm := r.VM
	n := vm.NewObject()
	set := func(name string, v any) {
		if err := n.Set(name, v); err != nil {
			panic(err)
		}
	}
	start := time.Now()
	set("version", rt.BunVersion)
	set("revision", rt.BunRevision)
	set("main", r.Main)
	set("env", processEnv(r))
	set("nanoseconds", func() int64 { return time.Since(start).Nanoseconds() })
	set("sleepSync", func(ms float64) { sleepSync(r, ms) })
	set("timer", func(resolve goja.Value, ms float64) {
		fn, _ := goja.AssertFunction(resolve)
		if r.Loop.Pending() >= rt.MaxTimers {
			panic(r.RangeError("this call has too many timers pending: await the sleeps it started"))
		}
		if ms != ms || ms < 0 {
			ms = 0
		}
		r.Loop.SetTimer(fn, time.Duration(ms*float64(time.Millisecond)), false, nil)
	})
	set("inspect", func(c goja.FunctionCall) goja.Value { return vm.ToValue(inspect(vm, c.Argument(0))) })
	set("escapeHTML", func(v goja.Value) string { return escapeHTML(v.String()) })
	set("stringWidth", func(v goja.Value) int { return stringWidth(v.String()) })
	installFiles(r, set)
	installGlob(r, set)
	installSpawn(r, set)
	return n
}

// processEnv is process.env's object, so Bun.env === process.env as in
// Bun; a copy of the host's environment when a module replaced process.
func processEnv(r *rt.Runtime) goja.Value {
	if p, ok := r.VM.GlobalObject().Get("process").(*goja.Object); ok {
		if env, ok := p.Get("env").(*goja.Object); ok {
			return env
		}
	}
	env := r.VM.NewObject()
	for k, v := range r.Host.Env {
		_ = env.Set(k, v)
	}
	return env
}

// maxSleepSync bounds Bun.sleepSync where no call's guard is known (the
// core sets one for every load and call: rt.Loop.Stopped).
const maxSleepSync = 10 * time.Second

// sleepSync blocks the runtime for ms, as Bun does, but never past the
// moment the host stops the call (deadline, memory, caller gone): it
// returns then and the pending interrupt ends the call at its next
// instruction.
func sleepSync(r *rt.Runtime, ms float64) {
	if ms != ms || ms <= 0 {
		return
	}
	d := time.Duration(ms * float64(time.Millisecond))
	stopped := r.Loop.Stopped()
	if stopped == nil {
		d = min(d, maxSleepSync)
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-stopped:
	}
}
