package rt

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"syscall"

	"github.com/dop251/goja"
	"golang.org/x/sys/unix"

	"github.com/beeuni/beeuni/internal/launch"
	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// Processes: the core node:child_process and Bun.spawn (and Bun.$) share.
// A child is started through the host's launcher (package launch), which
// confines it by Landlock to what the policy lets tools reach
// (Policy.Roots) before the program runs; it gets the tool's environment
// scrubbed by the policy and the checkout as its default folder, runs in a
// process group of its own, and that group is killed when the call ends
// (its deadline, an abort, the call answered).

// ProcSpec is a process a binding asks for, as the JS layers parse it.
type ProcSpec struct {
	File string   // the program: looked up in the child's PATH when it has no slash
	Argv []string // argv[0] included
	Dir  string   // "" or relative: from the checkout
	// Env is the child's environment; nil: the host's (process.env at load).
	Env map[string]string
}

// devices a child may write besides the policy's folders: where programs
// throw output away.
var devices = []string{"/dev/null"}

// prepare resolves s against the host: the folder, the scrubbed
// environment, the confinement's roots. It answers the launcher's spec or
// why no process may be started here.
func (r *Runtime) prepare(s ProcSpec) (launch.Spec, *ProcError) {
	h := r.Host
	if h.Launcher == nil {
		why := h.NoSpawn
		if why == "" {
			why = "this host starts no processes"
		}
		return launch.Spec{}, &ProcError{Err: errors.New(why)}
	}
	dir := s.Dir
	if dir == "" {
		dir = h.Directory
	} else if !filepath.IsAbs(dir) {
		dir = filepath.Join(h.Directory, dir)
	}
	if _, err := h.Policy.Check(dir, policy.Read); err != nil {
		return launch.Spec{}, &ProcError{Errno: syscall.EACCES, Err: err}
	}
	env := s.Env
	if env == nil {
		env = h.Env
	}
	list := make([]string, 0, len(env))
	for k, v := range env {
		if h.Policy.EnvVisible(k, v) {
			list = append(list, k+"="+v)
		}
	}
	sort.Strings(list)
	read, write := h.Policy.Roots()
	return launch.Spec{File: s.File, Argv: s.Argv, Env: list, Dir: dir, Read: read, Write: write, List: h.Policy.Lists(), WriteFiles: devices}, nil
}

// ProcError is a process that could not be started.
type ProcError struct {
	Errno syscall.Errno // ENOENT, EACCES...; 0 when no process may start here
	Err   error
}

func (e *ProcError) Error() string { return e.Err.Error() }
func (e *ProcError) Unwrap() error { return e.Err }

// startError classifies err of starting a process.
func startError(err error) *ProcError {
	var ee *launch.ExecError
	if errors.As(err, &ee) {
		return &ProcError{Errno: ee.Errno, Err: err}
	}
	var errno syscall.Errno
	if errors.As(err, &errno) { // the launcher's chdir: the folder is missing
		return &ProcError{Errno: errno, Err: err}
	}
	return &ProcError{Err: err}
}

// SpawnError is Node's error for a process that did not start: "spawn
// nosuch ENOENT" with code, errno, syscall ("spawn nosuch"), path and
// spawnargs; a refusal (no launcher, no Landlock) is a plain Error naming
// why. verb is "spawn" or "spawnSync".
func (r *Runtime) SpawnError(pe *ProcError, verb string, s ProcSpec) *goja.Object {
	if pe.Errno == 0 {
		msg := fmt.Sprintf("%s %s: %v", verb, s.File, pe.Err)
		e, err := r.VM.New(r.VM.Get("Error"), r.VM.ToValue(msg))
		if err != nil {
			return r.VM.NewTypeError(msg)
		}
		return e
	}
	code := ErrnoName(pe.Errno)
	e := r.NodeError(code, -int(pe.Errno), verb+" "+s.File+" "+code, verb+" "+s.File, s.File)
	args := []any{}
	for _, a := range s.Argv[1:] {
		args = append(args, a)
	}
	_ = e.Set("spawnargs", r.VM.NewArray(args...))
	return e
}

// exitOf is a finished process's exit code, or the signal that ended it.
func exitOf(st *os.ProcessState) (code *int, signal string) {
	if st == nil {
		return nil, ""
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return nil, unix.SignalName(ws.Signal())
	}
	c := st.ExitCode()
	return &c, ""
}

// Signal is a signal as Node and Bun take it: a name ("SIGTERM") or a
// number; def when v is undefined. An unknown name throws Node's
// ERR_UNKNOWN_SIGNAL TypeError.
func (r *Runtime) Signal(v goja.Value, def syscall.Signal) syscall.Signal {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return def
	}
	if n, ok := v.Export().(int64); ok {
		return syscall.Signal(n)
	}
	if f, ok := v.Export().(float64); ok && f == float64(int(f)) {
		return syscall.Signal(int(f))
	}
	if s := unix.SignalNum(v.String()); s != 0 {
		return s
	}
	e := r.VM.NewTypeError("Unknown signal: " + v.String())
	_ = e.Set("code", "ERR_UNKNOWN_SIGNAL")
	panic(e)
}
