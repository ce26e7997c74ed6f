package ecma

import (
	"encoding/json"
	"os"
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
