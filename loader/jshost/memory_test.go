package jshost

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// bombs are SPEC 10's allocation patterns (and their kin), each with what
// its error says: a RangeError naming the limit at once for a single
// oversize allocation, the watchdog's stop for growth in a JS loop.
var bombs = []struct{ name, code, want string }{
	{"fill 1e9", "new Array(1e9).fill(0)", "this allocation (37.3 GiB) is over the tool's memory limit of 32 MiB"},
	{"fill 2.5e8", "new Array(2.5e8).fill(1)", "over the tool's memory limit of 32 MiB"},
	{"repeat 2**30", "'x'.repeat(2**30)", "this allocation (1 GiB) is over the tool's memory limit of 32 MiB"},
	{"repeat 2**32", "'x'.repeat(2**32)", "this allocation (4 GiB) is over the tool's memory limit of 32 MiB"},
	{"repeat unicode", "'é'.repeat(2**25)", "this allocation (64 MiB)"},
	{"repeat on an object", "String.prototype.repeat.call({ toString() { return 'xy' } }, 2**31)", "this allocation (4 GiB)"},
	{"padStart", "'x'.padStart(2**30)", "this allocation (1 GiB)"},
	{"padEnd", "'x'.padEnd(2**31, 'ab')", "this allocation (2 GiB)"},
	{"concat", "const s = 'x'.repeat(2**19); s.concat(...Array(100).fill(s))", "this allocation (50.5 MiB)"},
	{"split", "'x'.repeat(2**22).split('')", "over the tool's memory limit"},
	{"replaceAll", "'x'.repeat(2**20).replaceAll('x', 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy')", "over the tool's memory limit"},
	{"join of a huge array", "new Array(1e9).join('x')", "this array's length (1000000000) is over what the tool's memory limit of 32 MiB allows"},
	{"join of one string many times", "Array(1000).fill('x'.repeat(2**16)).join('')", "this allocation (62.5 MiB)"},
	{"array concat", "const a = Array(2**18).fill(1); [].concat(...Array(64).fill(a))", "this array's length"},
	{"flat", "const a = Array(2**18).fill(1); Array(64).fill(a).flat()", "this array's length"},
	{"Array.from", "Array.from({ length: 1e9 })", "this array's length"},
	{"sparse indexOf", "const a = []; a[2**31] = 1; a.indexOf(2)", "this array's length (2147483649)"},
	{"ArrayBuffer", "new ArrayBuffer(2**40)", "this allocation (1 TiB)"},
	{"Uint8Array", "new Uint8Array(2**33)", "this allocation (8 GiB)"},
	{"Float64Array", "new Float64Array(2**31)", "this allocation (16 GiB)"},
	{"typed array from an array-like", "new Int32Array({ length: 2**30 })", "this array's length"},
	{"Uint16Array.from", "Uint16Array.from({ length: 2**26 })", "this array's length"},
	{"subclass", "class B extends Uint8Array {}; new B(2**34)", "this allocation (16 GiB)"},
	{"Buffer.alloc", "Buffer.alloc(2**33)", "this allocation (8 GiB)"},
	{"Buffer(n)", "Buffer(2**33)", "this allocation (8 GiB)"},
	{"Buffer.allocUnsafe", "Buffer.allocUnsafe(2**33)", "this allocation (8 GiB)"},
	{"Buffer.from a long string", "Buffer.from('x'.repeat(12e6), 'utf16le')", "this allocation (34.3 MiB)"},
	{"gunzip of a bomb", "const z = require('node:zlib'); const g = z.gzipSync(Buffer.alloc(2**23)); z.gunzipSync(Buffer.concat(Array(8).fill(g)))", "memory limit of 32 MiB"},
	{"Buffer.concat", "const b = Buffer.alloc(2**19); Buffer.concat(Array(100).fill(b))", "this allocation (50 MiB)"},
	{"JSON.parse of a huge text", "JSON.parse('[1' + ',1'.repeat(1e6) + ']')", "over the tool's memory limit"},
	{"JSON.parse nested", "JSON.parse('['.repeat(1e5) + ']'.repeat(1e5))", "nests 100000 levels deep"},
	{"TextEncoder", "new TextEncoder().encode('x'.repeat(12e6))", "this allocation (34.3 MiB)"},
	{"string growth in a loop", "let s = 'x'.repeat(1024); for (;;) s += s", "it used more than its memory limit of 32 MiB"},
	{"array growth in a loop", "const a = []; const s = 'x'.repeat(4096); for (;;) a.push(s + a.length)", "it used more than its memory limit of 32 MiB"},
	{"100,000 timers", "for (let i = 0; i < 1e5; i++) setTimeout(() => {}, 1e6)", "this call has 10000 timers pending"},
}

