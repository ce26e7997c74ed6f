package intl

import (
	"fmt"
	"testing"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// newVM is a runtime with this platform alone installed.
func newVM(tb testing.TB) *goja.Runtime {
	tb.Helper()
	h := rt.NewHost(rt.Host{}, []rt.Platform{Platform()}, func(name string) string { return "no module " + name })
	r, err := h.NewRuntime(goja.New(), "t")
	if err != nil {
		tb.Fatal(err)
	}
	return r.VM
}

// eval is what Bun's gen script records for expr: its JSON, or the
// error's class and message.
func eval(vm *goja.Runtime, expr string) (out string) {
	defer func() {
		if r := recover(); r != nil {
			out = fmt.Sprint("panic: ", r)
		}
	}()
	v, err := vm.RunString(`(() => { try { return JSON.stringify(` + expr + `) } catch (e) { return 'throws ' + (e && e.constructor && e.constructor.name) + ': ' + (e && e.message) } })()`)
	if err != nil {
		return "error: " + err.Error()
	}
	if goja.IsUndefined(v) {
		return "" // JSON.stringify(undefined), recorded as null in the golden file
	}
	return v.String()
}

// TestLazy checks that a runtime pays for Intl only when it reads it.
func TestLazy(t *testing.T) {
	h := rt.NewHost(rt.Host{}, []rt.Platform{Platform()}, func(name string) string { return "no module " + name })
	r, err := h.NewRuntime(goja.New(), "t")
	if err != nil {
		t.Fatal(err)
	}
	st := rt.Local(r, stateKey{}, func() *state { return &state{} })
	if st.exports != nil {
		t.Fatal("js/intl.js ran at set-up")
	}
	if got := eval(r.VM, `(5).toString()`); got != `"5"` {
		t.Fatalf("toString: %s", got)
	}
	if st.exports != nil {
		t.Fatal("js/intl.js ran without Intl being used")
	}
	if got := eval(r.VM, `[typeof Intl, (1234.5).toLocaleString('de')]`); got != `["object","1.234,5"]` {
		t.Fatalf("Intl: %s", got)
	}
	if st.exports == nil {
		t.Fatal("Intl was read but js/intl.js did not run")
	}
}

func TestBuiltinMethods(t *testing.T) {
	vm := newVM(t)
	for _, c := range []struct{ expr, want string }{
		{`[Number.prototype.toLocaleString.name, Number.prototype.toLocaleString.length, String.prototype.localeCompare.length]`, `["toLocaleString",0,1]`},
		{`Object.getOwnPropertyDescriptor(Date.prototype, 'toLocaleDateString').enumerable`, `false`},
		{`Number.prototype.toLocaleString.call('x')`, `throws TypeError: Number.prototype.toLocaleString requires that |this| be a Number`},
		{`Date.prototype.toLocaleString.call(1)`, `throws TypeError: Date.prototype.toLocaleString called on incompatible receiver`},
		{`new Date(NaN).toLocaleDateString('de')`, `"Invalid Date"`},
		{`['b', 'a', 'C'].sort((x, y) => x.localeCompare(y))`, `["a","b","C"]`},
		{`[1234.5, 2].toLocaleString('de')`, `"1.234,5,2"`},
		{`(12345678901234567890n).toLocaleString('en-IN')`, `"1,23,45,67,89,01,23,45,67,890"`},
		{`Intl.NumberFormat.prototype.resolvedOptions.call({})`, `throws TypeError: Intl.NumberFormat.prototype.resolvedOptions called on value that's not a NumberFormat`},
		{`new Intl.NumberFormat('en', { style: 'unit', unit: 'gram-per-liter' })`, `throws RangeError: Intl.NumberFormat compound unit "gram-per-liter" is not supported by beeuni's Intl`},
		{`new Intl.DateTimeFormat('th').format(0)`, `throws RangeError: Intl.DateTimeFormat calendar "buddhist" (of locale th) is not supported by beeuni's Intl`},
		{`new Intl.DateTimeFormat('en', { timeZone: 'UTC', fractionalSecondDigits: 2 })`, `throws RangeError: Intl.DateTimeFormat fractionalSecondDigits is not supported by beeuni's Intl`},
		{`new Intl.DateTimeFormat('en', { timeZone: '+05:30', timeZoneName: 'short', hour: 'numeric' }).format(0)`, `"5 AM GMT+5:30"`},
		{`[...new Intl.Segmenter('ja', { granularity: 'word' }).segment('日本語です')]`, `throws RangeError: Intl.Segmenter word breaks in Chinese, Japanese, Thai, Lao, Khmer or Myanmar text is not supported by beeuni's Intl`},
		{`[...new Intl.Segmenter('ja').segment('日本')].map((s) => s.segment)`, `["日","本"]`},
	} {
		if got := eval(vm, c.expr); got != c.want {
			t.Errorf("%s: %s, want %s", c.expr, got, c.want)
		}
	}
}

// TestGuard checks that a bug in a binding fails the call, not the
// runtime, and that JS errors pass through unchanged.
func TestGuard(t *testing.T) {
	vm := goja.New()
	var s []int
	_ = vm.Set("buggy", guard(vm, func(goja.FunctionCall) goja.Value { return vm.ToValue(s[3]) }))
	_ = vm.Set("throws", guard(vm, func(goja.FunctionCall) goja.Value { panic(rangeError(vm, "bad")) }))
	for expr, want := range map[string]string{
		`buggy()`:  "throws TypeError: internal error in beeuni's Intl: runtime error: index out of range [3] with length 0",
		`throws()`: "throws RangeError: bad",
	} {
		if got := eval(vm, expr); got != want {
			t.Errorf("%s: %s, want %s", expr, got, want)
		}
	}
}
