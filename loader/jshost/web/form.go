package web

import (
	"strconv"
	"strings"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// formParse is the application/x-www-form-urlencoded parser of the URL
// standard: the name-value pairs of s as a JS array of [name, value].
func formParse(vm *goja.Runtime, s string) goja.Value {
	var pairs []any
	for seq := range strings.SplitSeq(s, "&") {
		if seq == "" {
			continue
		}
		name, value, _ := strings.Cut(seq, "=")
		pairs = append(pairs, vm.NewArray(formDecode(name), formDecode(value)))
	}
	return vm.NewArray(pairs...)
}

// formDecode is one name or value: '+' is a space, %XX a byte, and bytes
// that are not UTF-8 become U+FFFD.
func formDecode(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			b = append(b, ' ')
		case c == '%' && i+2 < len(s) && rt.IsHex(s[i+1]) && rt.IsHex(s[i+2]):
			b = append(b, rt.Unhex(s[i+1])<<4|rt.Unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return rt.DecodeUTF8(b)
}

// formSerialize is the application/x-www-form-urlencoded serializer: the
// pairs of list (a JS array of [name, value]) joined with '&', a space as
// '+' and every byte but ASCII alphanumerics and *-._ as %XX.
func formSerialize(r *rt.Runtime, list goja.Value) string {
	vm := r.VM
	o := list.ToObject(vm)
	n := int(o.Get("length").ToInteger())
	var out strings.Builder
	for i := range n {
		pair := o.Get(strconv.Itoa(i)).ToObject(vm)
		name, value := pair.Get("0").String(), pair.Get("1").String()
		r.Alloc(int64(out.Len()) + 3*int64(len(name)+len(value)) + 2) // %XX for each byte at most
		if i > 0 {
			out.WriteByte('&')
		}
		formEncode(&out, name)
		out.WriteByte('=')
		formEncode(&out, value)
	}
	return out.String()
}

func formEncode(out *strings.Builder, s string) {
	const hex = "0123456789ABCDEF"
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '*' || c == '-' || c == '.' || c == '_':
			out.WriteByte(c)
		case c == ' ':
			out.WriteByte('+')
		default:
			out.WriteByte('%')
			out.WriteByte(hex[c>>4])
			out.WriteByte(hex[c&15])
		}
	}
}
