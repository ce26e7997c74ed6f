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
