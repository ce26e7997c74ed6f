package rt

import (
	"fmt"
	"math"
	"os"
	"syscall"
	"time"

	"github.com/dop251/goja"
)

// ProcessNatives are the bindings the JS layers of node:child_process
// and Bun.spawn build on, one object per runtime:
//
//	spawn(opts, onEvent) -> {pid, kill(sig), write(u8, cb), end(), drop(1|2)}
//	    onEvent('stdout'|'stderr', u8), ('exit'|'close', code, signal);
//	    throws Node's spawn error (SpawnError) when it does not start
//	spawnSync(opts) -> {pid, status, signal, stdout, stderr, error, overflow, timedOut}
//
// opts: {file, args (argv0 first), cwd, env (object), stdio: [in, out,
// err] each 'pipe' or 'ignore', input (u8 or string: sync), maxBuffer,
// timeout (ms), killSignal, verb ('spawn': the errors' syscall)}.
//
// With stream (a platform's ReadableStream over a file, as package web
// makes), a stdio mode 'stream' pipes that output to the handle's stdout
// or stderr as such a stream, read as JS reads it (Bun's proc.stdout).
func (r *Runtime) ProcessNatives(stream func(f *os.File, what string) goja.Value) *goja.Object {
	vm := r.VM
	n := vm.NewObject()
	_ = n.Set("spawn", func(opts *goja.Object, onEvent goja.Callable) goja.Value { return r.spawnJS(opts, onEvent, stream) })
	_ = n.Set("spawnSync", func(opts *goja.Object) goja.Value { return r.spawnSyncJS(opts) })
	return n
}

// procSpec reads the common options.
func (r *Runtime) procSpec(opts *goja.Object) (ProcSpec, [3]string) {
	s := ProcSpec{File: opts.Get("file").String()}
	if err := r.VM.ExportTo(opts.Get("args"), &s.Argv); err != nil || len(s.Argv) == 0 {
		s.Argv = []string{s.File}
	}
	if v := opts.Get("cwd"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		s.Dir = v.String()
	}
	if v := opts.Get("env"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		o := v.ToObject(r.VM)
		s.Env = map[string]string{}
		for _, k := range o.Keys() {
			if ev := o.Get(k); ev != nil && !goja.IsUndefined(ev) {
				s.Env[k] = ev.String()
			}
		}
	}
	stdio := [3]string{"pipe", "pipe", "pipe"}
	if v, ok := opts.Get("stdio").(*goja.Object); ok {
		for i := range stdio {
			if m := v.Get([]string{"0", "1", "2"}[i]); m != nil && !goja.IsUndefined(m) {
				stdio[i] = m.String()
			}
		}
	}
	return s, stdio
}

func (r *Runtime) verb(opts *goja.Object, def string) string {
	if v := opts.Get("verb"); v != nil && !goja.IsUndefined(v) {
		return v.String()
	}
	return def
}

func (r *Runtime) spawnJS(opts *goja.Object, onEvent goja.Callable, stream func(*os.File, string) goja.Value) goja.Value {
	vm := r.VM
	s, stdio := r.procSpec(opts)
	call := func(args ...goja.Value) error {
		_, err := onEvent(goja.Undefined(), args...)
		return Uncatchable(err)
	}
	chunk := func(name string) func([]byte) error {
		return func(b []byte) error { return call(vm.ToValue(name), r.Uint8Array(b)) }
	}
	end := func(name string) func(*int, string) error {
		return func(code *int, sig string) error {
			return call(vm.ToValue(name), exitValue(vm, code), signalValue(vm, sig))
		}
	}
	ev := ChildEvents{Exit: end("exit"), Close: end("close")}
	if stdio[1] == "pipe" {
		ev.Stdout = chunk("stdout")
	}
	if stdio[2] == "pipe" {
		ev.Stderr = chunk("stderr")
	}
	ev.RawOut = stdio[1] == "stream" && stream != nil
	ev.RawErr = stdio[2] == "stream" && stream != nil
	c, perr := r.Spawn(s, stdio[0] == "pipe", ev)
	if perr != nil {
		panic(r.SpawnError(perr, r.verb(opts, "spawn"), s))
	}
	h := vm.NewObject()
	_ = h.Set("pid", c.Pid)
	if c.Stdout != nil {
		_ = h.Set("stdout", stream(c.Stdout, "the child's stdout"))
	}
	if c.Stderr != nil {
		_ = h.Set("stderr", stream(c.Stderr, "the child's stderr"))
	}
	_ = h.Set("kill", func(sig goja.Value) bool { return c.Kill(r.Signal(sig, syscall.SIGTERM)) })
	_ = h.Set("write", func(data goja.Value, cb goja.Value) bool {
		fn, _ := goja.AssertFunction(cb)
		return c.Write(r.bytesArg(data), func(err error) error {
			if fn == nil {
				return nil
			}
			arg := goja.Undefined()
			if err != nil {
				arg = r.SysError(err, "write", "")
				_ = arg.(*goja.Object).Delete("path")
			}
			_, jerr := fn(goja.Undefined(), arg)
			return Uncatchable(jerr)
		})
	})
	_ = h.Set("end", c.End)
	_ = h.Set("drop", c.Drop)
	return h
}

