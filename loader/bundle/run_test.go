package bundle

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// ranBundle is a bundle evaluated in goja the way the JS host runs it, as
// Node's module wrapper does: module, exports, require, __filename and
// __dirname in scope.
type ranBundle struct {
	vm       *goja.Runtime
	exports  goja.Value
	required []string // names asked of require, in order
}

// runBundle evaluates code as the entry module at filename ("" for a host
// that passes no __filename). require answers nothing: it throws
// `Cannot find module '<name>'`, the contract for what the host does not
// offer, with code MODULE_NOT_FOUND.
func runBundle(tb testing.TB, code []byte, filename string) (*ranBundle, error) {
	tb.Helper()
	r := &ranBundle{vm: goja.New()}
	params := "module, exports, require"
	if filename != "" {
		params += ", __filename, __dirname"
	}
	fn, err := r.vm.RunString("(function (" + params + ") {" + string(code) + "\n})")
	if err != nil {
		tb.Fatalf("the bundle does not compile: %v", err)
	}
	call, _ := goja.AssertFunction(fn)
	module := r.vm.NewObject()
	exports := r.vm.NewObject()
	_ = module.Set("exports", exports)
	require := func(c goja.FunctionCall) goja.Value {
		name := c.Argument(0).String()
		r.required = append(r.required, name)
		e, err := r.vm.New(r.vm.Get("Error"), r.vm.ToValue("Cannot find module '"+name+"'"))
		if err != nil {
			panic(err)
		}
		_ = e.Set("code", "MODULE_NOT_FOUND")
		panic(e)
	}
	args := []goja.Value{module, exports, r.vm.ToValue(require)}
	if filename != "" {
		args = append(args, r.vm.ToValue(filename), r.vm.ToValue(filename[:strings.LastIndexByte(filename, '/')]))
	}
	if _, err := call(goja.Undefined(), args...); err != nil {
		return r, err
	}
	r.exports = module.Get("exports")
	return r, nil
}

// eval runs a JavaScript expression with the module's exports as `m`.
func (r *ranBundle) eval(tb testing.TB, expr string) (goja.Value, error) {
	tb.Helper()
	_ = r.vm.Set("m", r.exports)
	return r.vm.RunString(expr)
}
