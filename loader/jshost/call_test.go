package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func tool(exec string) string {
	return "export default { description: 'd', parameters: { type: 'object' }, " + exec + " }\n"
}

func TestOutputRules(t *testing.T) {
	cases := []struct {
		name, exec, want string
		isErr            bool
	}{
		{"str", "execute() { return 'plain' }", "plain", false},
		{"obj", "execute() { return { a: 1, b: [true, null] } }", "{\n  \"a\": 1,\n  \"b\": [\n    true,\n    null\n  ]\n}", false},
		{"num", "execute() { return 42 }", "42", false},
		{"undef", "execute() {}", "", false},
		{"asyncstr", "async execute(a) { await null; return 'x' + a.n }", "x7", false},
		{"asyncobj", "async execute() { return await Promise.resolve([1]) }", "[\n  1\n]", false},
		{"throwerr", "execute() { throw new Error('orders API answered 503') }", "orders API answered 503", true},
		{"throwtype", "execute(a) { return a.missing.x }", "Cannot read property 'x' of undefined", true},
		{"throwstr", "execute() { throw 'plain string' }", "plain string", true},
		{"thrownum", "execute() { throw 7 }", "7", true},
		{"throwobj", "execute() { throw { code: 'E1' } }", `{"code":"E1"}`, true},
		{"reject", "async execute() { throw new RangeError('too far') }", "too far", true},
		{"rejectstr", "execute() { return Promise.reject('nope') }", "nope", true},
		{"cyclic", "execute() { const a = {}; a.a = a; return a }", "circular", true},
		{"args", "execute(a, c) { return [a.n, c.sessionId, c.agent, c.env.K, typeof c.signal.aborted, c.directory !== ''].join(',') }", "7,s1,beeuni,v,boolean,true", false},
	}
	files := map[string]string{}
	var paths []string
	for _, c := range cases {
		files["tools/"+c.name+".ts"] = tool(c.exec)
		paths = append(paths, "tools/"+c.name+".ts")
	}
	s, _ := loadTools(t, project(t, files), Options{}, paths...)
	mustLoad(t, s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, s, c.name, `{"n":7}`)
			if r.IsError != c.isErr || !strings.Contains(r.Output, c.want) || (c.want == "" && r.Output != "") {
				t.Fatalf("got %+v, want isErr=%v output %q", r, c.isErr, c.want)
			}
			if !c.isErr && r.Output != c.want {
				t.Fatalf("output = %q, want %q", r.Output, c.want)
			}
			// The runtime is reused after a thrown error.
			r2 := call(t, s, c.name, `{"n":7}`)
			if r2.IsError != c.isErr {
				t.Fatalf("second call %+v", r2)
			}
		})
	}
}

func TestCallErrors(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/a.ts": tool("execute() { return 'a' }")}), Options{}, "tools/a.ts")
	if _, err := s.Call(t.Context(), "nope", nil, CallContext{}); !errors.Is(err, ErrNotLoaded) {
		t.Fatalf("unknown tool err = %v", err)
	}
	for _, bad := range []string{"{", "[1]", `"s"`} {
		if _, err := s.Call(t.Context(), "a", json.RawMessage(bad), CallContext{}); err == nil {
			t.Fatalf("args %s accepted", bad)
		}
	}
	if r, err := s.Call(t.Context(), "a", nil, CallContext{}); err != nil || r.Output != "a" {
		t.Fatalf("empty args: %+v %v", r, err)
	}
}

