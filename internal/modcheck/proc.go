package modcheck

import (
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"
)

// proc is one check process, started before its request: it warms up on a
// module of the binary (child.go) and then waits on stdin. It owns a temp
// folder, the one place it may write once confined.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File // the request is written here, then closed
	stdout *os.File // one JSON object per line; EOF when it ends
	stderr *head
	temp   string
	done   chan struct{} // closed once it has ended and been waited for
	err    error         // Wait's, once done
}

// tempPrefix names the check processes' temp folders.
const tempPrefix = "beeuni-check-"

// removeLeftovers removes the temp folders of earlier check processes in
// dir, making dir if it is missing.
func removeLeftovers(dir string, log *slog.Logger) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		log.Warn("make the module checks' temp folder", "dir", dir, "error", err)
		return
	}
	old, _ := filepath.Glob(filepath.Join(dir, tempPrefix+"*"))
	for _, p := range old {
		if err := os.RemoveAll(p); err != nil {
			log.Warn("remove an earlier module check's temp folder", "dir", p, "error", err)
		}
	}
}

// spawn starts a check process; a spare (warm) warms up before it reads
// its request, one a check waits for does not.
func (c *Checker) spawn(warm bool) (*proc, error) {
	argv := c.opts.Command
	if len(argv) == 0 {
		self, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("%w: find this binary to start the check process: %w", ErrNotChecked, err)
		}
		argv = []string{self, "internal", "check"}
	}
	temp, err := os.MkdirTemp(c.opts.TempDir, tempPrefix+"*")
	if err != nil {
		return nil, fmt.Errorf("%w: make the check's temp folder: %w", ErrNotChecked, err)
	}
	p := &proc{temp: temp, stderr: &head{max: 8 << 10}, done: make(chan struct{})}
	inR, inW, err := os.Pipe()
	if err != nil {
		os.RemoveAll(temp)
		return nil, fmt.Errorf("%w: %w", ErrNotChecked, err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		os.RemoveAll(temp)
		return nil, fmt.Errorf("%w: %w", ErrNotChecked, err)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = minimalEnv(temp, c.opts.MemoryBytes)
	if warm {
		cmd.Env = append(cmd.Env, envWarm+"=1")
	}
	cmd.Dir = temp
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	// Its own process group, killed whole; and it dies with the controller.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	err = cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		os.RemoveAll(temp)
		return nil, fmt.Errorf("%w: start the check process %s: %w", ErrNotChecked, argv[0], err)
	}
	p.cmd, p.stdin, p.stdout = cmd, inW, outR
	go func() { // ends with the process, which kill or its own end brings
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// ended reports whether the process has ended (a spare killed meanwhile).
func (p *proc) ended() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill ends the process group at once. Not once it has been waited for:
// its group id may belong to another process by then.
func (p *proc) kill() {
	if !p.ended() {
		_ = syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	}
}

// close kills the process if it still runs, waits for it, and removes its
// temp folder and pipes.
func (p *proc) close() {
	p.kill()
	select {
	case <-p.done:
	case <-time.After(5 * time.Second): // a process the kernel cannot kill: nothing more to do
	}
	p.stdin.Close()
	p.stdout.Close()
	os.RemoveAll(p.temp)
}

// take returns the spare process, or a new one when there is none (or the
// spare ended), and has a new spare started when Options.Spare is set.
func (c *Checker) take() (*proc, error) {
	c.mu.Lock()
	p := c.spare
	c.spare = nil
	c.mu.Unlock()
	if p != nil && p.ended() {
		p.close()
		p = nil
	}
	c.refill(refillDelay)
	if p != nil {
		return p, nil
	}
	return c.spawn(false)
}

// refillDelay is how long after a check its successor is started: its
// start and warm-up (about 100 ms of CPU) then do not compete with the
// publish that follows the check, nor with executors converging on it
// where they share the machine.
const refillDelay = time.Second

// refill starts a spare in the background, after delay, when
// Options.Spare is set and there is none.
func (c *Checker) refill(delay time.Duration) {
	if !c.opts.Spare {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.filling {
		return
	}
	c.filling = true
	c.wg.Go(func() {
		if delay > 0 {
			t := time.NewTimer(delay)
			select {
			case <-t.C:
			case <-c.stop:
				t.Stop()
				c.mu.Lock()
				c.filling = false
				c.mu.Unlock()
				return
			}
		}
		p, err := c.spawn(true)
		c.mu.Lock()
		c.filling = false
		keep := err == nil && !c.closed && c.spare == nil
		if keep {
			c.spare = p
		}
		c.mu.Unlock()
		switch {
		case err != nil:
			c.opts.Logger.Warn("start a spare module check process", "error", err)
		case !keep:
			p.close()
		}
	})
}

// Close ends the spare process, if any, and waits for one being started.
// Checks still running finish.
func (c *Checker) Close() {
	c.mu.Lock()
	if !c.closed {
		close(c.stop)
	}
	c.closed = true
	p := c.spare
	c.spare = nil
	c.mu.Unlock()
	c.wg.Wait()
	if p != nil {
		p.close()
	}
}
