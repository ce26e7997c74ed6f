package jshost

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"
)

// stateful counts its calls in a global: a runtime that is reused shows
// the count of every call it served; a fresh one starts at 1.
const stateful = `export const timeout = TIMEOUT
export default { description: 'd', parameters: { type: 'object' }, async execute(a) {
	globalThis.n = (globalThis.n || 0) + 1
	switch (a.mode) {
	case 'spin': for (;;) {}
	case 'hang': return new Promise(() => {})
	case 'deep': { const f = () => f() + 1; return f() }
	case 'hog': { const x = []; const s = 'x'.repeat(4096); for (;;) x.push(s + x.length) }
	case 'throw': throw new Error('mine')
	}
	return String(globalThis.n)
} }
`

// TestStoppedRuntimeIsThrownAway: a runtime whose call timed out, was
// interrupted, overflowed its stack or was stopped for memory is thrown
// away: the next call runs on a fresh one and cannot see what the bad
// call left (its global counter), and the discard is counted. A call that
// merely throws keeps its runtime (the control: the counter goes on).
func TestStoppedRuntimeIsThrownAway(t *testing.T) {
	cases := []struct {
		mode, want string
		cancel     bool
		fresh      bool
		timeout    string
	}{
		{mode: "spin", want: "timed out after 300ms", fresh: true},
		{mode: "hang", want: "timed out after 300ms", fresh: true},
		{mode: "deep", want: "Maximum call stack size exceeded", fresh: true},
		{mode: "hog", want: "more than its memory limit of 64 MiB", fresh: true, timeout: "30000"},
		{mode: "spin", want: "was canceled before it finished", cancel: true, fresh: true, timeout: "30000"},
		{mode: "throw", want: "mine", fresh: false},
	}
	for _, c := range cases {
		t.Run(c.mode+map[bool]string{true: " canceled"}[c.cancel], func(t *testing.T) {
			if c.timeout == "" {
				c.timeout = "300"
			}
			src := strings.Replace(stateful, "TIMEOUT", c.timeout, 1)
			s, _ := loadTools(t, project(t, map[string]string{"tools/state.ts": src}), Options{PoolSize: 1, CallMemory: 64 << 20}, "tools/state.ts")
			mustLoad(t, s)
			for _, want := range []string{"1", "2"} {
				if r := call(t, s, "state", `{}`); r.Output != want {
					t.Fatalf("call = %+v, want %s (one runtime, reused)", r, want)
				}
			}
			ctx := t.Context()
			if c.cancel {
				var cancel context.CancelFunc
				ctx, cancel = context.WithCancel(ctx)
				time.AfterFunc(50*time.Millisecond, cancel)
			}
			r, err := s.Call(ctx, "state", []byte(`{"mode":"`+c.mode+`"}`), CallContext{})
			if err != nil || !r.IsError || !strings.Contains(r.Output, c.want) {
				t.Fatalf("%s = %+v %v, want an error with %q", c.mode, r, err, c.want)
			}
			want, discards := "1", uint64(1)
			if !c.fresh {
				want, discards = "4", 0
			}
			idle(t, s)
			if r := call(t, s, "state", `{}`); r.Output != want || s.Discarded() != discards {
				t.Fatalf("after %s the next call answers %+v with %d runtimes discarded, want %s and %d", c.mode, r, s.Discarded(), want, discards)
			}
		})
	}
}

// TestTimersOfAnEndedCallNeverFire: timers a call left behind (a timeout
// and an interval) never run in the runtime's next call.
func TestTimersOfAnEndedCallNeverFire(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/t.ts": tool(`execute(a) {
		const bump = () => { globalThis.leak = (globalThis.leak || 0) + 1 }
		if (a.arm) { setTimeout(bump, 20); setInterval(bump, 5); queueMicrotask(() => setTimeout(bump, 1)); return 'armed' }
		return new Promise((r) => setTimeout(() => r(String(globalThis.leak || 0)), 150)) }`)}), Options{PoolSize: 1}, "tools/t.ts")
	mustLoad(t, s)
	if r := call(t, s, "t", `{"arm":true}`); r.Output != "armed" {
		t.Fatalf("arm = %+v", r)
	}
	if r := call(t, s, "t", `{}`); r.Output != "0" || s.Discarded() != 0 {
		t.Fatalf("the next call on the same runtime saw %q timer runs (%d discarded), want 0 on a reused runtime", r.Output, s.Discarded())
	}
}

// TestWatchdogStopsTheRunaway: of two calls over the per-call limit
// together, the one that allocates is stopped, not the older one that
// waits on a timer; the waiting one finishes.
func TestWatchdogStopsTheRunaway(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/waiter.ts": tool("timeout: 30000, async execute() { await new Promise((r) => setTimeout(r, 1500)); return 'waited' }"),
		"tools/hog.ts":    tool("timeout: 30000, execute() { const a = []; const s = 'x'.repeat(4096); for (;;) a.push(s + a.length) }"),
	}), Options{CallMemory: 64 << 20}, "tools/waiter.ts", "tools/hog.ts")
	mustLoad(t, s)
	waited := make(chan Result, 1)
	go func() { waited <- call(t, s, "waiter", "{}") }()
	time.Sleep(100 * time.Millisecond) // the waiter is the older call
	if r := call(t, s, "hog", "{}"); !r.IsError || !strings.Contains(r.Output, "more than its memory limit") {
		t.Fatalf("hog = %+v, want it stopped for memory", r)
	}
	if r := <-waited; r.IsError || r.Output != "waited" {
		t.Fatalf("waiter = %+v, want it to finish", r)
	}
}

// TestStoppedRuntimeIsFreed: once a call is stopped for memory, what it
// held is garbage: the heap goes back near where it was.
func TestStoppedRuntimeIsFreed(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/hog.ts": tool("timeout: 30000, execute() { const a = []; const s = 'x'.repeat(4096); for (;;) a.push(s + a.length) }"),
	}), Options{CallMemory: 64 << 20}, "tools/hog.ts")
	mustLoad(t, s)
	runtime.GC()
	before := heapBytes()
	if r := call(t, s, "hog", "{}"); !strings.Contains(r.Output, "more than its memory limit") {
		t.Fatalf("hog = %+v", r)
	}
	idle(t, s)
	// The slot is free before the runtime's goroutine has ended: poll.
	deadline := time.Now().Add(10 * time.Second)
	for {
		runtime.GC()
		after := heapBytes()
		if after <= before+16<<20 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the heap holds %d MiB 10s after the stopped call, %d MiB before: the runtime was kept", after>>20, before>>20)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
