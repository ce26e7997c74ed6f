package limits

import (
	"fmt"

	"github.com/dop251/goja"
)

// maxJSONDepth bounds the nesting JSON.parse accepts: goja parses by
// recursion in Go, where a million levels run for half a minute.
const maxJSONDepth = 10000

// scanAbove is the text length from which JSON.parse's input is scanned
// first: a shorter text cannot nest deeper than maxJSONDepth, nor make
// much (the scan costs about a nanosecond a byte).
const scanAbove = 2 * maxJSONDepth

// What parsed values cost at least, per token that opens them.
const (
	objectBytes = 256
	arrayBytes  = 64
	valueBytes  = 48
)

// jsonParse estimates what JSON.parse(text) makes from the text's tokens
// and refuses deep nesting.
func (l *limiter) jsonParse(call goja.FunctionCall) goja.FunctionCall {
	a := args(&call, 1)
	a[0] = a[0].ToString()
	units, width := str(a[0])
	if units < scanAbove {
		return call
	}
	est, depth := scanJSON(a[0].String())
	if depth > maxJSONDepth {
		panic(l.r.RangeError(fmt.Sprintf("JSON.parse: the text nests %d levels deep, more than the %d the tool host parses", depth, maxJSONDepth)))
	}
	l.alloc(est + float64(units)*width)
	return call
}

// scanJSON counts what the text would make, and its deepest nesting,
// skipping strings.
func scanJSON(s string) (bytes float64, depth int) {
	d := 0
	inStr, esc := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
		case '{':
			bytes += objectBytes
			d++
			depth = max(depth, d)
		case '[':
			bytes += arrayBytes
			d++
			depth = max(depth, d)
		case '}', ']':
			d--
		case ',', ':':
			bytes += valueBytes
		}
	}
	return bytes + valueBytes, depth
}
