package ecma

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The v flag (unicodeSets), which goja refuses: its classes nest and
// take set operations ([\p{L}--[a-z]], [\p{Greek}&&\p{Lu}]). translateV
// computes each class of a v pattern as a set and writes it as a plain
// class; what is left is a u pattern (translate then rewrites its
// property escapes). Strings in classes (\q{...}, properties of strings)
// are refused: a class of them is no set of code points.
func translateV(source string) (string, error) {
	var b strings.Builder
	for i := 0; i < len(source); {
		switch c := source[i]; {
		case c == '\\' && i+1 < len(source):
			_, n := utf8.DecodeRuneInString(source[i+1:])
			b.WriteString(source[i : i+1+n])
			i += 1 + n
		case c == '[':
			p := &vParser{s: source, i: i}
			s, err := p.class()
			if err != nil {
				return "", err
			}
			if len(s) == 0 {
				b.WriteString(`[^\u{0}-\u{10ffff}]`)
			} else {
				b.WriteByte('[')
				writeSet(&b, s)
				b.WriteByte(']')
			}
			i = p.i
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), nil
}

type vParser struct {
	s string
	i int
}

var errVClass = patternError("Invalid set operation in character class")

// class parses [...] at p.i: a union of operands, or operands joined by
// one of && and --.
func (p *vParser) class() (set, error) {
	p.i++ // [
	negate := p.eat("^")
	var acc set
	op := ""
	first := true
	for {
		if p.i >= len(p.s) {
			return nil, patternError("Unterminated character class")
		}
		if p.eat("]") {
			break
		}
		if p.eat("&&") || p.eat("--") {
			o := p.s[p.i-2 : p.i]
			if first || (op != "" && op != o) {
				return nil, errVClass
			}
			op = o
			s, err := p.operand()
			if err != nil {
				return nil, err
			}
			if o == "&&" {
				acc = intersect(acc, s)
			} else {
				acc = minus(acc, s)
			}
			continue
		}
		if op != "" {
			return nil, errVClass // [a--b c]: a union after an operation
		}
		s, err := p.operand()
		if err != nil {
			return nil, err
		}
		if !first && p.peekOp() {
			// [ab--c] is no valid v class: an operation needs its left
			// side alone.
			return nil, errVClass
		}
		acc = union(acc, s)
		first = false
	}
	if negate {
		acc = complement(acc)
	}
	return acc, nil
}

func (p *vParser) peekOp() bool {
	return strings.HasPrefix(p.s[p.i:], "&&") || strings.HasPrefix(p.s[p.i:], "--")
}

func (p *vParser) eat(t string) bool {
	if strings.HasPrefix(p.s[p.i:], t) {
		p.i += len(t)
		return true
	}
	return false
}

// operand is a nested class, a class escape, or a character or a range.
func (p *vParser) operand() (set, error) {
	if p.i >= len(p.s) {
		return nil, patternError("Unterminated character class")
	}
	if p.s[p.i] == '[' {
		return p.class()
	}
	if p.s[p.i] == '\\' && p.i+1 < len(p.s) {
		switch e := p.s[p.i+1]; e {
		case 'p', 'P':
			end := strings.IndexByte(p.s[p.i:], '}')
			if end < 0 || p.i+2 >= len(p.s) || p.s[p.i+2] != '{' {
				return nil, patternError("Invalid property name")
			}
			s, err := property(p.s[p.i+3 : p.i+end])
			if err != nil {
				return nil, err
			}
			p.i += end + 1
			if e == 'P' {
				s = complement(s)
			}
			return s, nil
		case 'q':
			return nil, patternError("beeuni cannot match \\q{...} (strings in a class) under the v flag")
		case 'd', 'D', 'w', 'W', 's', 'S':
			p.i += 2
			s := classEscape(e | 0x20)
			if e < 'a' {
				s = complement(s)
			}
			return s, nil
		}
	}
	lo, err := p.char()
	if err != nil {
		return nil, err
	}
	if strings.HasPrefix(p.s[p.i:], "-") && !strings.HasPrefix(p.s[p.i:], "--") {
		p.i++
		hi, err := p.char()
		if err != nil {
			return nil, err
		}
		if hi < lo {
			return nil, patternError("Range out of order in character class")
		}
		return set{{lo, hi}}, nil
	}
	return set{{lo, lo}}, nil
}

// classEscape is \d, \w or \s.
func classEscape(e byte) set {
	switch e {
	case 'd':
		return set{{'0', '9'}}
	case 'w':
		return normalize(set{{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}})
	}
	var s set
	for _, c := range "\t\n\v\f\r \u00a0\u1680\u2028\u2029\u202f\u205f\u3000\ufeff" {
		s = append(s, span{c, c})
	}
	return normalize(append(s, span{0x2000, 0x200a}))
}

// char is one class character: itself, or an escape of one.
func (p *vParser) char() (rune, error) {
	s := p.s[p.i:]
	if s[0] != '\\' {
		if strings.IndexByte("()[]{}/-|", s[0]) >= 0 {
			return 0, patternError("Invalid character in character class")
		}
		c, n := utf8.DecodeRuneInString(s)
		p.i += n
		return c, nil
	}
	if len(s) < 2 {
		return 0, patternError("\\ at end of pattern")
	}
	switch e := s[1]; e {
	case 'u':
		if strings.HasPrefix(s[2:], "{") {
			end := strings.IndexByte(s, '}')
			v, err := strconv.ParseUint(s[3:max(end, 3)], 16, 32)
			if end < 0 || err != nil || v > 0x10FFFF {
				return 0, patternError("Invalid Unicode escape")
			}
			p.i += end + 1
			return rune(v), nil
		}
		v, ok := hex4(s[2:])
		if !ok {
			return 0, patternError("Invalid Unicode escape")
		}
		p.i += 6
		if v >= surrogateLo && v < 0xDC00 && strings.HasPrefix(s[6:], `\u`) {
			if lo, ok := hex4(s[8:]); ok && lo >= 0xDC00 && lo <= surrogateHi {
				p.i += 6
				return utf16.DecodeRune(v, lo), nil
			}
		}
		return v, nil
	case 'x':
		if v, err := strconv.ParseUint(s[2:min(4, len(s))], 16, 8); err == nil && len(s) >= 4 {
			p.i += 4
			return rune(v), nil
		}
		return 0, patternError("Invalid escape")
	case 'c':
		if len(s) > 2 && (s[2]|0x20) >= 'a' && (s[2]|0x20) <= 'z' {
			p.i += 3
			return rune(s[2] % 32), nil
		}
		return 0, patternError("Invalid class escape")
	}
	controls := map[byte]rune{'n': '\n', 'r': '\r', 't': '\t', 'v': '\v', 'f': '\f', 'b': '\b', '0': 0}
	if c, ok := controls[s[1]]; ok {
		p.i += 2
		return c, nil
	}
	c, n := utf8.DecodeRuneInString(s[1:])
	if c < utf8.RuneSelf && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
		return 0, patternError("Invalid escape")
	}
	p.i += 1 + n
	return c, nil
}
