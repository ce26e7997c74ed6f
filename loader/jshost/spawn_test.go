package jshost

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/confine"
	"github.com/beeuni/beeuni/internal/launch"
	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// The launcher in these tests is this test binary run again as
// `internal launch` (TestMain), as the beeuni binary is in production.
func TestMain(m *testing.M) {
	if launch.Requested(os.Args[1:], os.Getenv) {
		os.Exit(launch.Serve())
	}
	os.Exit(m.Run())
}

// testLauncher is this test binary as the launcher.
func testLauncher(tb testing.TB) *launch.Launcher {
	tb.Helper()
	if v := confine.KernelABI(); v < confine.MinABI {
		tb.Skipf("this kernel's Landlock ABI is %d; spawning needs %d", v, confine.MinABI)
	}
	exe, err := os.Executable()
	if err != nil {
		tb.Fatal(err)
	}
	return &launch.Launcher{Path: exe}
}

// runJSON loads one tool of body (a tool() body), calls it with args and
// decodes its JSON output into a map.
func runJSON(tb testing.TB, opts Options, body, args string) map[string]any {
	tb.Helper()
	root := project(tb, map[string]string{"tools/t.ts": tool(body)})
	s, _ := loadTools(tb, root, opts, "tools/t.ts")
	mustLoad(tb, s)
	r := call(tb, s, "t", args)
	if r.IsError {
		tb.Fatalf("call failed: %s", r.Output)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil {
		tb.Fatalf("output is not JSON: %v\n%s", err, r.Output)
	}
	return got
}

// TestChildProcess: node:child_process's forms answer what Node answers,
// with real processes.
func TestChildProcess(t *testing.T) {
	ws := t.TempDir()
	got := runJSON(t, Options{Directory: ws, Launcher: testLauncher(t)}, `async execute() {
		const cp = require('node:child_process'), { promisify } = require('node:util')
		const out = {}
		out.execSync = cp.execSync('echo hello').toString()
		out.execFileSync = cp.execFileSync('printf', ['%s-%s', 'a', 'b'], { encoding: 'utf8' })
		const r = cp.spawnSync('sh', ['-c', 'printf abc; printf e >&2; exit 2'], { encoding: 'utf8' })
		out.spawnSync = [r.status, r.signal, r.stdout, r.stderr, r.output.length, typeof r.pid]
		out.input = cp.execSync('tr a-z A-Z', { input: 'shout' }).toString()
		out.cwd = cp.execSync('pwd').toString().trim()
		out.failed = (() => { try { cp.execSync('echo no >&2; exit 3', { stdio: 'pipe' }) } catch (e) { return [e.status, e.message, e.stderr.toString()] } })()
		out.streamed = await new Promise((resolve) => {
			const p = cp.spawn('sh', ['-c', 'read x; echo "got $x"; echo err >&2; exit 4'])
			const ev = ['pid:' + (typeof p.pid)]
			p.on('spawn', () => ev.push('spawn'))
			p.stdout.setEncoding('utf8')
			let out = '', err = ''
			p.stdout.on('data', (c) => (out += c))
			p.stderr.on('data', (c) => (err += c.toString()))
			p.on('exit', (code, sig) => ev.push('exit:' + code + ',' + sig))
			p.on('close', (code) => { ev.push('close:' + code + ',' + p.exitCode, 'out:' + out.trim(), 'err:' + err.trim()); resolve(ev) })
			p.stdin.end('line\n')
		})
		out.killed = await new Promise((resolve) => {
			const p = cp.spawn('sleep', ['30'])
			p.on('close', (code, sig) => resolve([code, sig, p.killed]))
			p.on('spawn', () => p.kill())
		})
		const execP = promisify(cp.exec), execFileP = promisify(cp.execFile)
		out.exec = await execP('echo promisified; echo e >&2')
		out.execErr = await execP('echo partial; exit 7').catch((e) => [e.message, e.code, e.killed, e.signal, e.cmd, e.stdout])
		out.enoent = await execFileP('no-such-binary-xyz', ['a']).catch((e) => [e.message, e.code, e.errno, e.syscall, e.path, e.spawnargs, e.cmd])
		out.enoentSync = (() => { try { cp.execFileSync('no-such-binary-xyz') } catch (e) { return [e.message, e.code, e.syscall, e.status] } })()
		out.maxBuffer = await new Promise((resolve) => cp.exec('head -c 5000 /dev/zero', { maxBuffer: 100 }, (e, so) => resolve([e.code, e.message, so.length])))
		out.timeout = await new Promise((resolve) => cp.execFile('sleep', ['30'], { timeout: 50 }, (e) => resolve([e.killed, e.signal, e.code])))
		out.callback = await new Promise((resolve) => cp.execFile('sh', ['-c', 'exit 1'], (e, so, se) => resolve([e.code, e.message, so, se])))
		out.enoentEvents = await new Promise((resolve) => {
			const p = cp.spawn('no-such-binary-xyz'), ev = []
			p.on('error', (e) => ev.push('error:' + e.code))
			p.on('close', (c, s) => { ev.push('close:' + c + ',' + s, p.exitCode, p.stdout !== null); resolve(ev) })
		})
		out.enoentSyncResult = Object.keys(cp.spawnSync('no-such-binary-xyz'))
		out.inheritFds = cp.spawnSync('echo', ['x'], { stdio: [0, 1, 'pipe'] }).stdout
		out.inheritStdin = await new Promise((resolve) => cp.spawn('cat', { stdio: 'inherit' }).on('close', resolve))
		out.uid = (() => { try { cp.spawn('id', { uid: 0 }) } catch (e) { return e.message } })()
		return out
	}`, "{}")
	want := map[string]any{
		"execSync":     "hello\n",
		"execFileSync": "a-b",
		"spawnSync":    []any{2.0, nil, "abc", "e", 3.0, "number"},
		"input":        "SHOUT",
		"cwd":          ws,
		"failed":       []any{3.0, "Command failed: echo no >&2; exit 3\nno\n", "no\n"},
		"streamed":     []any{"pid:number", "spawn", "exit:4,null", "close:4,4", "out:got line", "err:err"},
		"killed":       []any{nil, "SIGTERM", true},
		"exec":         map[string]any{"stdout": "promisified\n", "stderr": "e\n"},
		"execErr":      []any{"Command failed: echo partial; exit 7\n", 7.0, false, nil, "echo partial; exit 7", "partial\n"},
		"enoent": []any{"spawn no-such-binary-xyz ENOENT", "ENOENT", -2.0, "spawn no-such-binary-xyz", "no-such-binary-xyz",
			[]any{"a"}, "no-such-binary-xyz a"},
		"enoentSync":       []any{"spawnSync no-such-binary-xyz ENOENT", "ENOENT", "spawnSync no-such-binary-xyz", nil},
		"maxBuffer":        []any{"ERR_CHILD_PROCESS_STDIO_MAXBUFFER", "stdout maxBuffer length exceeded", 100.0},
		"timeout":          []any{true, "SIGTERM", nil},
		"callback":         []any{1.0, "Command failed: sh -c exit 1\n", "", ""},
		"inheritFds":       nil,
		"enoentEvents":     []any{"error:ENOENT", "close:-2,null", -2.0, true},
		"enoentSyncResult": []any{"error", "status", "signal", "output", "pid", "stdout", "stderr"},
		"inheritStdin":     0.0,
		"uid":              "child_process: options.uid is not supported in beeuni: children run as the host's user",
	}
	for k, w := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(t, w) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(t, w))
		}
	}
}

