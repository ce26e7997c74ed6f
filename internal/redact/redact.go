// Package redact makes text safe to show: URLs lose their credentials
// (https://user:pass@host/r.git -> https://***@host/r.git) and names from
// a repository (file names, commit subjects) have their control
// characters escaped, so a terminal shows them and does not obey them. It
// is the one place status, logs, events, errors and commands go through.
package redact

import (
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"
)

// userinfo matches the user[:password]@ part of a URL: after a scheme's
// "://", everything up to the last "@" before the path (a password may
// hold a raw "@").
var userinfo = regexp.MustCompile(`([A-Za-z][A-Za-z0-9+.-]*://)[^/?#\s]*@`)

// URL returns u with the credentials of its userinfo replaced by ***:
// https://user:pass@host/r.git and https://token@host/r.git both become
// https://***@host/r.git. Text without a URL comes back as it is.
func URL(u string) string { return Text(u) }

// Text replaces the credentials of every URL in s (an error message that
// quotes one, a log line) with ***.
func Text(s string) string {
	if !strings.Contains(s, "@") || !strings.Contains(s, "://") {
		return s
	}
	return userinfo.ReplaceAllString(s, "${1}***@")
}

// Name escapes what a terminal would act on in s: control characters
// (\n, \t, \x1b...), Unicode direction overrides, invalid UTF-8, and the
// backslash that starts an escape. A plain name comes back as it is.
func Name(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && n == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
		i += n
	}
	return b.String()
}

// Line is Text then Name: for a whole message that may quote both a URL
// and names from a repository.
func Line(s string) string { return Name(Text(s)) }

func needsEscape(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\\' || r == utf8.RuneError || unsafeRune(r) {
			return true
		}
	}
	return false
}

// unsafeRune: C1 controls, and the bidirectional controls that reorder
// what a terminal shows ("Trojan Source").
func unsafeRune(r rune) bool {
	return (r >= 0x80 && r < 0xa0) || (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
