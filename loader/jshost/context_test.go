package jshost

import (
	"context"
	"encoding/json"
	"testing"
	"time"
)

// context.env and context.signal are made on first read; a module must not
// be able to tell: they behave as the plain data properties they were.
func TestCallContextProperties(t *testing.T) {
	cases := []struct{ name, exec, want string }{
		{"envget", "execute(a, c) { return c.env.K + ',' + c.env.A + ',' + c.env.MISSING }", "v,b,undefined"},
		{"envkeys", "execute(a, c) { return Object.keys(c.env).sort().join(',') }", "A,K"},
		{"envin", "execute(a, c) { return ['K' in c.env, 'Z' in c.env, c.env.hasOwnProperty('A')].join(',') }", "true,false,true"},
		{"envspread", "execute(a, c) { const e = { ...c.env }; return e.K + Object.keys(e).length }", "v2"},
		{"envjson", "execute(a, c) { const e = JSON.parse(JSON.stringify(c.env)); return e.A + e.K }", "bv"},
		{"enventries", "execute(a, c) { return Object.entries(c.env).map(([k, v]) => k + '=' + v).sort().join('&') }", "A=b&K=v"},
		{"envsame", "execute(a, c) { return String(c.env === c.env && c.signal === c.signal) }", "true"},
		{"envproto", "execute(a, c) { return String(Object.getPrototypeOf(c.env) === Object.prototype) }", "true"},
		{"envwrite", "execute(a, c) { c.env.K = 'w'; c.env.NEW = 1; return c.env.K + c.env.NEW }", "w1"},
		{"envreplace", "execute(a, c) { c.env = { X: 'y' }; return c.env.X + Object.keys(c.env).length }", "y1"},
		{"envdelete", "execute(a, c) { delete c.env.K; return String('K' in c.env) }", "false"},
		{"envfreeze", "execute(a, c) { Object.freeze(c.env); try { c.env.K = 'x' } catch {} return c.env.K + Object.isFrozen(c.env) }", "vtrue"},
		{"ctxkeys", "execute(a, c) { return Object.keys(c).join(',') }", "sessionId,agent,directory,env,signal"},
		{"ctxdestructure", "execute(a, { env, signal, agent }) { return env.K + typeof signal.aborted + agent }", "vbooleanbeeuni"},
		{"ctxdescriptor", "execute(a, c) { c.env; c.signal; const d = Object.getOwnPropertyDescriptor(c, 'env'); const s = Object.getOwnPropertyDescriptor(c, 'signal'); return [typeof d.value, d.writable, d.enumerable, typeof s.value, s.writable].join(',') }", "object,true,true,object,true"},
		{"ctxjson", "execute(a, c) { const o = JSON.parse(JSON.stringify(c)); return o.env.K + o.agent + typeof o.signal }", "vbeeuniobject"},
		{"ctxfrozen", "execute(a, c) { Object.freeze(c); return c.env.K + String(c.env === c.env) + c.signal.aborted }", "vtruefalse"},
		{"signalfresh", "execute(a, c) { const s = c.signal; return [s.aborted, s.reason, typeof s.addEventListener].join(',') }", "false,,function"},
		{"signalreplace", "execute(a, c) { c.signal = 5; return String(c.signal) }", "5"},
	}
	files := map[string]string{}
	var paths []string
	for _, c := range cases {
		files["tools/"+c.name+".ts"] = tool(c.exec)
		paths = append(paths, "tools/"+c.name+".ts")
	}
	s, _ := loadTools(t, project(t, files), Options{PoolSize: 1}, paths...)
	mustLoad(t, s)
	env := map[string]string{"K": "v", "A": "b"}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for i := range 2 { // the second call runs on the reused runtime
				r, err := s.Call(t.Context(), c.name, nil, CallContext{SessionID: "s1", Agent: "beeuni", Env: env})
				if err != nil || r.IsError || r.Output != c.want {
					t.Fatalf("call %d = %+v, %v; want %q", i+1, r, err, c.want)
				}
			}
		})
	}
	// Writes stay in their call: the Go map and the next call are untouched.
	if env["K"] != "v" || len(env) != 2 {
		t.Fatalf("the caller's env changed: %v", env)
	}
}

// A context kept past its call still answers env and signal.
func TestCallContextKeptPastCall(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/both.ts": tool("execute(a, c) { if (a.keep) { globalThis.kept = c; return 'kept' } return globalThis.kept.env.K + ',' + globalThis.kept.signal.aborted + ',' + c.env.K }"),
	}), Options{PoolSize: 1}, "tools/both.ts")
	mustLoad(t, s)
	for _, step := range []struct{ args, env, want string }{
		{`{"keep":true}`, "first", "kept"},
		{`{}`, "second", "first,false,second"},
	} {
		r, err := s.Call(t.Context(), "both", json.RawMessage(step.args), CallContext{Env: map[string]string{"K": step.env}})
		if err != nil || r.Output != step.want {
			t.Fatalf("both(%s) = %+v %v; want %q", step.args, r, err, step.want)
		}
	}
}

// The signal aborts at the deadline even when the module reads it only
// afterwards (TestDeadlines covers a module that listens before). The call
// answers that it timed out; the runtime, kept, tells what the module saw.
func TestSignalReadAfterAbort(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/late.ts": tool(`async execute(a, c) {
			if (a.read) return globalThis.seen
			await new Promise((r) => setTimeout(r, 100))
			globalThis.seen = c.signal.aborted + ' ' + c.signal.reason.name
			return 'done'
		}`),
	}), Options{PoolSize: 1}, "tools/late.ts")
	mustLoad(t, s)
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	r, err := s.Call(ctx, "late", nil, CallContext{})
	cancel()
	if err != nil || !r.IsError || r.Output != "tool late timed out after 20ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Fatalf("late = %+v %v", r, err)
	}
	if r := call(t, s, "late", `{"read":true}`); r.Output != "true TimeoutError" {
		t.Fatalf("what the module saw = %+v; want %q", r, "true TimeoutError")
	}
}
