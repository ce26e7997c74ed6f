package bun

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/dop251/goja"
	"golang.org/x/sys/unix"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Bun.$ runs its template as a shell script in mvdan.cc/sh's interpreter
// (js/shell.js builds the script, every interpolated value quoted as
// Bun's $.escape quotes it, so a value is one word). The interpreter's
// own file work (redirections, globs, cd) asks the policy as node:fs
// does; every program it runs starts through the host's launcher,
// confined, as Bun.spawn's do.

// shellRun is the binding js/shell.js calls: run(script, cwd, env,
// onDone) runs on a goroutine and calls onDone(error, exitCode, stdout,
// stderr) on the loop; error is a message (js/shell.js says "Bun.$: "
// before it) when the script did not parse, a program could not be
// started at all, or the output went past the call's memory limit.
func shellRun(r *rt.Runtime) func(script, cwd string, env *goja.Object, onDone goja.Callable) {
	return func(script, cwd string, env *goja.Object, onDone goja.Callable) {
		vm := r.VM
		dir := r.Host.Directory
		if cwd != "" {
			dir = filepath.Join(dir, cwd)
			if filepath.IsAbs(cwd) {
				dir = filepath.Clean(cwd)
			}
		}
		vars := map[string]string{}
		for _, k := range env.Keys() {
			if v := env.Get(k); v != nil && !goja.IsUndefined(v) {
				vars[k] = v.String()
			}
		}
		l := r.Loop
		ctx, cancel := context.WithCancel(l.Context())
		gen := l.Generation()
		go func() {
			defer cancel()
			code, out, errOut, err := runShell(ctx, cancel, r, script, dir, vars)
			l.Post(gen, func() error {
				e := goja.Null()
				if err != nil {
					e = vm.ToValue(err.Error())
				}
				_, jerr := onDone(goja.Undefined(), e, vm.ToValue(code), r.Uint8Array(out), r.Uint8Array(errOut))
				return rt.Uncatchable(jerr)
			})
		}()
	}
}

// errShellMemory ends a script whose output passed the call's memory limit.
var errShellMemory = errors.New("over the memory limit")

// runShell parses and runs script in dir with env; the output is kept
// up to the call's memory limit (past it the script is stopped).
func runShell(ctx context.Context, cancel func(), r *rt.Runtime, script, dir string, env map[string]string) (code int, stdout, stderr []byte, err error) {
	defer func() {
		// The interpreter is a library: a bug of its own ends this script, not the host.
		if p := recover(); p != nil {
			code, err = 1, fmt.Errorf("the shell failed on %q: %v", script, p)
		}
	}()
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		return 1, nil, nil, fmt.Errorf("the shell could not parse %q: %v", script, err)
	}
	limit := rt.OutputLimit(r.Host.CallMemory)
	if limit <= 0 {
		limit = 1<<63 - 1
	}
	var over sync.Once
	overflowed := false
	stop := func() { over.Do(func() { overflowed = true; cancel() }) }
	out, errOut := &boundedBuffer{limit: limit, over: stop}, &boundedBuffer{limit: limit, over: stop}
	list := make([]string, 0, len(env))
	for k, v := range env {
		list = append(list, k+"="+v)
	}
	p := r.Host.Policy
	if _, err := p.Check(dir, policy.Read); err != nil {
		return 1, nil, nil, err
	}
	runner, err := interp.New(
		interp.Dir(dir),
		interp.Env(expand.ListEnviron(list...)),
		interp.StdIO(nil, out, errOut),
		interp.ExecHandlers(func(interp.ExecHandlerFunc) interp.ExecHandlerFunc { return launchHandler(r) }),
		interp.OpenHandler(func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
			abs := absIn(interp.HandlerCtx(ctx).Dir, path)
			if abs != "/dev/null" {
				a := policy.Read
				if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
					a = policy.Write
				}
				if _, err := p.Check(abs, a); err != nil {
					return nil, denied("open", abs) // the shell prints it, the command fails
				}
			}
			return interp.DefaultOpenHandler()(ctx, path, flag, perm)
		}),
		interp.ReadDirHandler2(func(ctx context.Context, path string) ([]fs.DirEntry, error) {
			if abs := absIn(interp.HandlerCtx(ctx).Dir, path); !allowed(p, abs) {
				return nil, denied("open", abs)
			}
			return interp.DefaultReadDirHandler2()(ctx, path)
		}),
		interp.AccessHandler(func(ctx context.Context, path string, mode interp.AccessMode) error {
			if abs := absIn(interp.HandlerCtx(ctx).Dir, path); !allowed(p, abs) {
				return denied("access", abs)
			}
			return interp.DefaultAccessHandler()(ctx, path, mode)
		}),
		interp.StatHandler(func(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
			if abs := absIn(interp.HandlerCtx(ctx).Dir, name); !allowed(p, abs) {
				return nil, denied("stat", abs)
			}
			return interp.DefaultStatHandler()(ctx, name, follow)
		}),
	)
	if err != nil {
		return 1, nil, nil, err
	}
	err = runner.Run(ctx, file)
	if overflowed {
		return 1, nil, nil, fmt.Errorf("the output passed %s, a quarter of the tool's memory limit of %s: write it to a file instead",
			rt.Bytes(uint64(limit)), rt.Bytes(r.Host.CallMemory))
	}
	if err != nil {
		var st interp.ExitStatus
		if !errors.As(err, &st) {
			return 1, out.Bytes(), errOut.Bytes(), err
		}
		code = int(st)
	}
	return code, out.Bytes(), errOut.Bytes(), nil
}

