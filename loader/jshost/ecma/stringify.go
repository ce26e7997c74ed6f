package ecma

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// The host formats every object a tool returns with JSON.stringify, so its
// cost is part of every call that returns data. goja's builtin quotes each
// string through a UTF-16 reader and grows a fresh buffer each time; on a
// tool returning 10 KB of JSON it was a quarter of the call's CPU and more
// than a third of its allocations. stringifier writes plain objects,
// arrays and primitives straight into a reused buffer, with the indent.
// Anything else (toJSON, Date, Map, wrappers, BigInt, RawJSON, typed
// arrays, strings holding lone surrogates) is handed to goja's builtin
// exactly as the standard would serialize it there: wrapped in a holder
// under its own key, so toJSON gets the key it would get, and no getter
// runs twice.

var (
	mapType   = reflect.TypeOf(map[string]any(nil))
	sliceType = reflect.TypeOf([]any(nil))
	boolType  = reflect.TypeOf(false)
	intType   = reflect.TypeOf(int64(0))
	floatType = reflect.TypeOf(float64(0))
)

// errCircular is goja's own message for a cycle.
const errCircular = "Converting circular structure to JSON"

type stringifier struct {
	vm    *goja.Runtime
	orig  goja.Callable // goja's JSON.stringify
	gap   string
	buf   []byte
	stack []*goja.Object
}

// plain reports whether the fast path serializes v itself at the top:
// otherwise the whole call goes to goja's builtin before anything ran.
func plain(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return true
	}
	return fastObject(o)
}

// fastObject: an ordinary object or array without toJSON.
func fastObject(o *goja.Object) bool {
	switch o.ClassName() {
	case "Object":
		if o.ExportType() != mapType {
			return false
		}
	case "Array":
		if o.ExportType() != sliceType {
			return false
		}
	default:
		return false
	}
	tj := o.Get("toJSON") // nil when no such property
	return tj == nil || goja.IsUndefined(tj)
}

// value writes v, the property key of its holder; it reports false for a
// value the standard leaves out (undefined, a function, a symbol).
func (s *stringifier) value(key string, v goja.Value, depth int) bool {
	if v == nil || goja.IsUndefined(v) {
		return false
	}
	if goja.IsNull(v) {
		s.buf = append(s.buf, "null"...)
		return true
	}
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() == "Function" {
			return false
		}
		if !fastObject(o) {
			return s.delegate(key, v, depth)
		}
		for _, p := range s.stack {
			if p.SameAs(o) {
				panic(s.vm.NewTypeError(errCircular))
			}
		}
		s.stack = append(s.stack, o)
		if o.ClassName() == "Array" {
			s.array(o, depth)
		} else if !s.object(o, depth) {
			s.stack = s.stack[:len(s.stack)-1]
			return s.delegate(key, v, depth)
		}
		s.stack = s.stack[:len(s.stack)-1]
		return true
	}
	switch x := v.(type) {
	case *goja.Symbol: // before ExportType, which says string for it
		return false
	case goja.String:
		str := x.String()
		if strings.ContainsRune(str, utf8.RuneError) {
			// Go's string of a lone surrogate is U+FFFD; the standard
			// escapes the surrogate itself.
			return s.delegate(key, v, depth)
		}
		s.buf = quote(s.buf, str)
		return true
	}
	switch v.ExportType() {
	case boolType:
		s.buf = strconv.AppendBool(s.buf, v.ToBoolean())
	case intType:
		s.buf = strconv.AppendInt(s.buf, v.ToInteger(), 10)
	case floatType:
		if f := v.ToFloat(); math.IsNaN(f) || math.IsInf(f, 0) {
			s.buf = append(s.buf, "null"...)
		} else {
			s.buf = append(s.buf, v.String()...)
		}
	default: // a BigInt: goja's builtin throws its TypeError
		return s.delegate(key, v, depth)
	}
	return true
}

func (s *stringifier) array(o *goja.Object, depth int) {
	n := o.Get("length").ToInteger()
	if n == 0 {
		s.buf = append(s.buf, "[]"...)
		return
	}
	s.buf = append(s.buf, '[')
	for i := range n {
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		s.newline(depth + 1)
		k := strconv.FormatInt(i, 10)
		if !s.value(k, o.Get(k), depth+1) {
			s.buf = append(s.buf, "null"...)
		}
	}
	s.newline(depth)
	s.buf = append(s.buf, ']')
}

// object writes o's own enumerable string-keyed properties; false (and
// nothing written) when a key holds a lone surrogate, which Go strings
// cannot carry: goja's builtin then writes the whole object.
func (s *stringifier) object(o *goja.Object, depth int) bool {
	keys := o.Keys()
	for _, k := range keys {
		if strings.ContainsRune(k, utf8.RuneError) {
			return false
		}
	}
	s.buf = append(s.buf, '{')
	open := len(s.buf)
	wrote := false
	for _, k := range keys {
		mark := len(s.buf)
		if wrote {
			s.buf = append(s.buf, ',')
		}
		s.newline(depth + 1)
		s.buf = quote(s.buf, k)
		s.buf = append(s.buf, ':')
		if s.gap != "" {
			s.buf = append(s.buf, ' ')
		}
		if s.value(k, o.Get(k), depth+1) {
			wrote = true
		} else {
			s.buf = s.buf[:mark]
		}
	}
	if !wrote {
		s.buf = append(s.buf[:open], '}')
		return true
	}
	s.newline(depth)
	s.buf = append(s.buf, '}')
	return true
}

func (s *stringifier) newline(depth int) {
	if s.gap == "" {
		return
	}
	s.buf = append(s.buf, '\n')
	for range depth {
		s.buf = append(s.buf, s.gap...)
	}
}

// delegate serializes v with goja's builtin as the property key of a
// holder, which is what the standard does at this point: toJSON receives
// key, a getter runs once. The compact text is indented to depth.
func (s *stringifier) delegate(key string, v goja.Value, depth int) bool {
	holder := s.vm.NewObject()
	if err := holder.Set(key, v); err != nil {
		panic(err)
	}
	r, err := s.orig(goja.Undefined(), holder)
	if err != nil {
		panic(err)
	}
	text := r.String()
	prefix := len(quote(nil, key)) + 2 // {"key":
	if len(text) <= prefix {           // {}: the value serializes to nothing
		return false
	}
	text = text[prefix : len(text)-1]
	if s.gap == "" {
		s.buf = append(s.buf, text...)
	} else {
		s.buf = appendIndent(s.buf, text, s.gap, depth)
	}
	return true
}

// quote appends str as a JSON string, escaped as JSON.stringify escapes:
// the quote, the backslash and control characters; nothing else.
func quote(dst []byte, str string) []byte {
	dst = append(dst, '"')
	start := 0
	for i := 0; i < len(str); i++ {
		c := str[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		dst = append(dst, str[start:i]...)
		switch c {
		case '"', '\\':
			dst = append(dst, '\\', c)
		case '\b':
			dst = append(dst, `\b`...)
		case '\t':
			dst = append(dst, `\t`...)
		case '\n':
			dst = append(dst, `\n`...)
		case '\f':
			dst = append(dst, `\f`...)
		case '\r':
			dst = append(dst, `\r`...)
		default:
			const hex = "0123456789abcdef"
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		start = i + 1
	}
	dst = append(dst, str[start:]...)
	return append(dst, '"')
}
