package web

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// textEncodings are the WHATWG labels of the encodings TextDecoder
// knows, by canonical name (latin1 and ascii are windows-1252 there).
var textEncodings = map[string][]string{
	"utf-8":        {"unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"},
	"utf-16le":     {"csunicode", "iso-10646-ucs-2", "ucs-2", "unicode", "unicodefeff", "utf-16", "utf-16le"},
	"utf-16be":     {"unicodefffe", "utf-16be"},
	"windows-1252": {"ansi_x3.4-1968", "ascii", "cp1252", "cp819", "csisolatin1", "ibm819", "iso-8859-1", "iso-ir-100", "iso8859-1", "iso88591", "iso_8859-1", "iso_8859-1:1987", "l1", "latin1", "us-ascii", "windows-1252", "x-cp1252"},
}

// textLabel is the canonical name of a TextDecoder label, or "".
func textLabel(label string) string {
	l := strings.ToLower(strings.Trim(label, "\t\n\f\r "))
	for name, labels := range textEncodings {
		for _, x := range labels {
			if x == l {
				return name
			}
		}
	}
	return ""
}

// cp1252 is windows-1252 from 0x80 to 0x9f (the rest is Latin-1).
var cp1252 = [32]uint16{
	0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
	0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
}

// textDecode is js/web.js's n.textDecode: data in encoding enc as text,
// and how many bytes it used: with stream, an incomplete character at
// the end is left for the next call.
func textDecode(r *rt.Runtime) func(enc string, v goja.Value, fatal, stream bool) []any {
	vm := r.VM
	invalid := func(enc string) {
		panic(vm.NewTypeError("The encoded data was not valid for encoding " + enc))
	}
	return func(enc string, v goja.Value, fatal, stream bool) []any {
		var b []byte
		// An empty view is not exported: at the end of its buffer goja
		// would point past it (fatal under checkptr, -race).
		if o, ok := v.(*goja.Object); !ok || o.Get("byteLength") == nil || o.Get("byteLength").ToInteger() != 0 {
			b = buffer.DecodeBytes(vm, v, goja.Undefined())
		}
		switch enc {
		case "windows-1252":
			u := make([]uint16, len(b))
			for i, c := range b {
				u[i] = uint16(c)
				if c >= 0x80 && c < 0xa0 {
					u[i] = cp1252[c-0x80]
				}
			}
			return []any{goja.StringFromUTF16(u), len(b)}
		case "utf-16le", "utf-16be":
			n := len(b) &^ 1
			u := make([]uint16, n/2)
			for i := range u {
				lo, hi := b[2*i], b[2*i+1]
				if enc == "utf-16be" {
					lo, hi = hi, lo
				}
				u[i] = uint16(lo) | uint16(hi)<<8
			}
			if stream && len(u) > 0 && utf16.IsSurrogate(rune(u[len(u)-1])) && u[len(u)-1] < 0xdc00 {
				u, n = u[:len(u)-1], n-2 // a lead surrogate waits for its pair
			}
			runes := utf16.Decode(u) // lone surrogates become U+FFFD
			if fatal && hasLoneSurrogate(u) {
				invalid(enc)
			}
			text := string(runes)
			if !stream && n < len(b) {
				if fatal {
					invalid(enc)
				}
				text += "\uFFFD"
				n = len(b)
			}
			return []any{text, n}
		}
		n := len(b)
		if stream {
			n -= incompleteTail(b)
		}
		if fatal && !utf8.Valid(b[:n]) {
			invalid(enc)
		}
		return []any{rt.DecodeUTF8(b[:n]), n}
	}
}

func hasLoneSurrogate(u []uint16) bool {
	for i := 0; i < len(u); i++ {
		switch c := u[i]; {
		case c >= 0xd800 && c < 0xdc00:
			if i+1 >= len(u) || u[i+1] < 0xdc00 || u[i+1] > 0xdfff {
				return true
			}
			i++
		case c >= 0xdc00 && c <= 0xdfff:
			return true
		}
	}
	return false
}

// incompleteTail is how many bytes at the end of b begin a UTF-8
// character that is not complete yet.
func incompleteTail(b []byte) int {
	for k := 1; k <= 3 && k <= len(b); k++ {
		c := b[len(b)-k]
		if c&0xc0 == 0x80 {
			continue // a continuation byte: look further back
		}
		need := 0
		switch {
		case c >= 0xc2 && c <= 0xdf:
			need = 2
		case c >= 0xe0 && c <= 0xef:
			need = 3
		case c >= 0xf0 && c <= 0xf4:
			need = 4
		}
		if need > k && !utf8.FullRune(b[len(b)-k:]) {
			return k
		}
		return 0
	}
	return 0
}