func TestSpill(t *testing.T) {
	cases := []struct {
		name, exec   string
		spill        bool
		bytes, lines int
		size         string // as the notice says it
	}{
		{"fitbytes", "execute() { return 'x'.repeat(51200) }", false, 51200, 1, ""},
		{"overbytes", "execute() { return ('y'.repeat(99) + '\\n').repeat(600) }", true, 60000, 600, "60000 bytes, 600 lines"},
		{"fitlines", "execute() { return 'l\\n'.repeat(2000) }", false, 4000, 2000, ""},
		{"overlines", "execute() { return 'l\\n'.repeat(2001) }", true, 4002, 2001, "4002 bytes, 2001 lines"},
		{"oneline", "execute() { return 'z'.repeat(51201) }", true, 51201, 1, "51201 bytes, 1 line"},
	}
	files := map[string]string{}
	var paths []string
	for _, c := range cases {
		files["tools/"+c.name+".ts"] = tool(c.exec)
		paths = append(paths, "tools/"+c.name+".ts")
	}
	tmp := t.TempDir()
	s, _ := loadTools(t, project(t, files), Options{TempDir: tmp}, paths...)
	mustLoad(t, s)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := call(t, s, c.name, "{}")
			if !c.spill {
				if r.Spilled != nil || len(r.Output) != c.bytes {
					t.Fatalf("spilled %+v, len %d", r.Spilled, len(r.Output))
				}
				return
			}
			if r.Spilled == nil {
				t.Fatalf("not spilled: %d bytes", len(r.Output))
			}
			if r.Spilled.Bytes != int64(c.bytes) || r.Spilled.Lines != c.lines || filepath.Dir(r.Spilled.Path) != filepath.Join(tmp, "beeuni-output") {
				t.Fatalf("spill = %+v", r.Spilled)
			}
			whole, err := os.ReadFile(r.Spilled.Path)
			if err != nil || len(whole) != c.bytes {
				t.Fatalf("file: %d bytes, %v", len(whole), err)
			}
			if len(r.Output) > MaxOutputBytes || countLines(r.Output) > MaxOutputLines {
				t.Fatalf("head too big: %d bytes %d lines", len(r.Output), countLines(r.Output))
			}
			head, notice, _ := strings.Cut(r.Output, "\n[output truncated: ")
			if !strings.HasPrefix(string(whole), head) || notice != c.size+" in all; the whole output is in "+r.Spilled.Path+"]" {
				t.Fatalf("notice = %q", notice)
			}
			if c.lines > 1 && !strings.HasSuffix(head, strings.Split(string(whole), "\n")[countLines(head)-1]) {
				t.Fatalf("head not cut at a line boundary")
			}
		})
	}
}

func TestDeadlines(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/spin.ts":    tool("timeout: 100, execute() { for (;;) {} }"),
		"tools/never.ts":   tool("timeout: 100, execute() { return new Promise(() => {}) }"),
		"tools/deep.ts":    tool("execute() { const f = (n) => f(n + 1) + 1; return f(0) }"),
		"tools/deepmap.ts": tool("execute() { const f = () => [1].map(f); return f() }"),
		"tools/sees.ts": tool(`execute(a, c) {
			return new Promise((resolve) => c.signal.addEventListener('abort', () => resolve('aborted: ' + c.signal.reason.name)))
		}`),
		"tools/ok.ts": tool("execute() { return 'fine' }"),
	}), Options{}, "tools/spin.ts", "tools/never.ts", "tools/deep.ts", "tools/deepmap.ts", "tools/sees.ts", "tools/ok.ts")
	mustLoad(t, s)
	for _, name := range []string{"spin", "never"} {
		start := time.Now()
		r := call(t, s, name, "{}")
		if !r.IsError || r.Output != "tool "+name+" timed out after 100ms: make it faster, or export a larger `timeout` (in milliseconds)" {
			t.Fatalf("%s = %+v", name, r)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("%s took %v", name, d)
		}
		// A fresh runtime serves the next call.
		if r := call(t, s, "ok", "{}"); r.Output != "fine" {
			t.Fatalf("ok after %s = %+v", name, r)
		}
	}
	for _, name := range []string{"deep", "deepmap"} {
		r := call(t, s, name, "{}")
		if !r.IsError || !strings.Contains(r.Output, "Maximum call stack size exceeded") {
			t.Fatalf("%s = %+v", name, r)
		}
	}
	// A spinning call the caller gives up on is interrupted and canceled.
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(30*time.Millisecond, cancel)
	s2, _ := loadTools(t, project(t, map[string]string{"tools/spin.ts": tool("execute() { for (;;) {} }")}), Options{}, "tools/spin.ts")
	if r, _ := s2.Call(ctx, "spin", nil, CallContext{}); !r.IsError || r.Output != "tool spin was canceled before it finished" {
		t.Fatalf("spin (cancel) = %+v", r)
	}
}

