package ecma

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// The parser reads a Go string. A JS string's text is UTF-8 but for its
// lone surrogates, which goja's String() turns into U+FFFD: where the
// text has a U+FFFD, it is read again from its code units, lone
// surrogates written as WTF-8 (the three bytes UTF-8 would give them),
// and appendUnits turns them back into the units they were.

// jsText is the text of JSON.parse's argument, and whether it was
// written as WTF-8.
func jsText(v goja.Value) (string, bool) {
	s := v.String()
	if !strings.Contains(s, string(utf8.RuneError)) {
		return s, false
	}
	js, ok := v.(goja.String)
	if !ok {
		return s, false
	}
	n := js.Length()
	b := make([]byte, 0, len(s))
	for k := 0; k < n; k++ {
		c := rune(js.CharAt(k))
		if utf16.IsSurrogate(c) && c < 0xDC00 && k+1 < n {
			if d := rune(js.CharAt(k + 1)); d >= 0xDC00 && d <= 0xDFFF {
				b = utf8.AppendRune(b, utf16.DecodeRune(c, d))
				k++
				continue
			}
		}
		if utf16.IsSurrogate(c) {
			b = append(b, 0xE0|byte(c>>12), 0x80|byte(c>>6)&0x3F, 0x80|byte(c)&0x3F)
			continue
		}
		b = utf8.AppendRune(b, c)
	}
	return string(b), true
}

// appendUnits appends the code units of the UTF-8 sequence at s[i] (with
// wtf8, a surrogate's too), and says how many bytes it took. Bytes that
// are not UTF-8 are U+FFFD each, as encoding/json and TextDecoder make
// them.
func appendUnits(u []uint16, s string, i int, wtf8 bool) ([]uint16, int) {
	if c := s[i]; wtf8 && c == 0xED && i+2 < len(s) && s[i+1] >= 0xA0 && s[i+1] <= 0xBF && s[i+2]&0xC0 == 0x80 {
		return append(u, 0xD000|uint16(s[i+1]&0x3F)<<6|uint16(s[i+2]&0x3F)), 3
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r >= 0x10000 {
		a, b := utf16.EncodeRune(r)
		return append(u, uint16(a), uint16(b)), n
	}
	return append(u, uint16(r)), n
}

// textUnits is the whole text as code units (on the error path only).
func textUnits(s string, wtf8 bool) []uint16 {
	u := make([]uint16, 0, len(s))
	for i := 0; i < len(s); {
		var n int
		u, n = appendUnits(u, s, i, wtf8)
		i += n
	}
	return u
}

// V8's messages (Node's and Chrome's JSON.parse).
type parseMsg uint8

const (
	msgEnd parseMsg = iota
	msgToken
	msgNumber
	msgPropOrBrace
	msgPropName
	msgColon
	msgCommaBrace
	msgCommaBracket
	msgUnterminated
	msgControl
	msgEscape
	msgUnicode
	msgMinus
	msgFraction
	msgExponent
	msgAfterJSON
	msgDeep
)

var parseTexts = [...]string{
	msgNumber:       "Unexpected number in JSON at position %d",
	msgPropOrBrace:  "Expected property name or '}' in JSON at position %d",
	msgPropName:     "Expected double-quoted property name in JSON at position %d",
	msgColon:        "Expected ':' after property name in JSON at position %d",
	msgCommaBrace:   "Expected ',' or '}' after property value in JSON at position %d",
	msgCommaBracket: "Expected ',' or ']' after array element in JSON at position %d",
	msgUnterminated: "Unterminated string in JSON at position %d",
	msgControl:      "Bad control character in string literal in JSON at position %d",
	msgEscape:       "Bad escaped character in JSON at position %d",
	msgUnicode:      "Bad Unicode escape in JSON at position %d",
	msgMinus:        "No number after minus sign in JSON at position %d",
	msgFraction:     "Unterminated fractional number in JSON at position %d",
	msgExponent:     "Exponent part is missing a number in JSON at position %d",
	msgAfterJSON:    "Unexpected non-whitespace character after JSON at position %d",
}

type parseError struct {
	at  int // byte offset in the text
	msg parseMsg
}

// fail records the first failure; the parse unwinds on it.
func (p *Parser) fail(at int, msg parseMsg) {
	if p.err == nil {
		p.err = &parseError{at: at, msg: msg}
	}
}

// Beyond this length V8 quotes the text around the unexpected token, not
// all of it.
const (
	contextChars   = 10
	minContextText = 21
)

// value is the error to throw: a SyntaxError worded as V8's, positions in
// code units.
func (e *parseError) value(p *Parser) goja.Value {
	if e.msg == msgDeep {
		return p.newError(p.rangeE, goja.StringFromUTF16(utf16.Encode([]rune(fmt.Sprintf(
			"JSON.parse: the text nests more than %d levels deep, more than the tool host parses", maxParseDepth)))))
	}
	text := textUnits(p.s, p.wtf8)
	pos := len(textUnits(p.s[:e.at], p.wtf8))
	switch e.msg {
	case msgEnd:
		return p.syntaxError("Unexpected end of JSON input")
	case msgToken:
		return p.newError(p.syntax, goja.StringFromUTF16(tokenMessage(text, pos)))
	}
	return p.syntaxError(fmt.Sprintf(parseTexts[e.msg], pos))
}

// tokenMessage is V8's "Unexpected token" message, with the text or the
// part of it around pos.
func tokenMessage(text []uint16, pos int) []uint16 {
	whole := string(utf16.Decode(text))
	switch whole {
	case "NaN", "Infinity", "undefined", "[object Object]":
		return utf16.Encode([]rune(`"` + whole + `" is not valid JSON`))
	}
	n := len(text)
	lead, excerpt, trail := "", text, ""
	switch {
	case n < minContextText:
	case pos < contextChars:
		excerpt, trail = text[:pos+contextChars], "..."
	case pos < n-contextChars:
		lead, excerpt, trail = "...", text[pos-contextChars:pos+contextChars], "..."
	default:
		lead, excerpt = "...", text[pos-contextChars:]
	}
	m := utf16.Encode([]rune("Unexpected token '"))
	m = append(m, text[pos])
	m = append(m, utf16.Encode([]rune("', "+lead+`"`))...)
	m = append(m, excerpt...)
	return append(m, utf16.Encode([]rune(`"`+trail+" is not valid JSON"))...)
}

func (p *Parser) syntaxError(msg string) goja.Value {
	return p.newError(p.syntax, p.vm.ToValue(msg))
}

func (p *Parser) newError(ctor, msg goja.Value) goja.Value {
	if c, ok := goja.AssertConstructor(ctor); ok {
		if e, err := c(nil, msg); err == nil {
			return e
		}
	}
	return p.vm.NewTypeError(msg.String())
}
