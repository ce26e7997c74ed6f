package web

import (
	"strconv"
	"strings"
	"unicode/utf8"

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
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b = append(b, unhex(s[i+1])<<4|unhex(s[i+2]))
			i += 2
		default:
			b = append(b, c)
		}
	}
	return decodeUTF8(b)
}

// decodeUTF8 is the standard's UTF-8 decode: each maximal subpart of an
// ill-formed sequence becomes one U+FFFD (as TextDecoder and Node do).
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r != utf8.RuneError || n > 1 {
			out.Write(b[:n])
			b = b[n:]
			continue
		}
		out.WriteRune(utf8.RuneError)
		b = b[subpart(b):]
	}
	return out.String()
}

// subpart is the length of the maximal subpart of the ill-formed sequence
// b starts with: its lead byte and the continuation bytes that could still
// have made a well-formed sequence (at least 1).
func subpart(b []byte) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := b[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(b); n++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
	}
	return n
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
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
