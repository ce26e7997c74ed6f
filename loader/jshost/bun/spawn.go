package bun

import (
	_ "embed"
	"os"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

//go:embed js/spawn.js
var spawnJS string

var spawnProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:bun-spawn.js", spawnJS, true) })

//go:embed js/shell.js
var shellJS string

var shellProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:bun-shell.js", shellJS, true) })

// installSpawn sets Bun.spawn and Bun.spawnSync (js/spawn.js) and Bun.$
// (js/shell.js, shell.go) over the
// host's process core, the one node:child_process uses; a piped output is
// a web ReadableStream read from the child's pipe as JS reads it.
func installSpawn(r *rt.Runtime, set func(string, any)) {
	vm := r.VM
	stream := func(f *os.File, what string) goja.Value { return web.ReadableStream(r, f, 0, what) }
	o := runFactory(r, spawnProgram(), r.ProcessNatives(stream)).ToObject(vm)
	set("spawn", o.Get("spawn"))
	set("spawnSync", o.Get("spawnSync"))
	set("$", runFactory(r, shellProgram(), vm.ToValue(shellRun(r))))
}

// runFactory runs a program that evaluates to function (g, binding) and
// calls it.
func runFactory(r *rt.Runtime, p *goja.Program, binding goja.Value) goja.Value {
	vm := r.VM
	fv, err := vm.RunProgram(p)
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	v, err := fn(goja.Undefined(), vm.GlobalObject(), binding)
	if err != nil {
		panic(err)
	}
	return v
}
