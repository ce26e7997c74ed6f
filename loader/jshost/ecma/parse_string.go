package ecma

import (
	"strings"

	"github.com/dop251/goja"
)

// str parses a string value.
func (p *Parser) str() goja.Value {
	start := p.i + 1
	j := plainEnd(p.s, start)
	if j < len(p.s) && p.s[j] == '"' {
		p.i = j + 1
		raw := p.s[start:j]
		if len(raw) > maxShort {
			return p.vm.ToValue(strings.Clone(raw))
		}
		// Short values repeat (enums, tags, units): one JS string serves.
		if v, ok := p.short[raw]; ok {
			return v
		}
		v := p.vm.ToValue(strings.Clone(raw))
		if p.short == nil {
			p.short = make(map[string]goja.Value)
		}
		if len(p.short) < maxInterned {
			p.short[raw] = v
		}
		return v
	}
	units, ascii, ok := p.decode(start)
	if !ok {
		return nil
	}
	if ascii {
		return p.vm.ToValue(asciiOf(units))
	}
	return goja.StringFromUTF16(units)
}

// key parses a property name: a Go string, or (keyV) a JS string when it
// holds a lone surrogate.
func (p *Parser) key() (string, goja.Value, bool) {
	start := p.i + 1
	j := plainEnd(p.s, start)
	if j < len(p.s) && p.s[j] == '"' {
		p.i = j + 1
		raw := p.s[start:j]
		if k, ok := p.keys[raw]; ok {
			return k, nil, true
		}
		k := strings.Clone(raw)
		if p.keys == nil {
			p.keys = make(map[string]string)
		}
		if len(p.keys) < maxInterned {
			p.keys[k] = k
		}
		return k, nil, true
	}
	units, ascii, ok := p.decode(start)
	if !ok {
		return "", nil, false
	}
	if ascii {
		return asciiOf(units), nil, true
	}
	if loneSurrogate(units) {
		return "", goja.StringFromUTF16(units), true
	}
	return goja.StringFromUTF16(units).String(), nil, true
}

// plainEnd is where the run of printable ASCII without escapes that
// starts at i ends.
func plainEnd(s string, i int) int {
	for i < len(s) {
		c := s[i]
		if c < 0x20 || c >= 0x80 || c == '"' || c == '\\' {
			return i
		}
		i++
	}
	return i
}

// decode reads the string whose content starts at start into p.units,
// up to and past its closing quote.
func (p *Parser) decode(start int) (units []uint16, ascii, ok bool) {
	s := p.s
	u := p.units[:0]
	ascii = true
	j := start
	for {
		if j >= len(s) {
			p.fail(j, msgUnterminated)
			return nil, false, false
		}
		c := s[j]
		switch {
		case c == '"':
			p.i = j + 1
			p.units = u
			return u, ascii, true
		case c < 0x20:
			p.fail(j, msgControl)
			return nil, false, false
		case c == '\\':
			j++
			if j >= len(s) {
				p.fail(j, msgEnd)
				return nil, false, false
			}
			var r uint16
			switch s[j] {
			case '"', '\\', '/':
				r = uint16(s[j])
			case 'b':
				r = '\b'
			case 'f':
				r = '\f'
			case 'n':
				r = '\n'
			case 'r':
				r = '\r'
			case 't':
				r = '\t'
			case 'u':
				for k := 1; k <= 4; k++ {
					h, ok := hexVal(s, j+k)
					if !ok {
						p.fail(j+k, msgUnicode)
						return nil, false, false
					}
					r = r<<4 | h
				}
				j += 4
			default:
				p.fail(j, msgEscape)
				return nil, false, false
			}
			j++
			if r >= 0x80 {
				ascii = false
			}
			u = append(u, r)
		case c < 0x80:
			u = append(u, uint16(c))
			j++
		default:
			ascii = false
			var n int
			u, n = appendUnits(u, s, j, p.wtf8)
			j += n
		}
	}
}

func hexVal(s string, i int) (uint16, bool) {
	if i >= len(s) {
		return 0, false
	}
	switch c := s[i]; {
	case c >= '0' && c <= '9':
		return uint16(c - '0'), true
	case c >= 'a' && c <= 'f':
		return uint16(c-'a') + 10, true
	case c >= 'A' && c <= 'F':
		return uint16(c-'A') + 10, true
	}
	return 0, false
}

func asciiOf(units []uint16) string {
	var b strings.Builder
	b.Grow(len(units))
	for _, c := range units {
		b.WriteByte(byte(c))
	}
	return b.String()
}

func loneSurrogate(units []uint16) bool {
	for k := 0; k < len(units); k++ {
		c := units[k]
		if c >= 0xD800 && c <= 0xDBFF && k+1 < len(units) && units[k+1] >= 0xDC00 && units[k+1] <= 0xDFFF {
			k++
			continue
		}
		if c >= 0xD800 && c <= 0xDFFF {
			return true
		}
	}
	return false
}
