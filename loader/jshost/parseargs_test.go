package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func TestOptionalExports(t *testing.T) {
	cases := []struct {
		name, src  string
		want       string // load failure; "" loads
		concurrent bool
		maxChars   int
		parse      bool
	}{
		{name: "plain", src: tool("execute() {}"), concurrent: true},
		{name: "fields", src: tool("concurrent: false, maxResultChars: 100, parseArgs(a) { return a }, execute() {}"), maxChars: 100, parse: true},
		{name: "named", src: "export const concurrent = false\nexport const maxResultChars = 7\nexport async function parseArgs() {}\n" + tool("execute() {}"), maxChars: 7, parse: true},
		{name: "nulls", src: tool("concurrent: null, maxResultChars: undefined, parseArgs: null, execute() {}"), concurrent: true},
		{name: "badparse", src: tool("parseArgs: 'x', execute() {}"), want: "parseArgs must be a function: parseArgs(args, context) returns the arguments to use, or nothing to keep them"},
		{name: "namedbadparse", src: "export const parseArgs = 3\n" + tool("execute() {}"), want: "parseArgs must be a function: parseArgs(args, context) returns the arguments to use, or nothing to keep them"},
		{name: "badconcurrent", src: tool("concurrent: 'no', execute() {}"), want: "concurrent must be true or false: false makes the tool a barrier in batch calls"},
		{name: "zeroconcurrent", src: tool("concurrent: 0, execute() {}"), want: "concurrent must be true or false: false makes the tool a barrier in batch calls"},
		{name: "fraction", src: tool("maxResultChars: 1.5, execute() {}"), want: "maxResultChars must be a positive whole number of characters"},
		{name: "zero", src: tool("maxResultChars: 0, execute() {}"), want: "maxResultChars must be a positive whole number of characters"},
		{name: "negative", src: tool("maxResultChars: -3, execute() {}"), want: "maxResultChars must be a positive whole number of characters"},
		{name: "string", src: tool("maxResultChars: '10', execute() {}"), want: "maxResultChars must be a positive whole number of characters"},
		{name: "infinite", src: tool("maxResultChars: Infinity, execute() {}"), want: "maxResultChars must be a positive whole number of characters"},
	}
	files := map[string]string{}
	var paths []string
	for _, c := range cases {
		files["tools/"+c.name+".ts"] = c.src
		paths = append(paths, "tools/"+c.name+".ts")
	}
	s, _ := loadTools(t, project(t, files), Options{}, paths...)
	fails := map[string]string{}
	for _, f := range s.Failures() {
		fails[f.Name] = f.Reason
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.want != "" {
				if fails[c.name] != c.want {
					t.Fatalf("reason = %q, want %q", fails[c.name], c.want)
				}
				return
			}
			tl, ok := s.Tool(c.name)
			if !ok {
				t.Fatalf("did not load: %s", fails[c.name])
			}
			if tl.Concurrent != c.concurrent || tl.MaxResultChars != c.maxChars || tl.HasParseArgs != c.parse {
				t.Fatalf("tool = concurrent %v, maxResultChars %d, parseArgs %v; want %v %d %v",
					tl.Concurrent, tl.MaxResultChars, tl.HasParseArgs, c.concurrent, c.maxChars, c.parse)
			}
		})
	}
}

// hooks records what the Go side of the argument pipeline saw.
type hooks struct {
	mu        sync.Mutex
	checked   []string
	normalize func(json.RawMessage) (json.RawMessage, error)
	check     func(json.RawMessage) error
}

func (h *hooks) Normalize(a json.RawMessage) (json.RawMessage, error) {
	if h.normalize != nil {
		return h.normalize(a)
	}
	return a, nil
}

func (h *hooks) ParseArgsFailed(problem string) error { return errors.New("rejected: " + problem) }

func (h *hooks) Check(a json.RawMessage) error {
	h.mu.Lock()
	h.checked = append(h.checked, string(a))
	h.mu.Unlock()
	if h.check != nil {
		return h.check(a)
	}
	return nil
}