func mustJSON(tb testing.TB, v any) string {
	tb.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

// TestSpawnConfined: a child is held by the kernel to the tools' file
// policy (beeuni's private folder unreadable, nothing writable outside
// the workspace and temp folder) and sees no hidden variable, even one
// the tool passes itself.
func TestSpawnConfined(t *testing.T) {
	ws, private, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(private, "signing.key")
	if err := os.WriteFile(secret, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BEEUNI_EXECUTOR_TOKEN", "exec-token")
	t.Setenv("SOME_VISIBLE", "yes")
	opts := Options{Directory: ws, Launcher: testLauncher(t), Policy: policy.Config{Private: []string{private}}}
	got := runJSON(t, opts, `execute(a) {
		const cp = require('node:child_process')
		const run = (cmd, env) => { const r = cp.spawnSync('sh', ['-c', cmd], { encoding: 'utf8', env }); return [r.status, (r.stdout + r.stderr).trim()] }
		return {
			secret: run('cat ' + a.secret),
			list: run('ls ' + a.private),
			writeElsewhere: run('echo x > ' + a.elsewhere + '/f'),
			writeWorkspace: run('echo x > notes.txt && cat notes.txt'),
			devnull: run('echo x > /dev/null && echo ok'),
			env: run('env', { ...process.env, BEEUNI_EXECUTOR_TOKEN: 'passed' }),
			cwd: (() => { const r = cp.spawnSync('ls', { cwd: a.private }); return [r.error.code, r.error.message] })(),
		}
	}`, mustJSON(t, map[string]string{"secret": secret, "private": private, "elsewhere": elsewhere}))
	for _, k := range []string{"secret", "list", "writeElsewhere"} {
		r, _ := got[k].([]any)
		if len(r) != 2 || r[0] == 0.0 || !strings.Contains(r[1].(string), "Permission denied") {
			t.Errorf("%s: got %v, want a refusal (Permission denied)", k, got[k])
		}
	}
	if g := mustJSON(t, got["writeWorkspace"]); g != `[0,"x"]` {
		t.Errorf("writeWorkspace = %s", g)
	}
	if g := mustJSON(t, got["devnull"]); g != `[0,"ok"]` {
		t.Errorf("devnull = %s", g)
	}
	if g := mustJSON(t, got["cwd"]); g != `["EACCES","spawnSync ls EACCES"]` {
		t.Errorf("cwd = %s, want EACCES", g)
	}
	env := got["env"].([]any)[1].(string)
	if strings.Contains(env, "BEEUNI_EXECUTOR_TOKEN") || !strings.Contains(env, "SOME_VISIBLE=yes") {
		t.Errorf("the child's environment: %s", env)
	}
}

// TestSpawnListsCheckout: beeuni's state inside the checkout (`beeuni
// up`'s .beeuni) keeps the checkout listable (git, ls) while what it holds
// stays unreadable and nothing can be made inside it.
func TestSpawnListsCheckout(t *testing.T) {
	ws := t.TempDir()
	private := filepath.Join(ws, ".beeuni")
	if err := os.MkdirAll(private, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(private, "signing.key"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "a.txt"), []byte("A"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Directory: ws, Launcher: testLauncher(t), Policy: policy.Config{Private: []string{private}}}
	got := runJSON(t, opts, `execute() {
		const run = (cmd) => { const r = require('node:child_process').spawnSync('sh', ['-c', cmd], { encoding: 'utf8' }); return [r.status, (r.stdout + r.stderr).trim()] }
		return { ls: run('ls'), key: run('cat .beeuni/signing.key'), make: run('echo x > .beeuni/new') }
	}`, "{}")
	if g := mustJSON(t, got["ls"]); g != `[0,"a.txt"]` {
		t.Errorf("ls = %s", g)
	}
	for _, k := range []string{"key", "make"} {
		r, _ := got[k].([]any)
		if len(r) != 2 || r[0] == 0.0 || !strings.Contains(r[1].(string), "Permission denied") {
			t.Errorf("%s: got %v, want a refusal (Permission denied)", k, got[k])
		}
	}
}

// TestSpawnDeadline: a child that outlives the call's deadline is killed
// with its process group, from the async and the sync forms.
func TestSpawnDeadline(t *testing.T) {
	ws := t.TempDir()
	root := project(t, map[string]string{
		"tools/async.ts": tool(`timeout: 2000, execute() {
			require('node:child_process').spawn('sh', ['-c', 'echo $$ > async.pid; sleep 30 & echo $! > async.bg; wait'])
			return new Promise(() => {}) }`),
		"tools/sync.ts": tool(`timeout: 2000, execute() {
			return require('node:child_process').execSync('echo $$ > sync.pid; sleep 30') }`),
		"tools/shell.ts": tool("timeout: 2000, execute() { return Bun.$`sh -c 'echo $$ > shell.pid; sleep 30'`.text() }"),
	})
	s, _ := loadTools(t, root, Options{Directory: ws, Launcher: testLauncher(t)}, "tools/async.ts", "tools/sync.ts", "tools/shell.ts")
	mustLoad(t, s)
	for _, name := range []string{"async", "sync", "shell"} {
		start := time.Now()
		r := call(t, s, name, "{}")
		if !r.IsError || !strings.Contains(r.Output, "timed out") {
			t.Fatalf("%s: got %+v, want a timeout", name, r)
		}
		if d := time.Since(start); d > 8*time.Second {
			t.Errorf("%s: the call took %v", name, d)
		}
		files := []string{name + ".pid"}
		if name == "async" {
			files = append(files, "async.bg")
		}
		for _, f := range files {
			b, err := os.ReadFile(filepath.Join(ws, f))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			waitGone(t, pid)
		}
	}
}

// waitGone polls until pid is no more (or a zombie nobody waits for).
func waitGone(tb testing.TB, pid int) {
	tb.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
			return
		}
		if b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(b), ") Z ") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	tb.Errorf("process %d still runs after the deadline", pid)
}

// TestSpawnRefused: without Landlock (the KernelABI override) or without
// a launcher (the controller's checks) no process starts, and the error
// says why.
func TestSpawnRefused(t *testing.T) {
	l := testLauncher(t)
	noABI := 0
	body := `execute() {
		const cp = require('node:child_process')
		const out = []
		try { cp.execSync('echo hi') } catch (e) { out.push(e.message) }
		try { cp.spawn('echo') } catch (e) { out.push(e.message) }
		return out.join('\n') }`
	cases := []struct {
		name string
		opts Options
		want string
	}{
		{"no landlock", Options{Launcher: &launch.Launcher{Path: l.Path, KernelABI: &noABI}}, "spawnSync /bin/sh: starting processes is refused: this kernel has no Landlock"},
		{"no launcher", Options{NoSpawn: "the checks start none"}, "spawnSync /bin/sh: the checks start none"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := project(t, map[string]string{"tools/t.ts": tool(body)})
			s, _ := loadTools(t, root, c.opts, "tools/t.ts")
			mustLoad(t, s)
			r := call(t, s, "t", "{}")
			lines := strings.Split(r.Output, "\n")
			if r.IsError || len(lines) != 2 || !strings.HasPrefix(lines[0], c.want) || !strings.HasPrefix(lines[1], strings.Replace(c.want, "spawnSync /bin/sh", "spawn echo", 1)) {
				t.Fatalf("got %q, want lines starting %q", r.Output, c.want)
			}
		})
	}
}

