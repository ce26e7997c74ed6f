package policy

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// layout makes a machine in miniature: a workspace, a temp folder, an
// executor data folder with a release and a workspace inside, a key file,
// another folder, and symlinks that lead from the workspace into each.
func layout(tb testing.TB) string {
	tb.Helper()
	root, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	for _, d := range []string{"ws/.git", "ws/notes", "tmp", "data/releases/r1/tools", "data/workspace", "data/cas", "other/sub"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	for _, f := range []string{"data/executor.db", "data/releases/r1/tools/x.ts", "data/cas/ab", "signing.key", "other/file", "other/sub/f", "ws/.git/HEAD"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("x"), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	for link, target := range map[string]string{
		"ws/key":     "../signing.key",
		"ws/data":    filepath.Join(root, "data"),
		"ws/ok":      "../other/file",
		"ws/loop":    "loop",
		"ws/release": "../data/releases/r1",
		"ws/fd":      "/dev/fd",
		"ws/self":    "/proc/self",
	} {
		if err := os.Symlink(target, filepath.Join(root, link)); err != nil {
			tb.Fatal(err)
		}
	}
	return root
}

func newPolicy(tb testing.TB, root string, mod func(*Config)) *Policy {
	tb.Helper()
	cfg := Config{Workspace: filepath.Join(root, "ws"), TempDir: filepath.Join(root, "tmp"),
		ReadOnly: []string{filepath.Join(root, "data/releases/r1")},
		Private:  []string{filepath.Join(root, "data"), filepath.Join(root, "signing.key")}}
	if mod != nil {
		mod(&cfg)
	}
	p, err := New(cfg)
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func TestPaths(t *testing.T) {
	root := layout(t)
	pid := fmt.Sprint(os.Getpid())
	cases := []struct {
		name   string
		flags  func(*Config)
		path   string
		access Access
		ok     bool
		reason string // in the refusal's message
	}{
		{"read anywhere", nil, "other/file", Read, true, ""},
		{"read the workspace", nil, "ws/.git/HEAD", Read, true, ""},
		{"write the workspace", nil, "ws/new.txt", Write, true, ""},
		{"write a new folder in the workspace", nil, "ws/a/b/c.txt", Write, true, ""},
		{"write the temp folder", nil, "tmp/x", Write, true, ""},
		{"write elsewhere", nil, "other/file", Write, false, "tools may write under " + root + "/tmp and " + root + "/ws"},
		{"write a new file elsewhere", nil, "other/new", Write, false, "tools may write under"},
		{"read the release", nil, "data/releases/r1/tools/x.ts", Read, true, ""},
		{"write the release", nil, "data/releases/r1/tools/x.ts", Write, false, "the release folder is read-only"},
		{"write the release through a link", nil, "ws/release/tools/x.ts", Write, false, "the release folder is read-only"},
		{"read the data folder", nil, "data/executor.db", Read, false, "tools may not read beeuni's own state"},
		{"stat the data folder", nil, "data", Read, false, "beeuni's own state"},
		{"read the cache", nil, "data/cas/ab", Read, false, "beeuni's own state"},
		{"write the cache", nil, "data/cas/ab", Write, false, "tools may not write beeuni's own state"},
		{"read a key", nil, "signing.key", Read, false, "beeuni's own state"},
		{"read a key through a link", nil, "ws/key", Read, false, "(resolves to " + root + "/signing.key)"},
		{"read the data folder through a link", nil, "ws/data/executor.db", Read, false, "beeuni's own state"},
		{"rm -r a folder that holds a denied one", func(c *Config) { c.Write = "-" + root + "/ws/.git" }, "ws", Write | NoFollow | Tree, false, "--fs-write -" + root + "/ws/.git denies it (it is inside)"},
		{"rm -r the temp folder that holds beeuni's state", func(c *Config) { c.TempDir = root }, "", Write | NoFollow | Tree, false, "(it is inside)"},
		{"rm -r a folder", nil, "ws/notes", Write | NoFollow | Tree, true, ""},
		{"unlink a link to a key", nil, "ws/key", Write | NoFollow, true, ""},
		{"lstat a link to a key", nil, "ws/key", Read | NoFollow, true, ""},
		{"read through a link that stays allowed", nil, "ws/ok", Read, true, ""},
		{"a link loop", nil, "ws/loop", Read, false, "too many levels of symbolic links"},
		{"dot-dot out of the workspace", nil, "ws/../signing.key", Read, false, "beeuni's own state"},
		{"/proc/self", nil, "/proc/self/environ", Read, false, "beeuni's own state"},
		{"/proc/self itself", nil, "/proc/self", Read | NoFollow, false, "beeuni's own state"},
		{"/proc/thread-self", nil, "/proc/thread-self/environ", Read, false, "beeuni's own state"},
		{"/proc/PID", nil, "/proc/" + pid + "/cmdline", Read, false, "beeuni's own state"},
		{"/proc/PID/root", nil, "/proc/" + pid + "/root/etc/hostname", Read, false, "beeuni's own state"},
		{"/dev/fd", nil, "/dev/fd/0", Read, false, "beeuni's own state"},
		{"/dev/stdin", nil, "/dev/stdin", Read, false, "beeuni's own state"},
		{"/proc/self through a workspace link", nil, "ws/self/environ", Read, false, "beeuni's own state"},
		{"/dev/fd through a workspace link", nil, "ws/fd/1", Read, false, "beeuni's own state"},
		{"the workspace inside the data folder", func(c *Config) { c.Workspace = filepath.Join(root, "data/workspace") }, "data/workspace/memory.md", Write, true, ""},
		{"--fs-read -PATH", func(c *Config) { c.Read = "-" + root + "/other" }, "other/file", Read, false, "--fs-read -" + root + "/other denies it"},
		{"--fs-read -PATH,PATH", func(c *Config) { c.Read = "-" + root + "/other, " + root + "/other/sub" }, "other/sub/f", Read, true, ""},
		{"--fs-read -PATH denies writes", func(c *Config) { c.Read = "-" + root + "/ws/.git" }, "ws/.git/HEAD", Write, false, "--fs-read -" + root + "/ws/.git denies it"},
		{"--fs-write PATH", func(c *Config) { c.Write = root + "/other" }, "other/file", Write, true, ""},
		{"--fs-write -PATH", func(c *Config) { c.Write = "-" + root + "/ws/.git" }, "ws/.git/HEAD", Write, false, "--fs-write -" + root + "/ws/.git denies it"},
		{"--fs-write -PATH reads", func(c *Config) { c.Write = "-" + root + "/ws/.git" }, "ws/.git/HEAD", Read, true, ""},
		{"--fs-write on a parent of beeuni's state", func(c *Config) { c.Write = root }, "data/executor.db", Write, false, "beeuni's own state"},
		{"--fs-read on a parent of beeuni's state", func(c *Config) { c.Read = "/" }, "signing.key", Read, false, "beeuni's own state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := newPolicy(t, root, c.flags)
			path := c.path
			if !filepath.IsAbs(path) || path == "" {
				path = filepath.Join(root, path)
			}
			got, err := p.Check(path, c.access)
			if c.ok {
				if err != nil {
					t.Fatalf("Check(%s) = %v, want allowed", path, err)
				}
				if got == "" || !filepath.IsAbs(got) {
					t.Fatalf("Check(%s) resolved to %q", path, got)
				}
				return
			}
			var pe *Error
			if !errors.As(err, &pe) || !errors.Is(err, ErrDenied) {
				t.Fatalf("Check(%s) = %q, %v, want a refusal", path, got, err)
			}
			msg := pe.Message("open")
			if !strings.HasPrefix(msg, "EACCES: permission denied, open '"+filepath.Clean(path)+"'") || !strings.Contains(msg, c.reason) || !strings.Contains(msg, "tools may write under") {
				t.Fatalf("message %q, want the path, %q and what is allowed", msg, c.reason)
			}
		})
	}
}

// TestResolvedPathIsUsed: the binding acts on the resolved path, so a
// link swapped after the check cannot redirect it.
func TestResolvedPathIsUsed(t *testing.T) {
	root := layout(t)
	p := newPolicy(t, root, nil)
	got, err := p.CheckRead(filepath.Join(root, "ws/ok"))
	if err != nil || got != filepath.Join(root, "other/file") {
		t.Fatalf("CheckRead(ws/ok) = %q, %v, want %s", got, err, filepath.Join(root, "other/file"))
	}
	got, err = p.Check(filepath.Join(root, "ws/key"), Write|NoFollow)
	if err != nil || got != filepath.Join(root, "ws/key") {
		t.Fatalf("Check(ws/key, NoFollow) = %q, %v, want the link itself", got, err)
	}
	if got, err := p.CheckWrite("notes/a.md"); err != nil || got != filepath.Join(root, "ws/notes/a.md") {
		t.Fatalf("a relative path: %q, %v, want it under the workspace", got, err)
	}
}

func TestFlagsCannotReachPrivateState(t *testing.T) {
	root := layout(t)
	for _, c := range []struct{ read, write string }{
		{root + "/data", ""},
		{"", root + "/data/cas"},
		{root + "/signing.key", ""},
		{"", "/proc/self"},
	} {
		_, err := New(Config{Workspace: root + "/ws", Private: []string{root + "/data", root + "/signing.key"}, Read: c.read, Write: c.write})
		if err == nil || !strings.Contains(err.Error(), "beeuni's own state") {
			t.Errorf("--fs-read %q --fs-write %q: %v, want a refusal naming beeuni's own state", c.read, c.write, err)
		}
	}
	if _, err := New(Config{Read: "a,-"}); err == nil || !strings.Contains(err.Error(), "no path after the '-'") {
		t.Errorf("--fs-read a,-: %v", err)
	}
}

func TestDial(t *testing.T) {
	cases := []struct {
		listen string
		dial   string
		ok     bool
	}{
		{"127.0.0.1:7420", "127.0.0.1:7420", false},
		{"127.0.0.1:7420", "[::1]:7420", false},
		{"127.0.0.1:7420", "127.0.0.2:7420", false},
		{"127.0.0.1:7420", "0.0.0.0:7420", false},
		{"127.0.0.1:7420", "[::ffff:127.0.0.1]:7420", false},
		{"127.0.0.1:7420", "localhost:7420", false},
		{"127.0.0.1:7420", "127.0.0.1:7421", true},
		{"127.0.0.1:7420", "192.0.2.250:7420", true}, // not this machine
		{"0.0.0.0:7420", "127.0.0.1:7420", false},
		{":7420", "[::]:7420", false},
		{"[::]:7420", "127.0.0.1:7420", false},
		{"localhost:7420", "127.0.0.1:7420", false},
		{"203.0.113.9:4222", "203.0.113.9:4222", false}, // a remote NATS server of the fleet
		{"203.0.113.9:4222", "203.0.113.8:4222", true},
	}
	for _, c := range cases {
		p, err := New(Config{DenyDial: []string{c.listen}})
		if err != nil {
			t.Fatal(err)
		}
		err = p.CheckDial("tcp", c.dial)
		if c.ok != (err == nil) {
			t.Errorf("listening on %s, dial %s: %v, want ok=%v", c.listen, c.dial, err, c.ok)
		}
		if err != nil && (!errors.Is(err, ErrDenied) || !strings.HasPrefix(err.Error(), "connect EACCES ") || !strings.Contains(err.Error(), "beeuni's own address "+c.listen)) {
			t.Errorf("dial %s: message %q", c.dial, err)
		}
	}
	// Every address of this machine reaches a 0.0.0.0 listener: all refused
	// (decided only: nothing is dialed).
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		t.Fatal(err)
	}
	p, _ := New(Config{DenyDial: []string{"0.0.0.0:7420"}})
	for _, a := range addrs {
		ipn, ok := a.(*net.IPNet)
		if !ok || ipn.IP.IsLinkLocalUnicast() {
			continue
		}
		if err := p.CheckDial("tcp", net.JoinHostPort(ipn.IP.String(), "7420")); err == nil {
			t.Errorf("this machine's address %s reaches the 0.0.0.0 listener", ipn.IP)
		}
	}
}

// TestDialer: the dialer refuses a real loopback listener before it
// connects (the listener accepts nothing), and connects to another.
func TestDialer(t *testing.T) {
	denied, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer denied.Close()
	other, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	p, err := New(Config{DenyDial: []string{denied.Addr().String()}})
	if err != nil {
		t.Fatal(err)
	}
	d := p.Dialer(&net.Dialer{})
	_, port, _ := net.SplitHostPort(denied.Addr().String())
	for _, host := range []string{"127.0.0.1", "localhost"} {
		c, err := d.Dial("tcp", net.JoinHostPort(host, port))
		var de *DialError
		if !errors.As(err, &de) {
			if c != nil {
				c.Close()
			}
			t.Fatalf("dial %s:%s = %v, want refused", host, port, err)
		}
	}
	c, err := d.Dial("tcp", other.Addr().String())
	if err != nil {
		t.Fatalf("dial another local port: %v", err)
	}
	c.Close()
}

func TestEnv(t *testing.T) {
	p, err := New(Config{HideEnv: []string{"MY_OWN"}, HideValues: []string{"s3cret"}})
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{
		"BEEUNI_TOKEN":            "api-token", // the Beeuni API token: tools read it
		"BEEUNI_EXECUTOR_TOKEN":   "x",
		"BEEUNI_CONTROLLER_TOKEN": "y",
		"BEEUNI_HOOK_SECRET":      "z",
		"BEEUNI_TRUST_KEY":        "/keys/pub",
		"MY_OWN":                  "1",
		"COPY_OF_TOKEN":           "s3cret",
		"BEEUNI_NATS_URL":         "nats://user:pw@nats:4222",
		"NATS_URL":                "nats://nats:4222",
		"HOME":                    "/root",
	}
	got := p.Env(env)
	want := map[string]bool{"BEEUNI_TOKEN": true, "NATS_URL": true, "HOME": true}
	if len(got) != len(want) {
		t.Errorf("Env = %v, want only %v", got, want)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			t.Errorf("Env hides %s", k)
		}
	}
	if len(env) != 10 {
		t.Error("Env changed its argument")
	}
}