func callWith(tb testing.TB, s *Set, name, args string, h ArgsHooks) Result {
	tb.Helper()
	r, err := s.CallWith(tb.Context(), name, json.RawMessage(args), CallContext{SessionID: "s1", Agent: "a"}, CallOptions{Args: h})
	if err != nil {
		tb.Fatalf("call %s: %v", name, err)
	}
	return r
}

func TestParseArgs(t *testing.T) {
	// Each tool's execute returns what it got, and writes a file when it
	// runs, so a test sees that a rejected call did not run it.
	exec := func(name string) string {
		return `execute(a, c) { require('node:fs').writeFileSync(c.directory + '/ran-` + name + `', ''); return JSON.stringify(a) }`
	}
	files := map[string]string{
		"tools/coerce.ts":    tool(`parseArgs(a) { return { order_id: Number(a.order_id) } }, ` + exec("coerce")),
		"tools/keep.ts":      tool(`parseArgs(a) { a.changed = true }, ` + exec("keep")),
		"tools/array.ts":     tool(`parseArgs() { return [] }, ` + exec("array")),
		"tools/str.ts":       tool(`parseArgs() { return 'x' }, ` + exec("str")),
		"tools/nul.ts":       tool(`parseArgs() { return null }, ` + exec("nul")),
		"tools/num.ts":       tool(`parseArgs() { return 4 }, ` + exec("num")),
		"tools/date.ts":      tool(`parseArgs() { return new Date(0) }, ` + exec("date")),
		"tools/throws.ts":    tool(`parseArgs() { throw new Error('bad id') }, ` + exec("throws")),
		"tools/rejects.ts":   tool(`async parseArgs() { await null; throw new Error('bad later') }, ` + exec("rejects")),
		"tools/async.ts":     tool(`async parseArgs(a) { await new Promise((r) => setTimeout(r, 5)); return { n: a.n + 1 } }, ` + exec("async")),
		"tools/ctx.ts":       tool(`parseArgs(a, c) { return { who: c.agent + '/' + c.sessionId } }, ` + exec("ctx")),
		"tools/cyclic.ts":    tool(`parseArgs() { const o = {}; o.o = o; return o }, ` + exec("cyclic")),
		"tools/endless.ts":   tool(`timeout: 200, parseArgs() { for (;;) {} }, ` + exec("endless")),
		"tools/never.ts":     tool(`timeout: 200, parseArgs() { return new Promise(() => {}) }, ` + exec("never")),
		"tools/noparse.ts":   tool(exec("noparse")),
		"tools/named.ts":     "export function parseArgs(a) { return { named: a.x } }\n" + tool(exec("named")),
		"tools/nullproto.ts": tool(`parseArgs() { const o = Object.create(null); o.k = 1; return o }, ` + exec("nullproto")),
	}
	root := project(t, files)
	var paths []string
	for p := range files {
		paths = append(paths, p)
	}
	s, _ := loadTools(t, root, Options{Directory: root}, paths...)
	mustLoad(t, s)
	ran := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, "ran-"+name))
		return err == nil
	}
	cases := []struct {
		tool, args string
		out        string // the output, or the rejection
		kind       ErrorKind
		checked    string // what Check saw; "" when it was not called
	}{
		{tool: "coerce", args: `{"order_id":"42"}`, out: `{"order_id":42}`, checked: `{"order_id":42}`},
		{tool: "keep", args: `{"a":1}`, out: `{"a":1}`, checked: `{"a":1}`},
		{tool: "array", args: `{}`, out: "rejected: parseArgs returned array, not an object: return the arguments object, or nothing to keep them", kind: InvalidArgs},
		{tool: "str", args: `{}`, out: "rejected: parseArgs returned string, not an object: return the arguments object, or nothing to keep them", kind: InvalidArgs},
		{tool: "nul", args: `{}`, out: "rejected: parseArgs returned null, not an object: return the arguments object, or nothing to keep them", kind: InvalidArgs},
		{tool: "num", args: `{}`, out: "rejected: parseArgs returned number, not an object: return the arguments object, or nothing to keep them", kind: InvalidArgs},
		{tool: "date", args: `{}`, out: "rejected: parseArgs returned a Date, not an object: return the arguments object, or nothing to keep them", kind: InvalidArgs},
		{tool: "throws", args: `{}`, out: "rejected: bad id", kind: InvalidArgs},
		{tool: "rejects", args: `{}`, out: "rejected: bad later", kind: InvalidArgs},
		{tool: "async", args: `{"n":1}`, out: `{"n":2}`, checked: `{"n":2}`},
		{tool: "ctx", args: `{}`, out: `{"who":"a/s1"}`, checked: `{"who":"a/s1"}`},
		{tool: "cyclic", args: `{}`, out: "rejected: Converting circular structure to JSON", kind: InvalidArgs},
		{tool: "endless", args: `{}`, out: "tool endless timed out after 200ms: make it faster, or export a larger `timeout` (in milliseconds)", kind: TimedOut},
		{tool: "never", args: `{}`, out: "tool never timed out after 200ms: make it faster, or export a larger `timeout` (in milliseconds)", kind: TimedOut},
		{tool: "noparse", args: `{"x":1}`, out: `{"x":1}`, checked: `{"x":1}`},
		{tool: "named", args: `{"x":1}`, out: `{"named":1}`, checked: `{"named":1}`},
		{tool: "nullproto", args: `{}`, out: `{"k":1}`, checked: `{"k":1}`},
	}
	for _, c := range cases {
		t.Run(c.tool, func(t *testing.T) {
			h := &hooks{}
			r := callWith(t, s, c.tool, c.args, h)
			if !strings.HasPrefix(r.Output, c.out) || r.Kind != c.kind || r.IsError != (c.kind != NoError) {
				t.Fatalf("answer = %+v, want %q (kind %d)", r, c.out, c.kind)
			}
			if c.kind == InvalidArgs && (r.Rejected == nil || r.Rejected.Error() != r.Output) {
				t.Fatalf("Rejected = %v, want the error whose text is the output", r.Rejected)
			}
			if got := strings.Join(h.checked, ","); got != c.checked {
				t.Fatalf("Check saw %q, want %q", got, c.checked)
			}
			if ran(c.tool) != (c.kind == NoError) {
				t.Fatalf("execute ran: %v, want %v", ran(c.tool), c.kind == NoError)
			}
		})
	}
	// Without hooks parseArgs still runs and its failure is its own text.
	if r := call(t, s, "throws", "{}"); r.Output != "bad id" || r.Kind != InvalidArgs {
		t.Fatalf("throws without hooks = %+v", r)
	}
	if r := call(t, s, "coerce", `{"order_id":"7"}`); r.Output != `{"order_id":7}` {
		t.Fatalf("coerce without hooks = %+v", r)
	}
}

