package bun

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// maxInspectDepth is how deep Bun.inspect shows nested objects.
const maxInspectDepth = 8

// inspect is Bun.inspect in Bun's format (not Node's): a string as is;
// nested strings in double quotes; objects one property a line with a
// trailing comma; arrays on one line, "[ 1, 2 ]"; each level two spaces
// deeper, arrays included.
func inspect(vm *goja.Runtime, v goja.Value) string {
	if s, ok := v.(goja.String); ok {
		return s.String()
	}
	in := inspector{vm: vm}
	var b strings.Builder
	in.write(&b, v, 0)
	return b.String()
}

type inspector struct {
	vm   *goja.Runtime
	seen []*goja.Object
}

var identRe = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func indent(b *strings.Builder, level int) { b.WriteString(strings.Repeat("  ", level)) }

func (in *inspector) write(b *strings.Builder, v goja.Value, level int) {
	switch {
	case v == nil || goja.IsUndefined(v):
		b.WriteString("undefined")
		return
	case goja.IsNull(v):
		b.WriteString("null")
		return
	}
	o, ok := v.(*goja.Object)
	if !ok {
		switch x := v.Export().(type) {
		case string:
			b.WriteString(quote(x))
		default:
			if _, isBig := v.Export().(interface{ Sign() int }); isBig {
				b.WriteString(v.String() + "n")
				return
			}
			if sym, ok := v.(*goja.Symbol); ok {
				b.WriteString(sym.String())
				return
			}
			b.WriteString(v.String())
		}
		return
	}
	for _, s := range in.seen {
		if s == o {
			b.WriteString("[Circular]")
			return
		}
	}
	if _, ok := goja.AssertFunction(o); ok {
		name := o.Get("name")
		if name == nil || name.String() == "" {
			b.WriteString("[Function]")
		} else {
			b.WriteString("[Function: " + name.String() + "]")
		}
		return
	}
	cls := o.ClassName()
	switch cls {
	case "Date":
		if f, ok := goja.AssertFunction(o.Get("toISOString")); ok {
			if s, err := f(o); err == nil {
				b.WriteString(s.String())
				return
			}
		}
		b.WriteString("Invalid Date")
		return
	case "RegExp", "Error":
		b.WriteString(o.String())
		return
	}
	if level >= maxInspectDepth {
		if cls == "Array" {
			b.WriteString("[Array]")
		} else {
			b.WriteString("[Object ...]")
		}
		return
	}
	in.seen = append(in.seen, o)
	defer func() { in.seen = in.seen[:len(in.seen)-1] }()
	if name, items, ok := in.collection(o); ok {
		in.writeCollection(b, name, items, level)
		return
	}
	if cls == "Array" {
		n := o.Get("length").ToInteger()
		if n == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteString("[ ")
		for i := int64(0); i < n; i++ {
			if i > 0 {
				b.WriteString(", ")
			}
			in.write(b, o.Get(strconv.FormatInt(i, 10)), level+1)
		}
		b.WriteString(" ]")
		return
	}
	prefix := ""
	if ctor, ok := o.Get("constructor").(*goja.Object); ok {
		if name := ctor.Get("name"); name != nil && name.String() != "Object" && name.String() != "" {
			prefix = name.String() + " "
		}
	}
	keys := o.Keys()
	if len(keys) == 0 {
		b.WriteString(prefix + "{}")
		return
	}
	b.WriteString(prefix + "{\n")
	for _, k := range keys {
		indent(b, level+1)
		if identRe.MatchString(k) {
			b.WriteString(k)
		} else {
			b.WriteString(quote(k))
		}
		b.WriteString(": ")
		in.write(b, o.Get(k), level+1)
		b.WriteString(",\n")
	}
	indent(b, level)
	b.WriteString("}")
}

// collection tells a Map, a Set or a typed array, with its items (a Map's
// as [key, value] pairs).
func (in *inspector) collection(o *goja.Object) (name string, items []goja.Value, ok bool) {
	vm := in.vm
	from, _ := goja.AssertFunction(vm.Get("Array").ToObject(vm).Get("from"))
	list := func() []goja.Value {
		arr, err := from(goja.Undefined(), o)
		if err != nil {
			return nil
		}
		a := arr.ToObject(vm)
		n := a.Get("length").ToInteger()
		out := make([]goja.Value, n)
		for i := range out {
			out[i] = a.Get(strconv.Itoa(i))
		}
		return out
	}
	for _, c := range []string{"Map", "Set"} {
		if ctor, ok := vm.Get(c).(*goja.Object); ok && vm.InstanceOf(o, ctor) {
			return c, list(), true
		}
	}
	if _, isView := o.Export().([]byte); isView || isTypedArray(vm, o) {
		return o.Get("constructor").ToObject(vm).Get("name").String(), list(), true
	}
	return "", nil, false
}

func isTypedArray(vm *goja.Runtime, o *goja.Object) bool {
	ab, _ := vm.Get("ArrayBuffer").(*goja.Object)
	if ab == nil {
		return false
	}
	isView, ok := goja.AssertFunction(ab.Get("isView"))
	if !ok {
		return false
	}
	v, err := isView(ab, o)
	return err == nil && v.ToBoolean() && o.ClassName() != "DataView"
}

// writeCollection writes Bun's forms: Map(1) { "a": 1, } and Set(2) { 1,
// 2, } one item a line, Uint8Array(3) [ 1, 2, 3 ].
func (in *inspector) writeCollection(b *strings.Builder, name string, items []goja.Value, level int) {
	head := name + "(" + strconv.Itoa(len(items)) + ")"
	if name != "Map" && name != "Set" {
		if len(items) == 0 {
			b.WriteString(head + " []")
			return
		}
		b.WriteString(head + " [ ")
		for i, v := range items {
			if i > 0 {
				b.WriteString(", ")
			}
			in.write(b, v, level+1)
		}
		b.WriteString(" ]")
		return
	}
	if len(items) == 0 {
		b.WriteString(head + " {}")
		return
	}
	b.WriteString(head + " {\n")
	for _, v := range items {
		indent(b, level+1)
		if name == "Map" {
			kv := v.ToObject(in.vm)
			in.write(b, kv.Get("0"), level+1)
			b.WriteString(": ")
			in.write(b, kv.Get("1"), level+1)
		} else {
			in.write(b, v, level+1)
		}
		b.WriteString(",\n")
	}
	indent(b, level)
	b.WriteString("}")
}