// TestMemoryBombs: every pattern ends with its error, within the
// deadline, and the set keeps answering. (Calls that run beside a bomb
// are TestWatchdogStopsTheRunaway's and the e2e tests' business: here the
// heap is the bomb's alone, so that the 32 MiB limit is its own.)
func TestMemoryBombs(t *testing.T) {
	files := map[string]string{"tools/ok.ts": tool("execute() { return 'fine' }")}
	var paths []string
	for i, b := range bombs {
		name := "b" + string(rune('a'+i/26)) + string(rune('a'+i%26))
		files["tools/"+name+".ts"] = tool("timeout: 30000, execute() { " + b.code + "; return 'survived' }")
		paths = append(paths, "tools/"+name+".ts")
	}
	s, _ := loadTools(t, project(t, files), Options{CallMemory: 32 << 20, MaxMemory: 512 << 20}, append(paths, "tools/ok.ts")...)
	mustLoad(t, s)
	for i, b := range bombs {
		t.Run(b.name, func(t *testing.T) {
			// The last bomb's heap, still held by its runtime until that
			// returns, would be this one's base: wait till it is garbage.
			idle(t, s)
			runtime.GC()
			r := call(t, s, strings.TrimSuffix(paths[i][len("tools/"):], ".ts"), "{}")
			if !r.IsError || !strings.Contains(r.Output, b.want) {
				t.Fatalf("%s answered %+v, want an error with %q", b.name, r, b.want)
			}
			if ok := call(t, s, "ok", "{}"); ok.Output != "fine" {
				t.Fatalf("ok after %s = %+v", b.name, ok)
			}
		})
	}
}

// idle waits until no runtime of s is running (abandoned ones included).
func idle(tb testing.TB, s *Set) {
	tb.Helper()
	deadline := time.Now().Add(time.Minute)
	for _, p := range s.pools {
		for len(p.slots) != 0 {
			if time.Now().After(deadline) {
				tb.Fatalf("tool %s still runs a runtime after a minute", p.tool.Name)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
}

// TestOrdinaryUseUnderTheGuards: the guarded builtins still do their job
// below the limits, and look like the originals.
func TestOrdinaryUseUnderTheGuards(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/t.ts": tool(`execute() {
		const u = new Uint8Array([1, 2, 3])
		class B extends Uint8Array { sum() { return this.reduce((a, b) => a + b, 0) } }
		return [
			'ab'.repeat(3), 'x'.padStart(3, '-'), 'x'.padEnd(3), 'a'.concat('b', 1), 'a,b'.split(',').length, 'aXa'.replaceAll('a', 'b'),
			[1, 2, 3].fill(0).join(''), [3, 1, 2].sort().join(''), [1].concat([2], 3).join(''), [[1], [2, [3]]].flat(2).join(''),
			Array.from({ length: 2 }, (_, i) => i).join(''), [1, 2].indexOf(2), JSON.parse('{"a":[1]}').a[0],
			u instanceof Uint8Array, u.constructor === Uint8Array, Uint8Array.name, Uint8Array.length, Uint8Array.BYTES_PER_ELEMENT,
			new B(2).fill(3).sum(), new B(1) instanceof B, Float64Array.from([1.5])[0], new ArrayBuffer(4).byteLength,
			Array.prototype.fill.name, Array.prototype.fill.length, String.prototype.repeat.name, JSON.parse.length,
			Buffer.alloc(2).length, Buffer.concat([Buffer.from('a'), Buffer.from('b')]).toString(), Buffer.from('hi').toString('hex'),
		].join(' ') }`)}), Options{}, "tools/t.ts")
	mustLoad(t, s)
	r := call(t, s, "t", "{}")
	want := "ababab --x x   ab1 2 bXb 000 123 123 123 01 1 1 true true Uint8Array 3 1 6 true 1.5 4 fill 1 repeat 2 2 ab 6869"
	if r.IsError || r.Output != want {
		t.Fatalf("got  %q\nwant %q", r.Output, want)
	}
}

// TestBufferToStringOnAPlainObject: goja_nodejs's Buffer toString on an
// object that only inherits from Buffer.prototype recursed in Go until
// the process died; now it is a TypeError.
func TestBufferToStringOnAPlainObject(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/t.ts": tool(`execute() { return String(Object.create(Buffer.prototype)) }`)}), Options{}, "tools/t.ts")
	mustLoad(t, s)
	if r := call(t, s, "t", "{}"); !r.IsError || !strings.Contains(r.Output, `The "this" argument must be an instance of Buffer`) {
		t.Fatalf("got %+v", r)
	}
}

// TestStuckBuiltinIsAbandoned: a builtin that runs long in Go (a sparse
// array's lastIndexOf) cannot be interrupted; the call answers at its
// deadline anyway and the runtime, still busy, keeps its pool slot until
// it returns and is thrown away.
func TestStuckBuiltinIsAbandoned(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/stuck.ts": tool(fmt.Sprintf(`timeout: 100, execute() { const a = []; a[%d] = 1; a.lastIndexOf(2); return 'finished' }`, 40_000_000/raceSlowdown))}),
		Options{CallMemory: 2 << 30, MaxMemory: 4 << 30, PoolSize: 1}, "tools/stuck.ts")
	mustLoad(t, s)
	p := s.pools["stuck"]
	start := time.Now()
	r := call(t, s, "stuck", "{}")
	if !r.IsError || !strings.Contains(r.Output, "timed out after 100ms") {
		t.Fatalf("stuck = %+v", r)
	}
	if len(p.slots) != 1 || s.Discarded() != 1 {
		t.Fatalf("after the answer (%v) the stuck runtime holds %d slots, %d discarded: want it still running, abandoned", time.Since(start), len(p.slots), s.Discarded())
	}
	deadline := time.Now().Add(2 * time.Minute)
	for len(p.slots) != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the stuck runtime never gave its slot back")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(p.idle) != 0 {
		t.Fatal("the abandoned runtime went back to the pool")
	}
}