func TestArgsHooks(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/echo.ts":  tool("execute(a) { return JSON.stringify(a) }"),
		"tools/parse.ts": tool("parseArgs(a) { return { ...a, parsed: true } }, execute(a) { return JSON.stringify(a) }"),
		"tools/slow.ts":  tool("timeout: 1, execute(a) { return 'ran' }"),
	}), Options{}, "tools/echo.ts", "tools/parse.ts", "tools/slow.ts")
	mustLoad(t, s)

	// Normalize's arguments are what the module gets; its error rejects.
	h := &hooks{normalize: func(json.RawMessage) (json.RawMessage, error) { return json.RawMessage(`{"n":1}`), nil }}
	if r := callWith(t, s, "parse", `{"n":null}`, h); r.Output != `{"n":1,"parsed":true}` || h.checked[0] != `{"n":1,"parsed":true}` {
		t.Fatalf("normalized = %+v, checked %q", r, h.checked)
	}
	bad := errors.New("normalize says no")
	h = &hooks{normalize: func(json.RawMessage) (json.RawMessage, error) { return nil, bad }}
	for _, name := range []string{"echo", "parse"} {
		if r := callWith(t, s, name, `{}`, h); r.Output != bad.Error() || !errors.Is(r.Rejected, bad) || r.Kind != InvalidArgs || len(h.checked) != 0 {
			t.Fatalf("%s normalize rejection = %+v (checked %q)", name, r, h.checked)
		}
	}
	// Check's error rejects, with or without parseArgs.
	h = &hooks{check: func(json.RawMessage) error { return bad }}
	for _, name := range []string{"echo", "parse"} {
		if r := callWith(t, s, name, `{}`, h); !errors.Is(r.Rejected, bad) || r.Kind != InvalidArgs {
			t.Fatalf("%s check rejection = %+v", name, r)
		}
	}
	// The steps count against the call's deadline: a 1 ms tool whose
	// arguments take longer to check answers the timeout.
	h = &hooks{check: func(json.RawMessage) error { time.Sleep(20 * time.Millisecond); return nil }}
	if r := callWith(t, s, "slow", `{}`, h); r.Kind != TimedOut || r.Output != "tool slow timed out after 1ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Fatalf("slow check = %+v", r)
	}
}

