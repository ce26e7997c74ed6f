package bun

import (
	"strings"
	"unicode"

	"golang.org/x/text/width"
)

// escapeHTML is Bun.escapeHTML: & < > " ' as entities.
func escapeHTML(s string) string {
	if !strings.ContainsAny(s, `&<>"'`) {
		return s
	}
	return htmlEscaper.Replace(s)
}

var htmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#x27;")

// stringWidth is Bun.stringWidth: the columns s takes in a terminal.
// ANSI escape sequences take none, nor do control characters, combining
// marks and zero-width characters; East Asian wide and fullwidth
// characters take two.
func stringWidth(s string) int {
	n := 0
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		if c == 0x1b { // ESC [ ... final byte, or ESC ] ... BEL/ST
			i = skipEscape(rs, i)
			continue
		}
		switch {
		case c < 0x20 || (c >= 0x7f && c < 0xa0):
		case c == 0x200b || c == 0x200c || c == 0x200d || c == 0xfeff || (c >= 0xfe00 && c <= 0xfe0f):
		case unicode.In(c, unicode.Mn, unicode.Me):
		default:
			switch width.LookupRune(c).Kind() {
			case width.EastAsianWide, width.EastAsianFullwidth:
				n += 2
			default:
				n++
			}
		}
	}
	return n
}

// skipEscape returns the index of the last rune of the escape sequence
// starting at rs[i] == ESC.
func skipEscape(rs []rune, i int) int {
	if i+1 >= len(rs) {
		return i
	}
	switch rs[i+1] {
	case '[':
		for j := i + 2; j < len(rs); j++ {
			if rs[j] >= 0x40 && rs[j] <= 0x7e {
				return j
			}
		}
		return len(rs) - 1
	case ']':
		for j := i + 2; j < len(rs); j++ {
			if rs[j] == 0x07 {
				return j
			}
			if rs[j] == 0x1b && j+1 < len(rs) && rs[j+1] == '\\' {
				return j + 1
			}
		}
		return len(rs) - 1
	}
	return i + 1
}
