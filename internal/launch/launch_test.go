package launch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"syscall"
	"testing"

	"github.com/beeuni/beeuni/internal/confine"
)

// The launcher in these tests is this test binary, as beeuni is.
func TestMain(m *testing.M) {
	if Requested(os.Args[1:], os.Getenv) {
		os.Exit(Serve())
	}
	os.Exit(m.Run())
}

func launcher(t *testing.T) *Launcher {
	t.Helper()
	if v := confine.KernelABI(); v < confine.MinABI {
		t.Skipf("this kernel's Landlock ABI is %d; launching needs %d", v, confine.MinABI)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return &Launcher{Path: exe}
}

// TestStart: a program found in the child's PATH runs confined (a folder
// left out of the roots is refused by the kernel); one not found is an
// ExecError with ENOENT; by hand, without the marker, nothing is served.
func TestStart(t *testing.T) {
	l := launcher(t)
	hidden := t.TempDir()
	if err := os.WriteFile(hidden+"/f", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		argv     []string
		wantOut  string
		wantCode int
		errno    syscall.Errno
	}{
		{"runs", []string{"echo", "hi"}, "hi\n", 0, 0},
		{"confined", []string{"cat", hidden + "/f"}, "", 1, 0},
		{"missing", []string{"no-such-binary-xyz"}, "", 0, syscall.ENOENT},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := Spec{File: c.argv[0], Argv: c.argv, Env: []string{"PATH=/usr/bin:/bin"}, Dir: t.TempDir(),
				Read: []string{"/usr", "/bin", "/lib", "/lib64", "/etc", "/proc", "/dev"}}
			cmd := l.Command(context.Background(), s)
			var out bytes.Buffer
			cmd.Stdout = &out
			err := l.Start(cmd, s)
			var ee *ExecError
			if c.errno != 0 {
				if !errors.As(err, &ee) || ee.Errno != c.errno {
					t.Fatalf("Start = %v, want errno %v", err, c.errno)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			if out.String() != c.wantOut || cmd.ProcessState.ExitCode() != c.wantCode {
				t.Fatalf("output %q exit %d, want %q exit %d", out.String(), cmd.ProcessState.ExitCode(), c.wantOut, c.wantCode)
			}
		})
	}
	if Requested(Args, func(string) string { return "" }) {
		t.Error("Requested without the marker")
	}
}