// TestBunSpawn: Bun.spawn and Bun.spawnSync answer what Bun answers.
func TestBunSpawn(t *testing.T) {
	ws := t.TempDir()
	got := runJSON(t, Options{Directory: ws, Launcher: testLauncher(t)}, `async execute() {
		const out = {}
		const p = Bun.spawn(['sh', '-c', 'pwd; echo "$GREETING"'], { env: { ...process.env, GREETING: 'hi' } })
		out.stream = [p.stdout instanceof ReadableStream, p.stdin, p.stderr, typeof p.pid, Object.keys(p)]
		out.text = await new Response(p.stdout).text()
		out.exited = [await p.exited, p.exitCode, p.signalCode]
		const k = Bun.spawn(['sleep', '30'])
		k.kill()
		out.killed = [await k.exited, k.exitCode, k.signalCode, k.killed]
		const c = Bun.spawn({ cmd: ['cat'], stdin: 'pipe', stderr: 'pipe' })
		out.sink = [c.stdin.constructor.name, c.stdin.write('ab'), c.stdin.write(new Uint8Array([99]))]
		c.stdin.end()
		out.cat = [await new Response(c.stdout).text(), await new Response(c.stderr).text()]
		out.inheritStdin = await Bun.spawn(['cat'], { stdin: 'inherit' }).exited
		const d = Bun.spawn(['tr', 'a-z', 'A-Z'], { stdin: new TextEncoder().encode('bytes') })
		out.bytesIn = await new Response(d.stdout).text()
		const s = Bun.spawnSync(['sh', '-c', 'printf out; printf err >&2; exit 3'])
		out.sync = [s.stdout.toString(), s.stderr.toString(), s.exitCode, s.success, Buffer.isBuffer(s.stdout), Object.keys(s)]
		out.syncIn = Bun.spawnSync(['tr', 'a-z', 'A-Z'], { stdin: new TextEncoder().encode('shout') }).stdout.toString()
		for (const f of [() => Bun.spawn(['no-such-binary-xyz']), () => Bun.spawnSync(['no-such-binary-xyz'])]) {
			try { f(); out.missing = 'spawned' } catch (e) { (out.missing ||= []).push([e.message, e.code, e.errno, e.path]) }
		}
		return out
	}`, "{}")
	want := map[string]any{
		"stream":       []any{true, nil, nil, "number", []any{}},
		"text":         ws + "\nhi\n",
		"exited":       []any{0.0, 0.0, nil},
		"killed":       []any{143.0, nil, "SIGTERM", true},
		"sink":         []any{"FileSink", 2.0, 1.0},
		"cat":          []any{"abc", ""},
		"bytesIn":      "BYTES",
		"inheritStdin": 0.0,
		"sync":         []any{"out", "err", 3.0, false, true, []any{"exitCode", "stdout", "stderr", "success", "resourceUsage", "pid"}},
		"syncIn":       "SHOUT",
		"missing": []any{
			[]any{`Executable not found in $PATH: "no-such-binary-xyz"`, "ENOENT", -2.0, "no-such-binary-xyz"},
			[]any{`Executable not found in $PATH: "no-such-binary-xyz"`, "ENOENT", -2.0, "no-such-binary-xyz"}},
	}
	for k, w := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(t, w) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(t, w))
		}
	}
}