// TestPastDeadline: a call past its deadline answers that it timed out and
// after how long, whatever the module does once context.signal aborts
// (returns, throws the AbortError, throws its own error, or simply
// finishes late); a caller that goes away gets "canceled". The runtime is
// kept (PoolSize 1), and what the module saw of its signal is read back.
func TestPastDeadline(t *testing.T) {
	onAbort := func(then string) string {
		return `async execute(a, c) {
			if (a.read) return globalThis.saw
			return await new Promise((resolve, reject) => c.signal.addEventListener('abort', () => {
				globalThis.saw = c.signal.reason.name
				` + then + `
			}))
		}`
	}
	files := map[string]string{
		"tools/returns.ts":   "export const timeout = 100\n" + tool(onAbort("resolve('aborted, but here is a result')")),
		"tools/aborterr.ts":  "export const timeout = 100\n" + tool(onAbort("reject(c.signal.reason)")),
		"tools/ownerr.ts":    "export const timeout = 100\n" + tool(onAbort("reject(new Error('my own words'))")),
		"tools/undefined.ts": "export const timeout = 100\n" + tool(onAbort("resolve()")),
		"tools/synclate.ts":  tool("timeout: 50, execute(a) { if (a.read) return 'ok'; const end = Date.now() + 120; while (Date.now() < end) {} return 'late' }"),
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	s, _ := loadTools(t, project(t, files), Options{PoolSize: 1}, paths...)
	mustLoad(t, s)
	timedOut := func(name, d string) string {
		return "tool " + name + " timed out after " + d + ": make it faster, or export a larger `timeout` (in milliseconds)"
	}
	cases := []struct {
		name   string
		cancel bool // the caller goes away instead
		want   string
		saw    string
	}{
		{"returns", false, timedOut("returns", "100ms"), "TimeoutError"},
		{"aborterr", false, timedOut("aborterr", "100ms"), "TimeoutError"},
		{"ownerr", false, timedOut("ownerr", "100ms"), "TimeoutError"},
		{"undefined", false, timedOut("undefined", "100ms"), "TimeoutError"},
		{"synclate", false, timedOut("synclate", "50ms"), ""},
		{"returns", true, "tool returns was canceled before it finished", "AbortError"},
		{"aborterr", true, "tool aborterr was canceled before it finished", "AbortError"},
	}
	for _, c := range cases {
		ctx, cancel := context.WithCancel(t.Context())
		if c.cancel {
			time.AfterFunc(20*time.Millisecond, cancel)
		}
		r, err := s.Call(ctx, c.name, nil, CallContext{})
		cancel()
		if err != nil || !r.IsError || r.Output != c.want {
			t.Errorf("%s (cancel %v) = %+v %v; want %q", c.name, c.cancel, r, err, c.want)
			continue
		}
		if c.saw == "" {
			continue
		}
		if r := call(t, s, c.name, `{"read":true}`); r.Output != c.saw {
			t.Errorf("%s: the module saw its signal abort with %q, want %q", c.name, r.Output, c.saw)
		}
	}
}

// TestTimeoutExport: a module's timeout is its named export or its default
// export's field; a bad one fails the load saying what it is.
func TestTimeoutExport(t *testing.T) {
	spin := "execute() { for (;;) {} }"
	files := map[string]string{
		"tools/named.ts":    "export const timeout = 120\n" + tool(spin),
		"tools/field.ts":    tool("timeout: 130, " + spin),
		"tools/both.ts":     "export const timeout = 140\n" + tool("timeout: 9000, "+spin),
		"tools/cjs.ts":      "module.exports = { description: 'd', parameters: { type: 'object' }, timeout: 150, " + spin + " }\n",
		"tools/none.ts":     tool(spin),
		"tools/badnamed.ts": "export const timeout = '1500'\n" + tool(spin),
		"tools/badfield.ts": tool("timeout: -5, " + spin),
	}
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	s, _ := loadTools(t, project(t, files), Options{DefaultTimeout: 7 * time.Second}, paths...)
	want := map[string]time.Duration{"named": 120 * time.Millisecond, "field": 130 * time.Millisecond, "both": 140 * time.Millisecond, "cjs": 150 * time.Millisecond, "none": 7 * time.Second}
	for name, d := range want {
		tl, ok := s.Tool(name)
		if !ok || tl.Timeout != d {
			t.Errorf("%s: timeout %v (loaded %v), want %v", name, tl.Timeout, ok, d)
		}
	}
	if r := call(t, s, "named", "{}"); r.Output != "tool named timed out after 120ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Errorf("named = %+v", r)
	}
	fails := map[string]string{}
	for _, f := range s.Failures() {
		fails[f.Name] = f.Reason
	}
	for name, reason := range map[string]string{
		"badnamed": `timeout must be a positive number of milliseconds, not a string ("1500")`,
		"badfield": "timeout must be a positive number of milliseconds, not a number (-5)",
	} {
		if fails[name] != reason {
			t.Errorf("%s: %q, want %q", name, fails[name], reason)
		}
	}
}

