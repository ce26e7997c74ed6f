package ecma

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Surrogates without the u flag. goja matches a pattern without u over
// UTF-16 code units with regexp2 (for g, y and non-ASCII text), and
// regexp2 tells its classes and strings apart by their UTF-8 form, in
// which every surrogate is U+FFFD: /[\uD800-\uDBFF][\uDC00-\uDFFF]/g
// becomes [\uD800-\uDBFF][\uD800-\uDBFF] and matches no pair (he's astral
// symbols, emoji counting). Such a pattern (one with a surrogate escape
// or an astral character, which goja splits into two) runs on regexp2
// here (regexp_exec.go), over units where each surrogate stands as a code
// point of Plane 15 (U+F0000 + its offset from U+D800), which a string
// seen as units never holds otherwise: the classes stay distinct and
// match the same units.

const (
	surrogateLo, surrogateHi = 0xD800, 0xDFFF
	surrogateBase            = 0xF0000 // where the surrogates stand
)

func isSurrogate(c rune) bool { return c >= surrogateLo && c <= surrogateHi }

func standIn(c rune) rune {
	if isSurrogate(c) {
		return surrogateBase + c - surrogateLo
	}
	return c
}

// needsPairs reports whether a pattern without u has a surrogate (an
// escape of one or an astral character, which is two).
func needsPairs(source, flags string) bool {
	if strings.ContainsAny(flags, "uv") {
		return false
	}
	for i := 0; i < len(source); i++ {
		c := source[i]
		if c >= 0xF0 { // the first byte of a 4-byte UTF-8 sequence: an astral character
			return true
		}
		if c == '\\' && i+1 < len(source) && source[i+1] == 'u' {
			if v, ok := hex4(source[i+2:]); ok && isSurrogate(v) {
				return true
			}
		}
	}
	return false
}

func hex4(s string) (rune, bool) {
	if len(s) < 4 {
		return 0, false
	}
	v, err := strconv.ParseUint(s[:4], 16, 32)
	return rune(v), err == nil
}

// pairsPattern is the pattern for regexp2 over stand-ins: astral
// characters become their two surrogates, and every surrogate, alone or
// at the end of a class range, its stand-in (a range across the
// surrogates is cut in three).
func pairsPattern(source string) string {
	var b strings.Builder
	inClass := false
	for i := 0; i < len(source); {
		a, n := nextAtom(source[i:])
		i += n
		switch {
		case !inClass && a.text == "[":
			inClass = true
			b.WriteString("[")
			if strings.HasPrefix(source[i:], "^") {
				b.WriteString("^")
				i++
			}
			if strings.HasPrefix(source[i:], "]") { // [] and [^]
				b.WriteString("]")
				i++
				inClass = false
			}
		case !inClass:
			writeAtom(&b, a)
		case a.text == "]":
			inClass = false
			b.WriteString("]")
		case a.value >= 0 && strings.HasPrefix(source[i:], "-") && !strings.HasPrefix(source[i:], "-]"):
			hi, m := nextAtom(source[i+1:])
			if hi.value < 0 {
				writeAtom(&b, a) // [a-\d]: no range (Annex B), written as it was
				b.WriteString(`\-`)
				i++
				continue
			}
			i += 1 + m
			writeRange(&b, a, hi)
		default:
			writeAtom(&b, a)
		}
	}
	return b.String()
}

// atom is one character of a pattern: value is the code unit it matches,
// -1 for anything else (a class escape, a group's parenthesis...).
type atom struct {
	text   string
	value  rune
	astral rune // value -2: an astral character, two units
}

func nextAtom(s string) (atom, int) {
	if s[0] != '\\' || len(s) == 1 {
		c, n := utf8.DecodeRuneInString(s)
		if c > 0xFFFF {
			return atom{text: s[:n], value: -2, astral: c}, n
		}
		v := c
		if strings.ContainsRune("()[]{}|*+?.^$", c) {
			v = -1
		}
		return atom{text: s[:n], value: v}, n
	}
	e := s[1]
	switch {
	case e == 'u':
		if v, ok := hex4(s[2:]); ok {
			return atom{text: s[:6], value: v}, 6
		}
	case e == 'x' && len(s) >= 4:
		if v, err := strconv.ParseUint(s[2:4], 16, 8); err == nil {
			return atom{text: s[:4], value: rune(v)}, 4
		}
	case strings.IndexByte("dDsSwWbBk123456789", e) >= 0:
		return atom{text: s[:2], value: -1}, 2
	}
	c, n := utf8.DecodeRuneInString(s[1:])
	if c > 0xFFFF { // \😀: the escape of the first unit, then the second
		return atom{text: s[:1+n], value: -2, astral: c}, 1 + n
	}
	// \n, \t, \0, \cX and identity escapes: small or the character itself;
	// either way not a surrogate.
	return atom{text: s[:1+n], value: 0}, 1 + n
}

func writeAtom(b *strings.Builder, a atom) {
	switch {
	case a.value == -2: // an astral character: its two units' stand-ins
		hi, lo := utf16.EncodeRune(a.astral)
		b.WriteRune(standIn(hi))
		b.WriteRune(standIn(lo))
	case a.value >= 0 && isSurrogate(a.value):
		b.WriteRune(standIn(a.value))
	default:
		b.WriteString(a.text)
	}
}

// writeRange writes lo-hi with the surrogates in it as stand-ins.
func writeRange(b *strings.Builder, lo, hi atom) {
	if hi.value < surrogateLo || lo.value > surrogateHi {
		b.WriteString(lo.text + "-" + hi.text)
		return
	}
	if lo.value < surrogateLo {
		b.WriteString(lo.text + `-\uD7FF`)
	}
	b.WriteRune(standIn(max(lo.value, surrogateLo)))
	b.WriteString("-")
	b.WriteRune(standIn(min(hi.value, surrogateHi)))
	if hi.value > surrogateHi {
		b.WriteString(`\uE000-` + hi.text)
	}
}
