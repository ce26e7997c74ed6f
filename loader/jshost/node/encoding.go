package node

import (
	"bytes"
	"encoding/base64"
	"strings"
	"unicode/utf16"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Buffer's string encodings, as Node has them. goja_nodejs's buffer knows
// utf8, hex and base64 only (and base64url under the wrong name), so the
// Buffer methods that take an encoding go through these.

// encodingName is Node's canonical name of enc, or "" when Node has no
// such encoding (Buffer.isEncoding).
func encodingName(enc string) string {
	switch strings.ToLower(enc) {
	case "utf8", "utf-8":
		return "utf8"
	case "hex":
		return "hex"
	case "base64":
		return "base64"
	case "base64url":
		return "base64url"
	case "latin1", "binary":
		return "latin1"
	case "ascii":
		return "ascii"
	case "utf16le", "utf-16le", "ucs2", "ucs-2":
		return "utf16le"
	}
	return ""
}

// codecOf is the canonical name of the encoding argument v (utf8 when
// undefined), or a TypeError as Node throws it.
func codecOf(r *rt.Runtime, v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return "utf8"
	}
	name := encodingName(v.String())
	if name == "" {
		panic(r.VM.NewTypeError("Unknown encoding: " + v.String()))
	}
	return name
}

// units is s as UTF-16 code units, lone surrogates kept.
func units(v goja.Value) []uint16 {
	if s, ok := v.(goja.String); ok {
		u := make([]uint16, s.Length())
		for i := range u {
			u[i] = s.CharAt(i)
		}
		return u
	}
	return utf16.Encode([]rune(v.String()))
}

// decodeString is the bytes of the string v in encoding enc (Buffer.from,
// write, fill, byteLength).
func decodeString(v goja.Value, enc string) []byte {
	switch enc {
	case "hex":
		// Node stops at the first pair that is not hex; an odd last digit
		// is dropped.
		s := v.String()
		out := make([]byte, 0, len(s)/2)
		for i := 0; i+1 < len(s); i += 2 {
			hi, ok1 := hexDigit(s[i])
			lo, ok2 := hexDigit(s[i+1])
			if !ok1 || !ok2 {
				break
			}
			out = append(out, hi<<4|lo)
		}
		return out
	case "base64", "base64url":
		// Node reads both alphabets, skips white space and stops at '='.
		return decodeBase64(v.String())
	case "latin1", "ascii":
		u := units(v)
		out := make([]byte, len(u))
		for i, c := range u {
			out[i] = byte(c)
		}
		return out
	case "utf16le":
		u := units(v)
		out := make([]byte, 2*len(u))
		for i, c := range u {
			out[2*i], out[2*i+1] = byte(c), byte(c>>8)
		}
		return out
	}
	return utf8Bytes(units(v))
}

// utf8Bytes is UTF-8 of UTF-16 units, a lone surrogate as U+FFFD as in
// Node.
func utf8Bytes(u []uint16) []byte {
	var b bytes.Buffer
	b.Grow(len(u))
	for _, c := range utf16.Decode(u) {
		b.WriteRune(c)
	}
	return b.Bytes()
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// encodeBytes is b as a string in encoding enc (Buffer#toString).
func encodeBytes(vm *goja.Runtime, b []byte, enc string) goja.Value {
	switch enc {
	case "hex":
		const digits = "0123456789abcdef"
		out := make([]byte, 2*len(b))
		for i, c := range b {
			out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
		}
		return vm.ToValue(string(out))
	case "base64":
		return vm.ToValue(base64.StdEncoding.EncodeToString(b))
	case "base64url":
		return vm.ToValue(base64.RawURLEncoding.EncodeToString(b))
	case "latin1", "ascii":
		u := make([]uint16, len(b))
		mask := uint16(0xff)
		if enc == "ascii" {
			mask = 0x7f
		}
		for i, c := range b {
			u[i] = uint16(c) & mask
		}
		return vm.ToValue(goja.StringFromUTF16(u))
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return vm.ToValue(goja.StringFromUTF16(u))
	}
	return vm.ToValue(rt.DecodeUTF8(b))
}

// decodeBase64 decodes s as Node does: either alphabet, characters
// outside it (white space) skipped, '=' ends the data.
func decodeBase64(s string) []byte {
	out := make([]byte, 0, len(s)*3/4)
	var acc uint32
	bits := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		var d byte
		switch {
		case c >= 'A' && c <= 'Z':
			d = c - 'A'
		case c >= 'a' && c <= 'z':
			d = c - 'a' + 26
		case c >= '0' && c <= '9':
			d = c - '0' + 52
		case c == '+' || c == '-':
			d = 62
		case c == '/' || c == '_':
			d = 63
		case c == '=':
			return out
		default:
			continue
		}
		acc = acc<<6 | uint32(d)
		bits += 6
		if bits >= 8 {
			bits -= 8
			out = append(out, byte(acc>>bits))
		}
	}
	return out
}