// TestBunShell: Bun.$ parses and runs its template as a shell with every
// value one word, answers Bun's shapes and errors, and its own file work
// asks the policy.
func TestBunShell(t *testing.T) {
	ws, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	got := runJSON(t, Options{Directory: ws, Launcher: testLauncher(t)}, `async execute(a) {
		const { $ } = require('bun')
		const out = {}
		const evil = 'x; touch pwned'
		out.oneWord = await $`+"`printf '[%s]' ${evil} ${['a b', 'c']} ${{ raw: '$HOME' }}`"+`.text()
		out.pwned = await Bun.file('pwned').exists()
		out.output = await $`+"`sh -c 'echo o; echo e >&2'`"+`.quiet().then((r) => [r.constructor.name, r.stdout.toString(), r.stderr.toString(), r.exitCode, Object.keys(r)])
		out.error = await $`+"`sh -c 'echo o; echo bad >&2; exit 4'`"+`.quiet().catch((e) => [e.constructor.name, e.name, e.message, e.exitCode, e.stdout.toString(), e.stderr.toString(), e instanceof $.ShellError])
		out.nothrow = (await $`+"`exit 3`"+`.nothrow().quiet()).exitCode
		out.notFound = await $`+"`no-such-cmd-x`"+`.quiet().catch((e) => [e.exitCode, e.stderr.toString()])
		out.lines = []
		for await (const l of $`+"`printf 'one\ntwo\n'`"+`.lines()) out.lines.push(l)
		out.pipe = await $`+"`echo alpha beta | tr a-z A-Z`"+`.text()
		out.json = await $`+"`echo '{\"ok\":true}'`"+`.json()
		out.cwd = [await $`+"`pwd`"+`.cwd('sub').text(), await $`+"`pwd`"+`.text()]
		out.env = await $`+"`echo $MY_VAR`"+`.env({ MY_VAR: 'v', PATH: process.env.PATH }).text()
		out.redirect = await $`+"`echo hi > note.txt && cat note.txt`"+`.text()
		out.denied = await $`+"`echo x > ${a.elsewhere}/f`"+`.nothrow().quiet().then((r) => [r.exitCode, r.stderr.toString()])
		out.escape = ['a', 'a b"c', 'x$y', ''].map($.escape)
		out.braces = $.braces('a{1,2}b')
		out.same = $ === Bun.$
		return out
	}`, mustJSON(t, map[string]string{"elsewhere": elsewhere}))
	want := map[string]any{
		"oneWord":  "[x; touch pwned][a b][c][" + os.Getenv("HOME") + "]",
		"pwned":    false,
		"output":   []any{"ShellOutput", "o\n", "e\n", 0.0, []any{"stdout", "stderr", "exitCode"}},
		"error":    []any{"ShellError", "ShellError", "Failed with exit code 4", 4.0, "o\n", "bad\n", true},
		"nothrow":  3.0,
		"notFound": []any{1.0, "bun: command not found: no-such-cmd-x\n"},
		"lines":    []any{"one", "two"},
		"pipe":     "ALPHA BETA\n",
		"json":     map[string]any{"ok": true},
		"cwd":      []any{filepath.Join(ws, "sub") + "\n", ws + "\n"},
		"env":      "v\n",
		"redirect": "hi\n",
		"denied":   []any{1.0, "open " + elsewhere + "/f: permission denied\n"},
		"escape":   []any{"a", `"a b\"c"`, `"x\$y"`, `""`},
		"braces":   []any{"a1b", "a2b"},
		"same":     true,
	}
	for k, w := range want {
		if g, _ := json.Marshal(got[k]); string(g) != mustJSON(t, w) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(t, w))
		}
	}
}

