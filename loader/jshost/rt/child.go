package rt

import (
	"context"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// exitGrace is how long the exit waits for the child's output to end.
const exitGrace = 50 * time.Millisecond

// Child is a process started by Spawn. Its methods run on the loop's
// goroutine; its events are jobs posted to the loop.
type Child struct {
	Pid   int
	proc  *os.Process
	stdin *inPipe // nil unless stdin is piped
	// Stdout and Stderr are the read ends of the streams the caller asked
	// for raw (ChildEvents.RawOut, RawErr): the caller reads and closes them.
	Stdout, Stderr *os.File
	drop           [3]atomic.Bool // Drop: stop reading stream 1 or 2
}

// ChildEvents are what Spawn reports, each on the loop. A nil Stdout or
// Stderr means that stream is not piped (it goes to /dev/null).
type ChildEvents struct {
	Stdout, Stderr func(chunk []byte) error
	// RawOut and RawErr pipe that stream to the caller as a file
	// (Child.Stdout, Child.Stderr) instead of chunks.
	RawOut, RawErr bool
	Exit           func(code *int, signal string) error // the process ended
	Close          func(code *int, signal string) error // ... and its output did
}

// Spawn starts s, its stdin a pipe when pipeIn (else /dev/null). The
// child's output comes as chunks, one in flight per stream, so a child
// that writes faster than the module reads waits (its pipe fills) rather
// than growing the host's memory.
func (r *Runtime) Spawn(s ProcSpec, pipeIn bool, ev ChildEvents) (*Child, *ProcError) {
	spec, perr := r.prepare(s)
	if perr != nil {
		return nil, perr
	}
	l := r.Loop
	ctx, gen := l.Context(), l.Generation()
	cmd := r.Host.Launcher.Command(ctx, spec)
	var theirs, ours []*os.File // the child's ends, closed here once it has them
	pipe := func() (rd, wr *os.File, err error) {
		rd, wr, err = os.Pipe()
		if err == nil {
			ours = append(ours, rd, wr)
		}
		return rd, wr, err
	}
	fail := func(err error) (*Child, *ProcError) {
		for _, f := range ours {
			f.Close()
		}
		return nil, startError(err)
	}
	var in *os.File
	if pipeIn {
		rd, wr, err := pipe()
		if err != nil {
			return fail(err)
		}
		cmd.Stdin, in, theirs = rd, wr, append(theirs, rd)
	}
	var outs, raws []*os.File
	var fns []func([]byte) error
	var streams []int // the stream number (1, 2) of each of outs
	for i, o := range []struct {
		fn  func([]byte) error
		raw bool
		set func(*os.File)
	}{{ev.Stdout, ev.RawOut, func(f *os.File) { cmd.Stdout = f }}, {ev.Stderr, ev.RawErr, func(f *os.File) { cmd.Stderr = f }}} {
		raws = append(raws, nil)
		if o.fn == nil && !o.raw {
			continue
		}
		rd, wr, err := pipe()
		if err != nil {
			return fail(err)
		}
		o.set(wr)
		theirs = append(theirs, wr)
		if o.raw {
			raws[i] = rd
			continue
		}
		outs, fns, streams = append(outs, rd), append(fns, o.fn), append(streams, i+1)
	}
	err := r.Host.Launcher.Start(cmd, spec)
	for _, f := range theirs {
		f.Close()
	}
	if err != nil {
		return fail(err)
	}
	c := &Child{Pid: cmd.Process.Pid, proc: cmd.Process, Stdout: raws[0], Stderr: raws[1]}
	if in != nil {
		c.stdin = newInPipe(ctx, l, gen, in)
	}
	outDone := make(chan struct{})
	go func() {
		defer close(outDone)
		pump(ctx, l, gen, outs, fns, func(i int) bool { return c.drop[streams[i]].Load() })
	}()
	go func() {
		_ = cmd.Wait()
		code, sig := exitOf(cmd.ProcessState)
		// Node reads what the child wrote before it reports the exit; a
		// grandchild holding the pipes does not hold the exit back long.
		select {
		case <-outDone:
		case <-time.After(exitGrace):
		}
		l.Post(gen, func() error { return ev.Exit(code, sig) })
		<-outDone
		l.Post(gen, func() error { return ev.Close(code, sig) })
	}()
	return c, nil
}

// pump reads the files to their ends and hands each chunk to its fn on
// the loop, the next only once the loop has it. One poll over all of
// them, read in their order when several are ready, keeps the order the
// child wrote in as Node's event loop does (stdout before stderr).
// A stream dropped (the JS side destroyed it) is closed: the child gets
// EPIPE there, as it would from Node.
func pump(ctx context.Context, l *Loop, gen uint64, files []*os.File, fns []func([]byte) error, dropped func(i int) bool) {
	defer func() {
		for _, f := range files {
			f.Close()
		}
	}()
	fds := make([]int, len(files))
	for i, f := range files {
		fds[i] = int(f.Fd())
	}
	open := slices.Clone(fds)
	buf := make([]byte, 64<<10)
	for len(open) > 0 {
		pfds := make([]unix.PollFd, len(open))
		for i, fd := range open {
			pfds[i] = unix.PollFd{Fd: int32(fd), Events: unix.POLLIN}
		}
		// A bounded wait, so the end of the call is seen.
		if _, err := unix.Poll(pfds, 100); err != nil && err != unix.EINTR {
			return
		}
		if ctx.Err() != nil {
			return
		}
		for _, pfd := range pfds {
			fd := int(pfd.Fd)
			i := slices.Index(fds, fd)
			if dropped(i) {
				files[i].Close()
				open = slices.DeleteFunc(open, func(o int) bool { return o == fd })
				continue
			}
			if pfd.Revents == 0 {
				continue
			}
			n, err := unix.Read(fd, buf)
			if n > 0 {
				chunk := append([]byte(nil), buf[:n]...)
				fn := fns[i]
				taken := make(chan struct{})
				if !l.Post(gen, func() error { close(taken); return fn(chunk) }) {
					return
				}
				select {
				case <-taken:
				case <-ctx.Done():
					return
				}
				continue
			}
			if err == unix.EINTR || err == unix.EAGAIN {
				continue
			}
			open = slices.DeleteFunc(open, func(o int) bool { return o == fd })
		}
	}
}

// Drop stops reading the child's stream n (1: stdout, 2: stderr) and
// closes it: what the child writes there after is lost (EPIPE).
func (c *Child) Drop(n int) {
	if n == 1 || n == 2 {
		c.drop[n].Store(true)
	}
}

// Kill sends sig to the child; false when it has already ended.
func (c *Child) Kill(sig syscall.Signal) bool {
	return c.proc.Signal(sig) == nil
}

// Write queues data for the child's stdin; done runs on the loop once it
// is written (with the error when the child no longer reads). False when
// stdin is not piped or was ended.
func (c *Child) Write(data []byte, done func(err error) error) bool {
	return c.stdin != nil && c.stdin.write(data, done)
}

// End closes the child's stdin once what was queued is written.
func (c *Child) End() {
	if c.stdin != nil {
		c.stdin.write(nil, nil)
	}
}

// inPipe writes a child's stdin on a goroutine of its own, in order, so
// the loop never waits for a child that reads slowly.
type inPipe struct {
	mu     sync.Mutex
	queue  []inWrite
	ended  bool
	signal chan struct{}
}

type inWrite struct {
	data []byte
	done func(error) error
	end  bool
}

func newInPipe(ctx context.Context, l *Loop, gen uint64, f *os.File) *inPipe {
	p := &inPipe{signal: make(chan struct{}, 1)}
	go func() {
		defer f.Close()
		var failed error
		for {
			p.mu.Lock()
			q := p.queue
			p.queue = nil
			p.mu.Unlock()
			for _, w := range q {
				if w.end {
					return
				}
				if failed == nil {
					_, failed = f.Write(w.data)
				}
				if w.done != nil {
					err := failed
					l.Post(gen, func() error { return w.done(err) })
				}
			}
			select {
			case <-p.signal:
			case <-ctx.Done():
				return
			}
		}
	}()
	return p
}

// write queues data (nil data and done: the end).
func (p *inPipe) write(data []byte, done func(error) error) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return false
	}
	end := data == nil && done == nil
	p.ended = end
	p.queue = append(p.queue, inWrite{data: data, done: done, end: end})
	select {
	case p.signal <- struct{}{}:
	default:
	}
	return true
}