// allowed reports whether the policy lets tools read path.
func allowed(p *policy.Policy, path string) bool {
	_, err := p.Check(path, policy.Read)
	return err == nil
}

// denied is the policy's refusal as the interpreter reports file errors.
func denied(op, path string) error {
	return &os.PathError{Op: op, Path: path, Err: syscall.EACCES}
}

func absIn(dir, path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// launchHandler runs a command the interpreter does not have built in
// through the host's launcher; one that is not found fails as Bun's
// shell says it ("bun: command not found: x", status 1).
func launchHandler(r *rt.Runtime) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		env := map[string]string{}
		hc.Env.Each(func(name string, v expand.Variable) bool {
			if v.Exported && v.IsSet() && v.Kind == expand.String {
				env[name] = v.Str
			}
			return true
		})
		code, sig, perr := r.Run(ctx, rt.ProcSpec{File: args[0], Argv: args, Dir: hc.Dir, Env: env}, hc.Stdin, hc.Stdout, hc.Stderr)
		switch {
		case perr != nil && perr.Errno == syscall.ENOENT:
			fmt.Fprintf(hc.Stderr, "bun: command not found: %s\n", args[0])
			return interp.ExitStatus(1)
		case perr != nil && perr.Errno == 0:
			return fmt.Errorf("%s: %w", args[0], perr) // no process may start here: the script ends with why
		case perr != nil:
			fmt.Fprintf(hc.Stderr, "bun: %s: %v\n", args[0], perr)
			return interp.ExitStatus(1)
		case code == nil:
			return interp.ExitStatus(uint8(128 + unix.SignalNum(sig)))
		}
		if *code == 0 {
			return nil
		}
		return interp.ExitStatus(uint8(*code))
	}
}

// boundedBuffer keeps what is written up to limit; past it over runs
// (which stops the script) and the rest is dropped.
type boundedBuffer struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	limit int64
	over  func()
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if int64(b.buf.Len()+len(p)) > b.limit {
		b.over()
		return 0, errShellMemory
	}
	return b.buf.Write(p)
}

func (b *boundedBuffer) Bytes() []byte {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]byte{}, b.buf.Bytes()...)
}
