package ecma

import "strings"

// appendIndent lays out compact JSON (goja's JSON.stringify without a
// gap) as the standard's algorithm does with one, starting depth levels
// in: a member or element per line, gap repeated per level, ": " after a
// key, [] and {} left empty. It prints what encoding/json's Indent prints,
// without re-validating text that is JSON by construction.
func appendIndent(b []byte, src, gap string, depth int) []byte {
	newline := func() {
		b = append(b, '\n')
		for range depth {
			b = append(b, gap...)
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
			b = append(b, src[i:j+1]...)
			i = j
		case '{', '[':
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				b = append(b, src[i:i+2]...)
				i++
				continue
			}
			b = append(b, c)
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			b = append(b, c)
		case ',':
			b = append(b, ',')
			newline()
		case ':':
			b = append(b, ':', ' ')
		default:
			// A number or a literal: copy up to the next structural byte.
			j := i + 1
			for j < len(src) && strings.IndexByte(",:{}[]\"", src[j]) < 0 {
				j++
			}
			b = append(b, src[i:j]...)
			i = j - 1
		}
	}
	return b
}
