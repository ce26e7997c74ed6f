package ecma

import "strings"

// indent lays out compact JSON (goja's JSON.stringify without a gap) as
// the standard's algorithm does with one: a member or element per line,
// gap repeated per level, ": " after a key, [] and {} left empty. It is
// what encoding/json's Indent prints, without re-validating text that is
// JSON by construction: the host indents every object a tool returns, and
// Indent's scanner was a tenth of a 10 KB call.
func indent(src, gap string) string {
	var b strings.Builder
	b.Grow(len(src) + len(src)/2)
	depth := 0
	newline := func() {
		b.WriteByte('\n')
		for range depth {
			b.WriteString(gap)
		}
	}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; c {
		case '"':
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j, len(src)-1)
			b.WriteString(src[i : j+1])
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				b.WriteString(src[i : i+2])
				i++
				continue
			}
			b.WriteByte(c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			b.WriteByte(c)
		case ',':
			b.WriteByte(',')
			newline()
		case ':':
			b.WriteString(": ")
		default:
			// A number or a literal: copy up to the next structural byte.
			j := i + 1
			for j < len(src) && strings.IndexByte(",:{}[]\"", src[j]) < 0 {
				j++
			}
			b.WriteString(src[i:j])
			i = j - 1
		}
	}
	return b.String()
}
