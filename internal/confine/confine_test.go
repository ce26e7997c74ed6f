package confine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The tests confine a child: this test binary run again with childArg,
// which applies the policy given as JSON, does one operation and prints
// "ok" or the error. Confining the test process itself would be for good.
const childArg = "confine-test-child"

func TestMain(m *testing.M) {
	if len(os.Args) > 3 && os.Args[1] == childArg {
		os.Exit(child(os.Args[2], os.Args[3], os.Args[4:]))
	}
	os.Exit(m.Run())
}

func child(policy, op string, args []string) int {
	var p Policy
	if err := json.Unmarshal([]byte(policy), &p); err != nil {
		fmt.Println("bad policy:", err)
		return 2
	}
	var err error
	if op == "exec" {
		err = Exec(p, args[0], args, []string{"PATH=/usr/bin:/bin"})
		fmt.Println("error:", err)
		return 0
	}
	if err := Apply(p); err != nil {
		fmt.Println("apply:", err)
		return 0
	}
	switch op {
	case "read":
		_, err = os.ReadFile(args[0])
	case "write":
		err = os.WriteFile(args[0], []byte("x"), 0o644)
	case "rename":
		err = os.Rename(args[0], args[1])
	case "dial":
		var c net.Conn
		if c, err = net.DialTimeout("tcp", args[0], 2*time.Second); err == nil {
			c.Close()
		}
	case "socket-mptcp":
		// Straight to the system call: Go's dialer falls back to TCP.
		const ipprotoMPTCP = 262
		var fd int
		if fd, err = syscall.Socket(syscall.AF_INET, syscall.SOCK_STREAM, ipprotoMPTCP); err == nil {
			syscall.Close(fd)
		}
	case "dial-udp":
		var c net.Conn
		if c, err = net.Dial("udp", args[0]); err == nil {
			_, err = c.Write([]byte("x"))
			c.Close()
		}
	case "listen":
		// Plain TCP: Go listens with Multipath TCP where it can, which
		// Landlock's TCP rules do not cover.
		var lc net.ListenConfig
		lc.SetMultipathTCP(false)
		var l net.Listener
		if l, err = lc.Listen(context.Background(), "tcp4", "127.0.0.1:0"); err == nil {
			l.Close()
		}
	case "mmap":
		n, _ := strconv.Atoi(args[0])
		var b []byte
		if b, err = syscall.Mmap(-1, 0, n, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE); err == nil {
			syscall.Munmap(b)
		}
	case "signal":
		pid, _ := strconv.Atoi(args[0])
		err = syscall.Kill(pid, 0)
	default:
		err = errors.New("unknown op " + op)
	}
	if err != nil {
		fmt.Println("error:", err)
		return 0
	}
	fmt.Println("ok")
	return 0
}