func TestRoots(t *testing.T) {
	root := layout(t)
	p := newPolicy(t, root, func(c *Config) { c.Write = "-" + root + "/ws/.git" })
	read, write := p.Roots()
	denied := []string{root + "/data/executor.db", root + "/data/cas", root + "/signing.key", fmt.Sprintf("/proc/%d", os.Getpid())}
	for _, r := range read {
		for _, d := range denied {
			if within(d, r) {
				t.Errorf("read root %s holds %s", r, d)
			}
		}
	}
	has := func(list []string, path string) bool {
		for _, r := range list {
			if within(path, r) {
				return true
			}
		}
		return false
	}
	for _, path := range []string{root + "/other/file", root + "/ws/notes/x", root + "/data/releases/r1/tools/x.ts", "/etc/hostname"} {
		if !has(read, path) {
			t.Errorf("no read root holds %s", path)
		}
	}
	// ws/.git is denied, so ws is listed by its entries (new ones at its
	// top are not covered: fail closed).
	for _, path := range []string{root + "/ws/notes/x", root + "/tmp/y"} {
		if !has(write, path) {
			t.Errorf("no write root holds %s: %v", path, write)
		}
	}
	for _, path := range []string{root + "/ws/.git/HEAD", root + "/other/file", root + "/data/releases/r1/tools/x.ts"} {
		if has(write, path) {
			t.Errorf("a write root holds %s: %v", path, write)
		}
	}
}