func TestErrorKinds(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/boom.ts": tool("execute() { throw new Error('boom') }"),
		"tools/wait.ts": tool("timeout: 100, execute() { return new Promise(() => {}) }"),
		"tools/ok.ts":   tool("execute() { return 'ok' }"),
	}), Options{}, "tools/boom.ts", "tools/wait.ts", "tools/ok.ts")
	mustLoad(t, s)
	if r := call(t, s, "ok", "{}"); r.Kind != NoError || r.IsError {
		t.Fatalf("ok = %+v", r)
	}
	if r := call(t, s, "boom", "{}"); r.Kind != Thrown {
		t.Fatalf("boom = %+v", r)
	}
	if r := call(t, s, "wait", "{}"); r.Kind != TimedOut {
		t.Fatalf("wait = %+v", r)
	}
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	if r, _ := s.Call(ctx, "wait", nil, CallContext{}); r.Kind != Canceled {
		t.Fatalf("wait canceled = %+v", r)
	}
}

func TestMaxResultChars(t *testing.T) {
	tmp := t.TempDir()
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/short.ts": tool("maxResultChars: 10, execute() { return 'ünïcödé!!!' }"),
		"tools/long.ts":  tool("maxResultChars: 10, execute() { return 'ab\\ncdéfghijklmnop' }"),
		"tools/line.ts":  tool("maxResultChars: 5, execute() { return 'ééééééééé' }"),
		"tools/err.ts":   tool("maxResultChars: 5, execute() { throw new Error('a long error message') }"),
	}), Options{TempDir: tmp}, "tools/short.ts", "tools/long.ts", "tools/line.ts", "tools/err.ts")
	mustLoad(t, s)
	if r := call(t, s, "short", "{}"); r.Spilled != nil || r.Output != "ünïcödé!!!" {
		t.Fatalf("10 characters (more bytes) = %+v", r)
	}
	for name, head := range map[string]string{"long": "ab", "line": "ééééé"} {
		r := call(t, s, name, "{}")
		if r.Spilled == nil {
			t.Fatalf("%s not spilled: %q", name, r.Output)
		}
		got, notice, _ := strings.Cut(r.Output, "\n[output truncated: ")
		if got != head || !strings.Contains(notice, r.Spilled.Path) || utf8.RuneCountInString(got) > 10 {
			t.Fatalf("%s head %q notice %q", name, got, notice)
		}
		whole, err := os.ReadFile(r.Spilled.Path)
		if err != nil || !strings.HasPrefix(string(whole), head) || int64(len(whole)) != r.Spilled.Bytes {
			t.Fatalf("%s whole output: %q %v", name, whole, err)
		}
	}
	// Errors are the model's to read whole.
	if r := call(t, s, "err", "{}"); r.Output != "a long error message" || r.Spilled != nil {
		t.Fatalf("err = %+v", r)
	}
}

func TestCharsEnd(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want int
	}{{"abc", 0, 3}, {"abc", 5, 3}, {"abc", 2, 2}, {"éé", 1, 2}, {"éé", 2, 4}, {"aé", 1, 1}} {
		if got := charsEnd(c.s, c.n); got != c.want {
			t.Errorf("charsEnd(%q, %d) = %d, want %d", c.s, c.n, got, c.want)
		}
	}
}
