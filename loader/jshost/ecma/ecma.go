// Package ecma corrects ECMAScript builtins where goja answers otherwise
// than the standard or than Bun and Node: a silent wrong answer in a
// builtin reaches every tool that uses it. Date's zone names: date.go.
//
// JSON.stringify with an indent: goja indents every object that follows
// an empty [] or {} one level too deep (and its closing bracket too).
// The tool host formats every object a tool returns that way, so the
// builtin is replaced by one that stringifies without the indent (goja's
// compact form is right) and indents the text in Go (indent.go). Plain
// objects and arrays are written by stringify.go, faster.
//
// JSON.parse: parse.go, for speed, V8's errors and lone surrogates.
package ecma

import (
	"math"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Platform installs the corrections; it has no globals or modules.
func Platform() rt.Platform { return rt.Platform{Install: install} }

func install(r *rt.Runtime) error {
	vm := r.VM
	j := vm.Get("JSON").ToObject(vm)
	ov := j.Get("stringify")
	orig, ok := goja.AssertFunction(ov)
	if !ok {
		return nil
	}
	var spare []byte // the last call's buffer, for the next (a nested call makes its own)
	fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		gap := gapOf(vm, call.Argument(2))
		v, replacer := call.Argument(0), call.Argument(1)
		if (goja.IsUndefined(replacer) || goja.IsNull(replacer)) && plain(v) {
			s := stringifier{vm: vm, orig: orig, gap: gap, buf: spare[:0]}
			spare = nil
			wrote := s.value("", v, 0)
			out := string(s.buf)
			if cap(s.buf) <= maxSpare {
				spare = s.buf
			}
			if !wrote {
				return goja.Undefined()
			}
			return vm.ToValue(out)
		}
		args := call.Arguments
		if gap != "" {
			args = []goja.Value{v, replacer}
		}
		r, err := orig(goja.Undefined(), args...)
		if err != nil {
			panic(err)
		}
		if gap == "" || goja.IsUndefined(r) {
			return r
		}
		return vm.ToValue(string(appendIndent(nil, r.String(), gap, 0)))
	}).(*goja.Object)
	describe(vm, fn, "stringify", ov)
	installDate(vm)
	installRegExp(r)
	if err := installAsyncIterator(vm); err != nil {
		return err
	}
	if err := installParse(r, j); err != nil {
		return err
	}
	return j.DefineDataProperty("stringify", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// maxSpare bounds the buffer a runtime keeps between JSON.stringify calls.
const maxSpare = 256 << 10

// gapOf is JSON.stringify's indent for its space argument (ECMA-262
// SerializeJSONProperty's gap): up to 10 spaces for a number, the first
// 10 code units of a string, Number and String objects unwrapped.
func gapOf(vm *goja.Runtime, space goja.Value) string {
	if o, ok := space.(*goja.Object); ok {
		switch o.ClassName() {
		case "Number":
			space = vm.ToValue(o.ToNumber().ToFloat())
		case "String":
			space = o.ToString()
		default:
			return ""
		}
	}
	switch e := space.Export().(type) {
	case int64:
		return strings.Repeat(" ", int(min(max(e, 0), 10)))
	case float64:
		if math.IsNaN(e) || e < 1 {
			return ""
		}
		return strings.Repeat(" ", int(min(e, 10)))
	case string:
		if _, ok := space.(goja.String); !ok {
			return ""
		}
		u := []rune(e)
		return first10Units(u)
	}
	return ""
}

// first10Units is the first 10 UTF-16 code units of a string.
func first10Units(u []rune) string {
	n := 0
	var b strings.Builder
	for _, c := range u {
		w := 1
		if c > 0xFFFF {
			w = 2
		}
		if n+w > 10 {
			break
		}
		b.WriteRune(c)
		n += w
	}
	return b.String()
}

// installAsyncIterator gives Symbol the well-known asyncIterator goja
// lacks: the registered Symbol.for('Symbol.asyncIterator'), the one
// esbuild's lowered for await falls back to, so libraries that read
// Symbol.asyncIterator (readable-stream, for one) and bundled loops agree.
func installAsyncIterator(vm *goja.Runtime) error {
	sym := vm.Get("Symbol").ToObject(vm)
	if v := sym.Get("asyncIterator"); v != nil && !goja.IsUndefined(v) {
		return nil
	}
	forFn, ok := goja.AssertFunction(sym.Get("for"))
	if !ok {
		return nil
	}
	v, err := forFn(sym, vm.ToValue("Symbol.asyncIterator"))
	if err != nil {
		return err
	}
	return sym.DefineDataProperty("asyncIterator", v, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}
