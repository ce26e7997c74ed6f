package ecma

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// stringifyBoth answers JSON.stringify(expr, null, gap) by the fast path
// and by goja's builtin (indented by appendIndent, as the host did before
// the fast path): the two must agree, errors included.
func stringifyBoth(tb testing.TB, src, gap string) (fast, want string) {
	tb.Helper()
	vm := goja.New()
	v, err := vm.RunString("(" + src + ")")
	if err != nil {
		tb.Fatalf("%s: %v", src, err)
	}
	orig, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	run := func(f func() string) (out string) {
		defer func() {
			if r := recover(); r != nil {
				out = fmt.Sprint("throws: ", r)
			}
		}()
		return f()
	}
	want = run(func() string {
		r, err := orig(goja.Undefined(), v)
		if err != nil {
			return fmt.Sprint("throws: ", err)
		}
		if goja.IsUndefined(r) {
			return "undefined"
		}
		if gap == "" {
			return r.String()
		}
		return string(appendIndent(nil, r.String(), gap, 0))
	})
	// A second runtime: getters with side effects must see a fresh start.
	vm2 := goja.New()
	v2, _ := vm2.RunString("(" + src + ")")
	orig2, _ := goja.AssertFunction(vm2.Get("JSON").ToObject(vm2).Get("stringify"))
	fast = run(func() string {
		if !plain(v2) {
			if tb, ok := tb.(*testing.T); ok && strings.HasPrefix(src, "{") {
				tb.Errorf("%s: not plain, want the fast path", src)
			}
			return want // the host calls the builtin for these
		}
		s := stringifier{vm: vm2, orig: orig2, gap: gap}
		if !s.value("", v2, 0) {
			return "undefined"
		}
		return string(s.buf)
	})
	return fast, want
}

func TestStringifyLikeBuiltin(t *testing.T) {
	for _, src := range []string{
		`{a: 1, b: [1, 2, {c: "x"}], d: {}, e: [], f: undefined, g: () => 1, h: Symbol("s"), i: null}`,
		`[undefined, () => 1, Symbol("s"), NaN, Infinity, -0, 1e21, 1e-7, 0.1 + 0.2, -5]`,
		`{s: "quote \" back \\ nl \n tab \t cr \r bs \b ff \f nul \u0000 us \u001f del \u007f ls \u2028 é 日本 😀"}`,
		`{lone: "\ud800", pair: "\ud83d\ude00", [String.fromCharCode(0xdc00)]: 1}`,
		`{d: new Date(0), nested: {t: {toJSON(k) { return "key:" + k }}}, arr: [{toJSON(k) { return "i" + k }}]}`,
		`{m: new Map([[1, 2]]), set: new Set([1]), re: /x/g, err: new Error("e"), n: new Number(3), st: new String("s"), b: new Boolean(false)}`,
		`{u8: new Uint8Array([1, 2]), sparse: [1, , 3], big: [1, 2, 3].map(String)}`,
		`(() => { class P { constructor() { this.x = 1 } get y() { return 2 } }; return [new P(), Object.create(null)] })()`,
		`(() => { let n = 0; return {get g() { n++; return n }, after: 1} })()`,
		`(() => { const o = {a: 1}; return [o, o, {o}] })()`,
		`(() => { const o = {}; o.self = o; return o })()`,
		`(() => { const o = {}; o.inner = {d: new Date(0), back: [o]}; return o })()`,
		`{n: 10n}`, `10n`, `"top"`, `42`, `true`, `null`, `undefined`, `() => 1`, `Symbol("x")`,
		`({toJSON() { return undefined }})`, `{x: {toJSON() { return undefined }}, y: [{toJSON() {}}]}`,
		`{"2": "b", "1": "a", "x": "c", "-1": "d"}`,
		`new Proxy({a: 1}, {})`, `{p: new Proxy([1, 2], {})}`,
		`JSON.rawJSON ? {r: JSON.rawJSON("1e1000")} : {r: 1}`,
		`(() => { const a = []; a.length = 3; return {a} })()`,
		`{deep: [[[[[[[{}]]]]]]]}`,
	} {
		for _, gap := range []string{"", "  ", "\t", "--"} {
			fast, want := stringifyBoth(t, src, gap)
			if fast != want {
				t.Errorf("JSON.stringify(%s, null, %q):\nfast %s\nwant %s", src, gap, fast, want)
			}
		}
	}
}

