package ecma

import (
	"fmt"
	"strconv"
	"strings"
)

// needsTranslation reports whether goja would compile source (with flags)
// otherwise than the standard says, in a way translate mends: a property
// escape (\p{...}, \P{...}) under the u flag, which goja reads as the
// letters "p{...}". It is the fast path of every RegExp construction.
func needsTranslation(source, flags string) bool {
	return strings.ContainsRune(flags, 'u') && (strings.Contains(source, `\p{`) || strings.Contains(source, `\P{`))
}

// translate rewrites a u-flag pattern's property escapes as the classes
// of code points they stand for, which goja's u mode matches rightly
// (astral ones included): \p{L} outside a class becomes [...], inside one
// its ranges join the class; \P{...} is the complement. Code points are
// written \u{...}, a form goja never fuses (as it fuses \uD83D\uDE00 into
// one code point). An escape of a property it cannot match is an error
// naming the property.
func translate(source string) (string, error) {
	var b strings.Builder
	b.Grow(len(source) + 64)
	inClass := false
	for i := 0; i < len(source); i++ {
		c := source[i]
		switch {
		case c == '\\' && i+1 < len(source):
			next := source[i+1]
			if (next == 'p' || next == 'P') && i+2 < len(source) && source[i+2] == '{' {
				end := strings.IndexByte(source[i+3:], '}')
				if end < 0 {
					return "", patternError("Invalid property name")
				}
				name := source[i+3 : i+3+end]
				s, err := property(name)
				if err != nil {
					return "", err
				}
				if next == 'P' {
					s = complement(s)
				}
				switch {
				case !inClass && len(s) == 0:
					b.WriteString(`[^\u{0}-\u{10ffff}]`) // matches nothing
				case !inClass:
					b.WriteByte('[')
				}
				writeSet(&b, s)
				if !inClass && len(s) > 0 {
					b.WriteByte(']')
				}
				i += 3 + end
				continue
			}
			b.WriteByte(c)
			b.WriteByte(next)
			i++
		case c == '[' && !inClass:
			inClass = true
			b.WriteByte(c)
		case c == ']' && inClass:
			inClass = false
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

// writeSet writes a set's spans as class ranges (nothing for the empty
// set, \P{Any}).
func writeSet(b *strings.Builder, s set) {
	for _, p := range s {
		writeCode(b, p.lo)
		if p.hi != p.lo {
			if p.hi > p.lo+1 {
				b.WriteByte('-')
			}
			writeCode(b, p.hi)
		}
	}
}

func writeCode(b *strings.Builder, c rune) {
	b.WriteString(`\u{`)
	b.WriteString(strconv.FormatInt(int64(c), 16))
	b.WriteByte('}')
}

// patternError is what is wrong with a pattern, worded as V8 words it
// ("Invalid property name"): RegExp throws it as a SyntaxError's message.
type patternError string

func (e patternError) Error() string { return string(e) }

func patternErrorf(format string, args ...any) error {
	return patternError(fmt.Sprintf(format, args...))
}
