package rt

import (
	"bytes"
	"context"
	"io"
	"sync"
	"syscall"
	"time"
)

// SyncSpec is a process run to its end while the runtime waits
// (spawnSync, execSync, Bun.spawnSync).
type SyncSpec struct {
	ProcSpec
	Input                []byte // stdin; nil: /dev/null
	IgnoreOut, IgnoreErr bool   // send stdout, stderr to /dev/null
	// MaxBuffer bounds each captured stream (0: none but the call's
	// memory limit); past it the child is killed (KillSignal).
	MaxBuffer int64
	// Timeout kills the child (KillSignal) when it runs longer; 0: none
	// but the call's deadline, which kills its whole group.
	Timeout    time.Duration
	KillSignal syscall.Signal
}

// SyncResult is how a SyncSpec ended.
type SyncResult struct {
	Pid            int
	Code           *int   // nil when a signal ended it
	Signal         string // "SIGTERM"...
	Stdout, Stderr []byte
	Err            *ProcError // it did not start
	// Overflow: a stream went past MaxBuffer; OverMemory: past the call's
	// memory limit (the child was killed in both cases).
	Overflow, OverMemory bool
	TimedOut             bool
}

// OutputLimit is how much of one child's stream the host buffers for a
// call of memory limit callMemory (0: none): a quarter of it, so the
// buffers (which grow by doubling) stay under the limit the watchdog
// holds the call to, and the call gets a clear error instead of a stop.
func OutputLimit(callMemory uint64) int64 { return int64(callMemory / 4) }

// capture keeps at most limit bytes and calls over once when more come;
// it takes everything (the child is being killed) so the copy never blocks.
type capture struct {
	buf   bytes.Buffer
	limit int64
	over  func()
}

func (c *capture) Write(p []byte) (int, error) {
	if room := c.limit - int64(c.buf.Len()); int64(len(p)) > room {
		c.buf.Write(p[:max(room, 0)])
		c.over()
		return len(p), nil
	}
	return c.buf.Write(p)
}

// SpawnSync runs s to its end, blocking the runtime, but never past the
// moment the host stops the call (its deadline): the child's group is
// killed then.
func (r *Runtime) SpawnSync(s SyncSpec) SyncResult {
	var res SyncResult
	spec, perr := r.prepare(s.ProcSpec)
	if perr != nil {
		res.Err = perr
		return res
	}
	ctx, cancel := context.WithCancel(r.Loop.Context())
	defer cancel()
	if stopped := r.Loop.Stopped(); stopped != nil {
		go func() {
			select {
			case <-stopped:
				cancel()
			case <-ctx.Done():
			}
		}()
	}
	cmd := r.Host.Launcher.Command(ctx, spec)
	var once sync.Once
	var mu sync.Mutex // the flags below: set by the copying goroutines and the timer
	kill := func(flag *bool) func() {
		return func() {
			mu.Lock()
			*flag = true
			mu.Unlock()
			once.Do(func() { _ = cmd.Process.Signal(s.KillSignal) })
		}
	}
	limit, memFlag := s.MaxBuffer, &res.Overflow
	if m := OutputLimit(r.Host.CallMemory); m > 0 && (limit <= 0 || m < limit) {
		limit, memFlag = m, &res.OverMemory
	}
	if limit <= 0 {
		limit = 1<<63 - 1
	}
	var out, errOut *capture
	if !s.IgnoreOut {
		out = &capture{limit: limit, over: kill(memFlag)}
		cmd.Stdout = out
	}
	if !s.IgnoreErr {
		errOut = &capture{limit: limit, over: kill(memFlag)}
		cmd.Stderr = errOut
	}
	if s.Input != nil {
		cmd.Stdin = bytes.NewReader(s.Input)
	}
	if err := r.Host.Launcher.Start(cmd, spec); err != nil {
		res.Err = startError(err)
		return res
	}
	res.Pid = cmd.Process.Pid
	if s.Timeout > 0 {
		t := time.AfterFunc(s.Timeout, kill(&res.TimedOut))
		defer t.Stop()
	}
	_ = cmd.Wait()
	mu.Lock()
	defer mu.Unlock()
	res.Code, res.Signal = exitOf(cmd.ProcessState)
	if out != nil {
		res.Stdout = out.buf.Bytes()
	}
	if errOut != nil {
		res.Stderr = errOut.buf.Bytes()
	}
	return res
}

// Run runs s with the given stdio to its end or ctx's, from any
// goroutine (it touches no JS): the exec of the Bun shell's commands.
// stdin nil is /dev/null.
func (r *Runtime) Run(ctx context.Context, s ProcSpec, stdin io.Reader, stdout, stderr io.Writer) (code *int, signal string, perr *ProcError) {
	spec, perr := r.prepare(s)
	if perr != nil {
		return nil, "", perr
	}
	cmd := r.Host.Launcher.Command(ctx, spec)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, stdout, stderr
	if err := r.Host.Launcher.Start(cmd, spec); err != nil {
		return nil, "", startError(err)
	}
	_ = cmd.Wait()
	code, signal = exitOf(cmd.ProcessState)
	return code, signal, nil
}