func (r *Runtime) spawnSyncJS(opts *goja.Object) goja.Value {
	vm := r.VM
	s, stdio := r.procSpec(opts)
	ss := SyncSpec{ProcSpec: s, IgnoreOut: stdio[1] != "pipe", IgnoreErr: stdio[2] != "pipe",
		KillSignal: r.Signal(opts.Get("killSignal"), syscall.SIGTERM)}
	if v := opts.Get("input"); v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) {
		ss.Input = r.bytesArg(v)
	}
	if v := opts.Get("maxBuffer"); v != nil && !goja.IsUndefined(v) {
		if f := v.ToFloat(); f > 0 && f < math.MaxInt64 {
			ss.MaxBuffer = int64(f)
		}
	}
	if v := opts.Get("timeout"); v != nil && !goja.IsUndefined(v) {
		if f := v.ToFloat(); f > 0 && f < math.MaxInt64/1e6 {
			ss.Timeout = time.Duration(f * float64(time.Millisecond))
		}
	}
	res := r.SpawnSync(ss)
	verb := r.verb(opts, "spawnSync")
	if res.OverMemory {
		panic(r.RangeError(fmt.Sprintf("%s %s: the output passed %s, a quarter of the tool's memory limit of %s: write it to a file, or read it as a stream (spawn)",
			verb, s.File, Bytes(uint64(OutputLimit(r.Host.CallMemory))), Bytes(r.Host.CallMemory))))
	}
	o := vm.NewObject()
	if res.Err != nil {
		_ = o.Set("error", r.SpawnError(res.Err, verb, s))
		_ = o.Set("pid", 0)
		_ = o.Set("status", goja.Null())
		_ = o.Set("signal", goja.Null())
		_ = o.Set("stdout", goja.Null())
		_ = o.Set("stderr", goja.Null())
		return o
	}
	_ = o.Set("pid", res.Pid)
	_ = o.Set("status", exitValue(vm, res.Code))
	_ = o.Set("signal", signalValue(vm, res.Signal))
	for name, b := range map[string][]byte{"stdout": res.Stdout, "stderr": res.Stderr} {
		if b == nil && (name == "stdout" && ss.IgnoreOut || name == "stderr" && ss.IgnoreErr) {
			_ = o.Set(name, goja.Null())
			continue
		}
		_ = o.Set(name, r.Uint8Array(append([]byte{}, b...)))
	}
	switch {
	case res.Overflow:
		_ = o.Set("error", r.NodeError("ENOBUFS", -int(syscall.ENOBUFS), verb+" "+s.File+" ENOBUFS", verb+" "+s.File, s.File))
	case res.TimedOut:
		_ = o.Set("error", r.NodeError("ETIMEDOUT", -int(syscall.ETIMEDOUT), verb+" "+s.File+" ETIMEDOUT", verb+" "+s.File, s.File))
	}
	_ = o.Set("overflow", res.Overflow)
	_ = o.Set("timedOut", res.TimedOut)
	return o
}

func exitValue(vm *goja.Runtime, code *int) goja.Value {
	if code == nil {
		return goja.Null()
	}
	return vm.ToValue(*code)
}

func signalValue(vm *goja.Runtime, sig string) goja.Value {
	if sig == "" {
		return goja.Null()
	}
	return vm.ToValue(sig)
}

// bytesArg is a string's UTF-8 or a Uint8Array's bytes (copied: the
// writer holds them past this call).
func (r *Runtime) bytesArg(v goja.Value) []byte {
	if o, ok := v.(*goja.Object); ok {
		if n := o.Get("byteLength"); n != nil && n.ToInteger() == 0 {
			return []byte{}
		}
		if b, ok := o.Export().([]byte); ok {
			return append([]byte(nil), b...)
		}
		if ab, ok := o.Export().(goja.ArrayBuffer); ok {
			return append([]byte(nil), ab.Bytes()...)
		}
	}
	return []byte(v.String())
}