// runChild confines a child with p, has it do op and returns what it said.
func runChild(t *testing.T, p Policy, op string, args ...string) string {
	t.Helper()
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	// An exec'd program may exit non-zero; what it printed is the answer.
	out, err := exec.Command(os.Args[0], append([]string{childArg, string(b), op}, args...)...).CombinedOutput()
	var ee *exec.ExitError
	if err != nil && !(op == "exec" && errors.As(err, &ee)) {
		t.Fatalf("child %s %v: %v\n%s", op, args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func needLandlock(t *testing.T) {
	t.Helper()
	if v := KernelABI(); v < MinABI {
		t.Skipf("this kernel's Landlock ABI is %d; these tests need %d", v, MinABI)
	}
}

func TestPolicy(t *testing.T) {
	needLandlock(t)
	base := t.TempDir()
	ro, rw, outside := filepath.Join(base, "ro"), filepath.Join(base, "rw"), filepath.Join(base, "outside")
	for _, d := range []string{ro, filepath.Join(rw, "a"), filepath.Join(rw, "b"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(ro, "f"), filepath.Join(outside, "secret"), filepath.Join(rw, "a", "moved")} {
		if err := os.WriteFile(f, []byte("data"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	portN, _ := strconv.Atoi(port)
	p := Policy{Read: []string{ro, "/usr", "/lib", "/lib64", "/bin"}, Write: []string{rw}, MemoryBytes: 4 << 30}
	port1 := Policy{Read: p.Read, ConnectTCP: []uint16{1}}

	cases := []struct {
		name string
		p    Policy
		op   string
		args []string
		want string // prefix of the child's answer
	}{
		{"read a listed folder", p, "read", []string{filepath.Join(ro, "f")}, "ok"},
		{"read outside", p, "read", []string{filepath.Join(outside, "secret")}, "error: open " + outside + "/secret: permission denied"},
		{"read /proc/<pid> of the parent", p, "read", []string{fmt.Sprintf("/proc/%d/environ", os.Getpid())}, "error:"},
		{"write in a read-only folder", p, "write", []string{filepath.Join(ro, "new")}, "error: open " + ro + "/new: permission denied"},
		{"write in the writable folder", p, "write", []string{filepath.Join(rw, "new")}, "ok"},
		{"rename across writable folders", p, "rename", []string{filepath.Join(rw, "a", "moved"), filepath.Join(rw, "b", "moved")}, "ok"},
		{"write outside", p, "write", []string{filepath.Join(outside, "new")}, "error: open " + outside + "/new: permission denied"},
		{"no network: no TCP socket", p, "dial", []string{ln.Addr().String()}, "error: dial tcp " + ln.Addr().String() + ": socket: permission denied"},
		{"no network: no Multipath TCP", p, "socket-mptcp", nil, "error: permission denied"},
		{"no network: no UDP", p, "dial-udp", []string{"127.0.0.1:9"}, "error: dial udp 127.0.0.1:9: socket: permission denied"},
		{"no network: no bind", p, "listen", nil, "error: listen tcp4 127.0.0.1:0: socket: permission denied"},
		{"one port: another is refused", port1, "dial", []string{ln.Addr().String()}, "error: dial tcp " + ln.Addr().String() + ": connect: permission denied"},
		{"one port: no bind", port1, "listen", nil, "error: listen tcp4 127.0.0.1:0: bind: permission denied"},
		{"one port: no Multipath TCP", port1, "socket-mptcp", nil, "error: permission denied"},
		{"the network allowed: Multipath TCP", Policy{Read: p.Read, AllowNetwork: true}, "socket-mptcp", nil, "ok"},
		{"one port: no UDP", port1, "dial-udp", []string{"127.0.0.1:9"}, "error: dial udp 127.0.0.1:9: socket: permission denied"},
		{"connect an allowed port", Policy{Read: p.Read, ConnectTCP: []uint16{uint16(portN)}}, "dial", []string{ln.Addr().String()}, "ok"},
		{"the network allowed", Policy{Read: p.Read, AllowNetwork: true}, "dial-udp", []string{"127.0.0.1:9"}, "ok"},
		{"map past the memory limit", p, "mmap", []string{strconv.Itoa(5 << 30)}, "error: cannot allocate memory"},
		{"signal the parent", p, "signal", []string{strconv.Itoa(os.Getpid())}, "error: operation not permitted"},
		{"an exec'd program is confined too", p, "exec", []string{"/bin/cat", filepath.Join(outside, "secret")}, "/bin/cat: " + outside + "/secret: Permission denied"},
		{"an exec'd program reads what is listed", p, "exec", []string{"/bin/cat", filepath.Join(ro, "f")}, "data"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := runChild(t, tc.p, tc.op, tc.args...); !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q, want %q...", got, tc.want)
			}
		})
	}
	// Only the allowed-port case connected.
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Error("the allowed connection never arrived")
	}
	select {
	case <-accepted:
		t.Error("a refused connection arrived")
	default:
	}
}

// TestRefusesWithoutLandlock takes the path of a kernel without Landlock
// (or with too old an ABI): Apply refuses and nothing runs unconfined.
func TestRefusesWithoutLandlock(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(outside, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, abi := range []int{0, 3} {
		t.Run(fmt.Sprintf("ABI %d", abi), func(t *testing.T) {
			p := Policy{Read: []string{"/usr"}, KernelABI: &abi}
			err := p.Check()
			var ue *UnavailableError
			if !errors.As(err, &ue) || ue.ABI != abi || !errors.Is(err, ErrUnavailable) || !strings.Contains(err.Error(), "refusing to run unconfined") {
				t.Fatalf("Check = %v, want an UnavailableError for ABI %d", err, abi)
			}
			got := runChild(t, p, "exec", "/bin/cat", outside)
			if !strings.HasPrefix(got, "error: this kernel") || strings.Contains(got, "data") {
				t.Fatalf("the launcher said %q, want a refusal and no exec", got)
			}
		})
	}
}

func TestRelativePathRefused(t *testing.T) {
	needLandlock(t)
	got := runChild(t, Policy{Read: []string{"usr"}}, "read", "/etc/hostname")
	if !strings.Contains(got, `"usr" is not an absolute path`) {
		t.Fatalf("got %q", got)
	}
}
