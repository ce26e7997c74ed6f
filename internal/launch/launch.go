// Package launch starts the processes tools ask for, confined: the
// launcher is the beeuni binary run as `beeuni internal launch` (Serve),
// which reads what to run from a pipe (never from arguments a tool
// controls), confines itself with Landlock (package confine), finds the
// program in the child's PATH and replaces itself with it. The parent
// (Launcher.Start) learns from a second, close-on-exec pipe whether the
// exec happened: nothing before EOF means the program runs; an error
// record means it did not (ENOENT, EACCES, no Landlock).
package launch

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/beeuni/beeuni/internal/confine"
)

// Args are the launcher's arguments after its path.
var Args = []string{"internal", "launch"}

// markerEnv is the launcher's whole environment: it tells a launcher
// beeuni started from `beeuni internal launch` typed by hand, which must
// not read descriptors it was not given.
const markerEnv = "BEEUNI_LAUNCHER=1"

// Requested reports whether this process is a launcher beeuni started:
// args are Args, the environment is the marker, and the request and
// status descriptors are pipes.
func Requested(args []string, getenv func(string) string) bool {
	if len(args) != len(Args) || args[0] != Args[0] || args[1] != Args[1] {
		return false
	}
	k, v, _ := strings.Cut(markerEnv, "=")
	if getenv(k) != v {
		return false
	}
	for _, fd := range []int{requestFD, statusFD} {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
			return false
		}
	}
	return true
}

// The launcher's extra descriptors: the request it reads, the status it writes.
const (
	requestFD = 3
	statusFD  = 4
)

// request is what the parent sends on the request pipe.
type request struct {
	Policy confine.Policy `json:"policy"`
	File   string         `json:"file"` // as the tool gave it: looked up in Env's PATH
	Argv   []string       `json:"argv"`
	Env    []string       `json:"env"`
}

// status is the launcher's report of a failure, before the program ran.
type status struct {
	Errno   int    `json:"errno,omitempty"` // the exec's errno (ENOENT, EACCES...)
	Message string `json:"message"`
}

// Serve is `beeuni internal launch`, once Requested says beeuni started
// it. It returns only on failure, with the process's exit code, after
// writing the reason to the status pipe.
func Serve() int {
	req, st := os.NewFile(requestFD, "request"), os.NewFile(statusFD, "status")
	syscall.CloseOnExec(statusFD) // EOF on it tells the parent the exec happened
	fail := func(s status) int {
		_ = json.NewEncoder(st).Encode(s)
		return 127
	}
	var r request
	err := json.NewDecoder(req).Decode(&r)
	req.Close()
	if err != nil || len(r.Argv) == 0 {
		return fail(status{Message: fmt.Sprintf("launch: read the request: %v", err)})
	}
	// The program reads its own /proc entry (the launcher's pid is its pid).
	r.Policy.Read = append(r.Policy.Read, fmt.Sprintf("/proc/%d", os.Getpid()))
	if err := confine.Apply(r.Policy); err != nil {
		return fail(status{Message: err.Error()})
	}
	path, err := lookPath(r.File, r.Env)
	if err == nil {
		err = syscall.Exec(path, r.Argv, r.Env)
	}
	var errno syscall.Errno
	errors.As(err, &errno)
	return fail(status{Errno: int(errno), Message: err.Error()})
}

// lookPath finds file as execvp does, in the PATH of env (the child's),
// once confined: a folder the policy denies is not searched.
func lookPath(file string, env []string) (string, error) {
	if strings.Contains(file, "/") {
		return file, nil // the exec says ENOENT or EACCES
	}
	pathEnv := "/usr/local/bin:/usr/bin:/bin"
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			pathEnv = v
		}
	}
	denied := false
	for dir := range strings.SplitSeq(pathEnv, ":") {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, file)
		fi, err := os.Stat(p)
		if err != nil {
			denied = denied || errors.Is(err, os.ErrPermission)
			continue
		}
		if fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
		denied = true
	}
	if denied {
		return "", syscall.EACCES
	}
	return "", syscall.ENOENT
}