// The fast path reads each property once, as the standard does, even
// where it hands a value to goja's builtin.
func TestStringifyGettersOnce(t *testing.T) {
	vm := goja.New()
	v, err := vm.RunString(`globalThis.reads = 0; ({get a() { reads++; return {d: new Date(0)} }, get b() { reads++; return 1 }})`)
	if err != nil {
		t.Fatal(err)
	}
	orig, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	s := stringifier{vm: vm, orig: orig}
	s.value("", v, 0)
	if got := vm.Get("reads").ToInteger(); got != 2 || string(s.buf) != `{"a":{"d":"1970-01-01T00:00:00.000Z"},"b":1}` {
		t.Fatalf("reads = %d, %s", got, s.buf)
	}
}

// FuzzStringify builds random values from the fuzzer's seed and compares
// the fast path with goja's builtin.
func FuzzStringify(f *testing.F) {
	for i := range 20 {
		f.Add(uint64(i), uint8(i%4))
	}
	gaps := []string{"", "  ", "\t", "ab"}
	f.Fuzz(func(t *testing.T, seed uint64, g uint8) {
		r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		src := genValue(r, 0)
		fast, want := stringifyBoth(t, src, gaps[int(g)%len(gaps)])
		if fast != want {
			t.Fatalf("JSON.stringify(%s):\nfast %s\nwant %s", src, fast, want)
		}
	})
}

var leaves = []string{
	`0`, `-0`, `1.5`, `-2e-9`, `1e300`, `NaN`, `-Infinity`, `123456789012`, `true`, `false`, `null`, `undefined`,
	`""`, `"a\"b"`, `"\\\\"`, `"\n\t\u0001"`, `"é"`, `"\ud800x"`, `"😀"`, `"\u2028"`,
	`() => 0`, `Symbol()`, `new Date(86400000)`, `new Map()`, `/r/`, `new Number(-1)`, `new String("w")`,
	`({toJSON(k) { return [k] }})`, `new Uint8Array(2)`, `Object.create(null)`,
}

func genValue(r *rand.Rand, depth int) string {
	if depth > 4 || r.IntN(3) == 0 {
		return leaves[r.IntN(len(leaves))]
	}
	n := r.IntN(5)
	parts := make([]string, n)
	if r.IntN(2) == 0 {
		for i := range parts {
			parts[i] = genValue(r, depth+1)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	keys := []string{`a`, `"b c"`, `"1"`, `"0"`, `"\u00e9"`, `"\ud801"`, `"q\"k"`, `toString`}
	for i := range parts {
		parts[i] = keys[r.IntN(len(keys))] + ": " + genValue(r, depth+1)
	}
	return "({" + strings.Join(parts, ", ") + "})"
}

// BenchmarkStringify is the fast path on the call scenario's 10 KB JSON
// result (64 items of 6 properties), indented by two spaces as the host
// formats a tool's output.
func BenchmarkStringify(b *testing.B) {
	vm := goja.New()
	v, err := vm.RunString(`(() => { const items = []
		for (let i = 0; i < 64; i++) items.push({ id: i, sku: 'SKU-' + (1000 + i), name: 'Catalog item number ' + i,
			price: Math.round(i * 1.37 * 100) / 100, tags: ['bench', i % 2 ? 'odd' : 'even'], stock: i % 3 !== 0 })
		return { page: 1, items } })()`)
	if err != nil {
		b.Fatal(err)
	}
	orig, _ := goja.AssertFunction(vm.Get("JSON").ToObject(vm).Get("stringify"))
	var buf []byte
	for b.Loop() {
		s := stringifier{vm: vm, orig: orig, gap: "  ", buf: buf[:0]}
		if !s.value("", v, 0) {
			b.Fatal("not written")
		}
		buf = s.buf
	}
	b.SetBytes(int64(len(buf)))
}