func TestConcurrentCalls(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/sync.ts":  tool("execute(a) { let x = 0; for (let i = 0; i < 1000; i++) x += i; return a.i + ':' + x }"),
		"tools/async.ts": tool("async execute(a) { await new Promise((r) => setTimeout(r, 1)); return { i: a.i } }"),
	}), Options{PoolSize: 4}, "tools/sync.ts", "tools/async.ts")
	mustLoad(t, s)
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			name, want := "sync", fmt.Sprintf("%d:499500", i)
			if i%2 == 1 {
				name, want = "async", fmt.Sprintf("{\n  \"i\": %d\n}", i)
			}
			r, err := s.Call(t.Context(), name, json.RawMessage(fmt.Sprintf(`{"i":%d}`, i)), CallContext{})
			if err != nil || r.Output != want {
				errs <- fmt.Sprintf("%s %d: %+v %v", name, i, r, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestHeapWatchdog(t *testing.T) {
	s, logs := loadTools(t, project(t, map[string]string{
		"tools/hog.ts": tool("timeout: 60000, execute() { const a = []; const s = 'x'.repeat(4096); for (;;) a.push(s + a.length) }"),
		"tools/ok.ts":  tool("execute() { return 'fine' }"),
	}), Options{CallMemory: 64 << 20}, "tools/hog.ts", "tools/ok.ts")
	mustLoad(t, s)
	done := make(chan Result, 1)
	go func() {
		r, _ := s.Call(t.Context(), "hog", nil, CallContext{})
		done <- r
	}()
	var r Result
	for waiting := true; waiting; {
		select {
		case r = <-done:
			waiting = false
		default:
			if ok := call(t, s, "ok", "{}"); ok.Output != "fine" {
				t.Fatalf("ok while hog runs = %+v", ok)
			}
		}
	}
	if !r.IsError || !strings.Contains(r.Output, "more than its memory limit of 64 MiB") {
		t.Fatalf("hog = %+v", r)
	}
	if !strings.Contains(logs.String(), "memory over the limit") {
		t.Fatalf("no watchdog log: %s", logs.String())
	}
	if ok := call(t, s, "ok", "{}"); ok.Output != "fine" {
		t.Fatalf("ok after hog = %+v", ok)
	}
}

func TestCallArgs(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/echo.ts": tool("execute(a) { return a }")}), Options{}, "tools/echo.ts")
	mustLoad(t, s)
	cases := []struct{ args, want, wantErr string }{
		{``, "{}", ""},
		{` {"a": [1, "x"]} `, "{\n  \"a\": [\n    1,\n    \"x\"\n  ]\n}", ""},
		{"\n\t{}", "{}", ""},
		{`[1]`, "", "call tool echo: arguments must be a JSON object"},
		{`"x"`, "", "call tool echo: arguments must be a JSON object"},
		{` null`, "", "call tool echo: arguments must be a JSON object"},
		{`{"a":`, "", "call tool echo: arguments are not JSON: unexpected end of JSON input"},
		{`{} {}`, "", "call tool echo: arguments are not JSON: invalid character '{' after top-level value"},
	}
	for _, c := range cases {
		r, err := s.Call(t.Context(), "echo", json.RawMessage(c.args), CallContext{})
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("args %q: err = %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil || r.Output != c.want {
			t.Errorf("args %q = %+v %v, want %q", c.args, r, err, c.want)
		}
	}
}