// TestRootsMissingRule: a denied path that does not exist splits no
// folder: the workspace stays one root (a child may list it), and once
// the path exists it is split again.
func TestRootsMissingRule(t *testing.T) {
	root := layout(t)
	ws := filepath.Join(root, "ws")
	p := newPolicy(t, root, func(c *Config) { c.Private = append(c.Private, filepath.Join(ws, ".beeuni")) })
	if _, write := p.Roots(); !slices.Contains(write, ws) {
		t.Fatalf("write roots %v: want %s whole", write, ws)
	}
	if err := os.Mkdir(filepath.Join(ws, ".beeuni"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, write := p.Roots(); slices.Contains(write, ws) {
		t.Fatalf("write roots %v: %s holds the private .beeuni", write, ws)
	}
	// The checkout stays listable (git status), not the folders outside it.
	if lists := p.Lists(); !slices.Equal(lists, []string{ws}) {
		t.Fatalf("Lists = %v, want [%s]", lists, ws)
	}
}

// TestOwnProcesses: /proc/<tid> of this process's threads and /proc/<pid>
// of another process running the same binary (as the controller runs
// beside an executor) are beeuni's own; another program's are not.
func TestOwnProcesses(t *testing.T) {
	if os.Getenv("POLICY_TEST_SLEEP") != "" {
		time.Sleep(time.Minute)
		return
	}
	p, err := New(Config{})
	if err != nil {
		t.Fatal(err)
	}
	tasks, err := os.ReadDir("/proc/self/task")
	if err != nil {
		t.Skip("no /proc here:", err)
	}
	for _, task := range tasks {
		if task.Name() == fmt.Sprint(os.Getpid()) {
			continue
		}
		if _, err := p.CheckRead("/proc/" + task.Name() + "/environ"); !errors.Is(err, ErrDenied) {
			t.Errorf("/proc/%s (a thread of this process): %v, want refused", task.Name(), err)
		}
		break
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	same := exec.Command(exe, "-test.run=^TestOwnProcesses$")
	same.Env = append(os.Environ(), "POLICY_TEST_SLEEP=1")
	other := exec.Command("sleep", "60")
	for _, c := range []*exec.Cmd{same, other} {
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.Process.Kill(); _ = c.Wait() })
	}
	// /proc/<pid>/exe appears once the child has exec'd.
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		a, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", same.Process.Pid))
		b, _ := os.Readlink(fmt.Sprintf("/proc/%d/exe", other.Process.Pid))
		if a == exe && strings.HasSuffix(b, "sleep") {
			break
		}
	}
	if _, err := p.CheckRead(fmt.Sprintf("/proc/%d/environ", same.Process.Pid)); !errors.Is(err, ErrDenied) {
		t.Errorf("/proc of another process of this binary: %v, want refused", err)
	}
	if _, err := p.CheckRead(fmt.Sprintf("/proc/%d/cmdline", other.Process.Pid)); err != nil {
		t.Errorf("/proc of another program: %v, want allowed", err)
	}
}
