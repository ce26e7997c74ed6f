package process

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// bin is the beeuni binary TestMain builds once for the whole run.
var bin string

// Deadlines of the helpers: generous, since two cores run everything.
const (
	startTimeout    = 30 * time.Second // a process is up, a release converged
	shutdownTimeout = 10 * time.Second // a process exits after a signal
)

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		os.Exit(m.Run()) // every test skips itself
	}
	dir, err := os.MkdirTemp("", "beeuni-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: make a temp folder:", err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "beeuni")
	build := exec.Command("go", "build", "-o", bin, "github.com/beeuni/beeuni/cmd/beeuni")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: build the beeuni binary: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// needProcesses skips a test under -short: these tests start processes.
func needProcesses(tb testing.TB) {
	tb.Helper()
	if testing.Short() {
		tb.Skip("e2e process tests build and run the beeuni binary; skipped with -short")
	}
}

// proc is a beeuni child process whose output goes to files, printed when
// the test fails. It is always killed at cleanup.
type proc struct {
	tb     testing.TB
	name   string
	cmd    *exec.Cmd
	stdout string
	stderr string
	done   chan struct{}
	err    error // Wait's result, once done is closed
}

// startProc runs `beeuni args...` in dir with extra environment variables.
func startProc(tb testing.TB, name, dir string, env []string, args ...string) *proc {
	tb.Helper()
	return startProgram(tb, name, dir, env, bin, args...)
}

// startProgram runs `program args...` in dir with extra environment variables.
func startProgram(tb testing.TB, name, dir string, env []string, program string, args ...string) *proc {
	tb.Helper()
	logs := tb.TempDir()
	p := &proc{tb: tb, name: name, stdout: filepath.Join(logs, "stdout"), stderr: filepath.Join(logs, "stderr"),
		done: make(chan struct{})}
	outF, err := os.Create(p.stdout)
	if err != nil {
		tb.Fatal(err)
	}
	errF, err := os.Create(p.stderr)
	if err != nil {
		tb.Fatal(err)
	}
	p.cmd = exec.CommandContext(context.Background(), program, args...)
	p.cmd.Dir = dir
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.Stdout, p.cmd.Stderr = outF, errF
	// Should the test binary itself die (a timeout), no child outlives it.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := p.cmd.Start(); err != nil {
		tb.Fatalf("start %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		outF.Close()
		errF.Close()
		close(p.done)
	}()
	tb.Cleanup(func() {
		p.kill()
		if tb.Failed() {
			p.dump()
		}
	})
	return p
}

// dump logs the process's output, the tail of stderr.
func (p *proc) dump() {
	out, _ := os.ReadFile(p.stdout)
	errb, _ := os.ReadFile(p.stderr)
	const tail = 12 << 10
	if len(errb) > tail {
		errb = append([]byte("...\n"), errb[len(errb)-tail:]...)
	}
	p.tb.Logf("---- %s (%s) stdout ----\n%s\n---- %s stderr ----\n%s", p.name, strings.Join(p.cmd.Args, " "), out, p.name, errb)
}

func (p *proc) exited() bool {
	select {
	case <-p.done:
		return true
	default:
		return false
	}
}

// kill sends SIGKILL (kill -9) and waits for the process to end.
func (p *proc) kill() {
	if !p.exited() {
		_ = p.cmd.Process.Kill()
	}
	<-p.done
}

// stop sends sig and returns the exit code; it fails the test when the
// process does not exit within shutdownTimeout.
func (p *proc) stop(sig os.Signal) int {
	p.tb.Helper()
	if !p.exited() {
		_ = p.cmd.Process.Signal(sig)
	}
	if !p.waitExit(shutdownTimeout) {
		p.tb.Fatalf("%s did not exit within %s of %v", p.name, shutdownTimeout, sig)
	}
	return p.cmd.ProcessState.ExitCode()
}

// waitExit waits up to timeout for the process to end.
func (p *proc) waitExit(timeout time.Duration) bool {
	select {
	case <-p.done:
		return true
	case <-time.After(timeout):
		return false
	}
}

// killedBy reports the signal that ended the process, if any.
func (p *proc) killedBy() (syscall.Signal, bool) {
	ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus)
	if !ok || !ws.Signaled() {
		return 0, false
	}
	return ws.Signal(), true
}

func (p *proc) output() string {
	b, _ := os.ReadFile(p.stdout)
	return string(b)
}

// alive fails the test when the process has ended, so a wait does not run
// to its deadline on a dead process.
func (p *proc) alive() error {
	if p.exited() {
		return fmt.Errorf("%s exited: %v", p.name, p.err)
	}
	return nil
}

// waitFor polls check every 50 ms until it returns nil; at the deadline it
// fails the test with check's last error.
func waitFor(tb testing.TB, timeout time.Duration, what string, check func() error) {
	tb.Helper()
	deadline := time.Now().Add(timeout)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := check()
		if err == nil {
			return
		}
		if errors.Is(err, errFatal) || time.Now().After(deadline) {
			tb.Fatalf("waiting for %s (%s): %v", what, timeout, err)
		}
		<-tick.C
	}
}

// errFatal, wrapped in a check's error, ends waitFor at once.
var errFatal = errors.New("gave up")

// freeAddr returns a loopback address with a port free right now.
func freeAddr(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// cli runs a short beeuni command and returns its stdout; a non-zero exit
// fails the test.
func cli(tb testing.TB, args ...string) string {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		tb.Fatalf("beeuni %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// rss is the resident memory of a process, from /proc/PID/status.
func rss(tb testing.TB, pid int) int64 {
	tb.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		tb.Fatalf("read the memory of process %d: %v", pid, err)
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(v), "%d kB", &kb); err != nil {
				tb.Fatalf("parse VmRSS %q: %v", v, err)
			}
			return kb << 10
		}
	}
	tb.Fatalf("no VmRSS in /proc/%d/status", pid)
	return 0
}