// TestSpawnOutputBounded: buffered output is capped: exec's maxBuffer
// (1 MiB by default) with Node's errors, and the call's memory limit for
// the forms without one (spawnSync with maxBuffer Infinity,
// Bun.spawnSync, Bun.$).
func TestSpawnOutputBounded(t *testing.T) {
	// One call per form: each call's memory is measured from its own
	// start, so one form's garbage does not count against the next.
	root := project(t, map[string]string{"tools/t.ts": tool(`async execute(a) {
		const cp = require('node:child_process')
		const big = 'head -c 40000000 /dev/zero'
		const caught = (f) => { try { f(); return 'no error' } catch (e) { return e.name + ': ' + e.message } }
		switch (a.form) {
		case 'execSync': try { cp.execSync(big) } catch (e) { return [e.code, e.message, e.stdout.length] }; return 'no error'
		case 'exec': return new Promise((resolve) => cp.exec(big, { encoding: 'buffer' }, (e, so) => resolve([e.code, so.length])))
		case 'spawnSync': return caught(() => cp.spawnSync('sh', ['-c', big], { maxBuffer: Infinity }))
		case 'bunSync': return caught(() => Bun.spawnSync(['sh', '-c', big]))
		case 'shell': return Bun.$` + "`sh -c ${big}`" + `.quiet().then(() => 'no error', (e) => e.message)
		}
	}`)})
	s, _ := loadTools(t, root, Options{Launcher: testLauncher(t), CallMemory: 32 << 20}, "tools/t.ts")
	mustLoad(t, s)
	for _, c := range []struct {
		form string
		want any
	}{
		{"execSync", []any{"ENOBUFS", "spawnSync /bin/sh ENOBUFS", 1048576.0}},
		{"exec", []any{"ERR_CHILD_PROCESS_STDIO_MAXBUFFER", 1048576.0}},
		{"spawnSync", "RangeError: spawnSync sh: the output passed 8 MiB, a quarter of the tool's memory limit of 32 MiB: write it to a file, or read it as a stream (spawn)"},
		{"bunSync", "RangeError: spawnSync sh: the output passed 8 MiB, a quarter of the tool's memory limit of 32 MiB: write it to a file, or read it as a stream (spawn)"},
		{"shell", "Bun.$: the output passed 8 MiB, a quarter of the tool's memory limit of 32 MiB: write it to a file instead"},
	} {
		r := call(t, s, "t", `{"form":"`+c.form+`"}`)
		// Past its cap a form fails with its own error, or, when the
		// collector lags behind the buffers already dropped (a loaded
		// machine), the watchdog stops the call first: both hold the
		// call to its 32 MiB (TestFetchBodyStreams accepts the same).
		if _, capped := c.want.(string); capped && r.IsError && strings.Contains(r.Output, "the tool was stopped: it used more than its memory limit of 32 MiB") {
			continue
		}
		var got any
		if r.IsError || json.Unmarshal([]byte(r.Output), &got) != nil {
			got = r.Output // a string output is printed as it is
		}
		if r.IsError || mustJSON(t, got) != mustJSON(t, c.want) {
			t.Errorf("%s = %+v, want %s", c.form, r, mustJSON(t, c.want))
		}
	}
}

