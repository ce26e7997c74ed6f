package ecma

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// run evaluates JSON.stringify(expr) as the host runs a module: the
// corrections installed, the literals routed.
func run(t *testing.T, expr string) string {
	t.Helper()
	vm := goja.New()
	if err := Platform().Install(&rt.Runtime{VM: vm}); err != nil {
		t.Fatal(err)
	}
	src := "JSON.stringify(" + expr + ")"
	prog, err := parser.ParseFile(nil, "case.js", src, 0)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	RouteLiterals(prog, src)
	p, err := goja.CompileAST(prog, true)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	v, err := vm.RunProgram(p)
	if err != nil {
		return "THROWS " + err.Error()
	}
	return v.String()
}

// TestRegExpAsNode: each row of testdata/regexp.node.json is an
// expression and what Node 20 printed for JSON.stringify of it (node -e,
// eval of the same text): property escapes, astral ranges and ., the
// string methods, lastIndex under g and y, copies, source and flags,
// surrogates without u, the d and v flags, errors.
func TestRegExpAsNode(t *testing.T) {
	raw, err := os.ReadFile("testdata/regexp.node.json")
	if err != nil {
		t.Fatal(err)
	}
	var rows [][2]string
	if err := json.Unmarshal(raw, &rows); err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		if got := run(t, r[0]); got != r[1] {
			t.Errorf("%s\n got %s\nwant %s", r[0], got, r[1])
		}
	}
}

func benchRuntime(b *testing.B) *goja.Runtime {
	vm := goja.New()
	if err := Platform().Install(&rt.Runtime{VM: vm}); err != nil {
		b.Fatal(err)
	}
	return vm
}

func benchEval(b *testing.B, vm *goja.Runtime, src string) {
	p := goja.MustCompile("bench.js", src, true)
	b.ResetTimer()
	for range b.N {
		if _, err := vm.RunProgram(p); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRegExpPlain: a pattern the host leaves to goja (its cost is
// the wrapper's call).
func BenchmarkRegExpPlain(b *testing.B) {
	benchEval(b, benchRuntime(b), `new RegExp('[a-z]+', 'g')`)
}

// BenchmarkRegExpPlainGoja: the same without the host's corrections.
func BenchmarkRegExpPlainGoja(b *testing.B) {
	benchEval(b, goja.New(), `new RegExp('[a-z]+', 'g')`)
}

// BenchmarkRegExpPropertyL: new RegExp('\\p{L}+', 'u') again: the rewrite
// and goja's compiled pattern are the runtime's first.
func BenchmarkRegExpPropertyL(b *testing.B) {
	benchEval(b, benchRuntime(b), `new RegExp('\\p{L}+', 'u')`)
}

// BenchmarkRegExpPropertyLFirst: the first \p{L} of a runtime (the rewrite
// computed from Go's tables).
func BenchmarkRegExpPropertyLFirst(b *testing.B) {
	p := goja.MustCompile("bench.js", `new RegExp('\\p{L}+', 'u')`, true)
	for range b.N {
		vm := benchRuntime(b)
		if _, err := vm.RunProgram(p); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkRegExpPropertyLMatch(b *testing.B) {
	benchEval(b, benchRuntime(b), `'Café Ünïcode ΑΒΓ 東京 123'.match(globalThis.re ??= new RegExp('\\p{L}+', 'gu'))`)
}

func BenchmarkRegExpPairsReplace(b *testing.B) {
	benchEval(b, benchRuntime(b), `'a𝌆b😀 and more text'.replace(globalThis.re ??= new RegExp('[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]', 'g'), '?')`)
}

// BenchmarkInstallRegExp: what the wrapper adds to a runtime's setup
// (it is made on the first read of the global).
func BenchmarkInstallRegExp(b *testing.B) {
	rs := make([]*rt.Runtime, b.N)
	for i := range rs {
		// A global made first, as set-up makes dozens: what is measured
		// is the wrapper's part alone.
		rs[i] = &rt.Runtime{VM: goja.New()}
		rs[i].LazyGlobal("other", false, goja.Undefined)
	}
	b.ResetTimer()
	for i := range b.N {
		installRegExp(rs[i])
	}
}

// BenchmarkMakeRegExp: the first read of the global RegExp.
func BenchmarkMakeRegExp(b *testing.B) {
	vms := make([]*goja.Runtime, b.N)
	for i := range vms {
		vms[i] = goja.New()
		installRegExp(&rt.Runtime{VM: vms[i]})
	}
	b.ResetTimer()
	for i := range b.N {
		vms[i].Get("RegExp")
	}
}

// BenchmarkInstallControl: a LazyGlobal of nothing, in the same harness
// as BenchmarkInstallRegExp.
func BenchmarkInstallControl(b *testing.B) {
	rs := make([]*rt.Runtime, b.N)
	for i := range rs {
		rs[i] = &rt.Runtime{VM: goja.New()}
		rs[i].LazyGlobal("other", false, goja.Undefined)
	}
	b.ResetTimer()
	for i := range b.N {
		rs[i].LazyGlobal("another", false, goja.Undefined)
	}
}

// BenchmarkRouteLiterals: the walk over a parsed module of some 600 KB
// (3000 functions with an object, a call, a loop and a literal) that has
// a \p{...} somewhere, which every module with one pays at its compile.
func BenchmarkRouteLiterals(b *testing.B) {
	var sb strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&sb, "function f%d(a, b) { const o = { x: [a, b, 'é'], y: () => a + b }; for (let i = 0; i < a; i++) o.x.push(i * 2); return o.y() > 3 ? /ab+c/g.test(String(b)) : null }\n", i)
	}
	sb.WriteString(`const re = /[^\p{L}\d]+/giu`)
	src := sb.String()
	prog, err := parser.ParseFile(nil, "big.js", src, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	b.ResetTimer()
	for range b.N {
		RouteLiterals(prog, src)
	}
}