// Launcher starts confined processes through the launcher binary.
type Launcher struct {
	Path string // the beeuni binary (os.Executable()), or a test binary whose TestMain calls Serve
	// KernelABI is confine.Policy.KernelABI: a test takes the path of a
	// kernel without Landlock (0) on one that has it.
	KernelABI *int
}

// Spec is one process to start.
type Spec struct {
	File string   // the program, looked up in Env's PATH when it has no slash
	Argv []string // argv[0] included
	Env  []string // the whole environment, already scrubbed
	Dir  string   // the working folder
	// Read and Write are the confinement's roots (policy.Roots), List the
	// folders it may only list (policy.Lists); WriteFiles are devices it
	// may write (/dev/null).
	Read, Write, List, WriteFiles []string
}

// ExecError is a program that could not be started: Errno is the exec's
// (ENOENT for a program not found), 0 when the confinement failed.
type ExecError struct {
	Errno   syscall.Errno
	Message string
}

func (e *ExecError) Error() string { return e.Message }

func (e *ExecError) Unwrap() error {
	if e.Errno == 0 {
		return nil
	}
	return e.Errno
}

// Check reports, without starting anything, whether this kernel lets the
// launcher confine a process (an *confine.UnavailableError if not).
func (l *Launcher) Check() error {
	return confine.Policy{KernelABI: l.KernelABI}.Check()
}

// Command makes the launcher's command for s; the caller sets its
// Stdin/Stdout/Stderr (or pipes), then calls Start. The process is in a
// group of its own, killed as a whole (SIGKILL) when ctx ends.
func (l *Launcher) Command(ctx context.Context, s Spec) *exec.Cmd {
	cmd := exec.CommandContext(ctx, l.Path, Args...)
	cmd.Dir = s.Dir
	cmd.Env = []string{markerEnv} // the launcher's own: nothing of the tool's reaches its Go runtime
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return KillGroup(cmd, syscall.SIGKILL) }
	// Grandchildren holding the pipes do not hold Wait past the kill.
	cmd.WaitDelay = time.Second
	return cmd
}

// KillGroup sends sig to the process group cmd leads (its children too).
func KillGroup(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, sig)
}

// Start starts cmd (made by Command for s) and returns once the program
// runs, or an *ExecError when it could not be started (cmd is then
// waited for).
func (l *Launcher) Start(cmd *exec.Cmd, s Spec) error {
	if err := l.Check(); err != nil {
		return fmt.Errorf("starting processes is refused: %w", err)
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("launch %s: %w", s.File, err)
	}
	stR, stW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return fmt.Errorf("launch %s: %w", s.File, err)
	}
	cmd.ExtraFiles = []*os.File{reqR, stW}
	err = cmd.Start()
	reqR.Close()
	stW.Close()
	defer stR.Close()
	if err != nil {
		reqW.Close()
		return fmt.Errorf("launch %s: start the launcher %s: %w", s.File, l.Path, err)
	}
	req := request{File: s.File, Argv: s.Argv, Env: s.Env, Policy: confine.Policy{
		Read: s.Read, Write: s.Write, List: s.List, WriteFiles: s.WriteFiles, AllowNetwork: true, KernelABI: l.KernelABI}}
	err = json.NewEncoder(reqW).Encode(req)
	reqW.Close()
	b, _ := io.ReadAll(stR)
	if len(b) == 0 && err == nil {
		return nil
	}
	_ = cmd.Wait()
	var st status
	if jerr := json.Unmarshal(b, &st); jerr != nil || st.Message == "" {
		return &ExecError{Message: fmt.Sprintf("launch %s: the launcher ended without starting it (%v)", s.File, cmd.ProcessState)}
	}
	return &ExecError{Errno: syscall.Errno(st.Errno), Message: st.Message}
}