// TestBunShellInterpolation: a value is literal text, never shell syntax:
// one word outside quotes, and inside a quoted word of the template part
// of that word, as Bun 1.4 answers each of these.
func TestBunShellInterpolation(t *testing.T) {
	cases := []struct{ name, script, want string }{
		{"in single quotes", "sh -c 'printf \"<%s>\" a ${\"\"} b'", "<a><b>"},
		{"quotes in single quotes", "sh -c 'printf \"<%s>\" ${'-S \"x y\"'}'", "<-S><x y>"},
		{"in double quotes", "printf \"<%s>\" \"a${'$HOME b'}c\"", "<a$HOME bc>"},
		{"a quote in double quotes", "printf \"<%s>\" \"a${'x\"y'}c\"", `<ax"yc>`},
		{"empty in double quotes", "printf \"<%s>\" \"${''}\"", "<>"},
		{"an apostrophe in single quotes", "printf \"<%s>\" 'a${\"it's\"}b'", "<ait'sb>"},
		{"inside a bare word", "printf \"<%s>\" a${'b c'}d", "<ab cd>"},
		{"an array in single quotes", "sh -c 'printf \"<%s>\" ${['p q', 'r']}'", "<p><q><r>"},
		{"after an escaped quote", "printf \"<%s>\" \\'${'z w'}", "<'z w>"},
		{"empty, bare", "printf \"<%s>\" a ${''} b", "<a><><b>"},
		{"an array, bare", "printf \"<%s>\" ${['p q', 'r']}", "<p q><r>"},
		{"an empty array", "printf \"<%s>\" x ${[]} y", "<x><y>"},
		{"an array in double quotes", "printf \"<%s>\" \"${['p q', 'r']}\"", "<p q r>"},
		{"a backslash in single quotes", "printf \"<%s>\" '${'a\\\\b'}'", `<a\b>`},
		{"a backslash in double quotes", "printf \"<%s>\" \"${'a\\\\b'}\"", `<a\b>`},
		{"backquotes in double quotes", "printf \"<%s>\" \"${'`x`'}\"", "<`x`>"},
	}
	files := map[string]string{}
	var paths []string
	for i, c := range cases {
		p := "tools/s" + strconv.Itoa(100+i) + ".ts"
		files[p] = tool("async execute() { return await Bun.$`" + strings.ReplaceAll(c.script, "`x`", "\\`x\\`") + "`.text() }")
		paths = append(paths, p)
	}
	s, _ := loadTools(t, project(t, files), Options{Launcher: testLauncher(t)}, paths...)
	mustLoad(t, s)
	for i, c := range cases {
		if r := call(t, s, "s"+strconv.Itoa(100+i), "{}"); r.IsError || r.Output != c.want {
			t.Errorf("%s: %s = %+v, want %s", c.name, c.script, r, c.want)
		}
	}
}
