package limits

import (
	"math"
	"strings"

	"github.com/dop251/goja"
)

// repeat: 'x'.repeat(n) makes units*n characters in one Go loop.
func (l *limiter) repeat(call goja.FunctionCall) goja.FunctionCall {
	units, width, ok := l.thisString(&call)
	if !ok {
		return call
	}
	a := args(&call, 1)
	a[0] = a[0].ToNumber()
	if n := a[0].ToFloat(); !math.IsInf(n, 0) && n > 0 {
		l.alloc(float64(units) * math.Floor(n) * width)
	}
	return call
}

// pad: padStart(n, fill) makes n characters.
func (l *limiter) pad(call goja.FunctionCall) goja.FunctionCall {
	_, width, ok := l.thisString(&call)
	if !ok {
		return call
	}
	a := args(&call, 2)
	a[0] = a[0].ToNumber()
	if !goja.IsUndefined(a[1]) {
		a[1] = a[1].ToString()
		if _, w := str(a[1]); w > width {
			width = w
		}
	}
	if n := a[0].ToFloat(); n > 0 {
		l.alloc(math.Floor(n) * width)
	}
	return call
}

// strConcat: s.concat(a, b, ...) with one large string given many times.
func (l *limiter) strConcat(call goja.FunctionCall) goja.FunctionCall {
	units, width, ok := l.thisString(&call)
	if !ok {
		return call
	}
	total := float64(units) * width
	a := args(&call, 0)
	for i, v := range a {
		a[i] = v.ToString()
		u, w := str(a[i])
		total += float64(u) * w
	}
	l.alloc(total)
	return call
}

// pieceBytes is what one piece of split costs at least: its slot and the
// string's header.
const pieceBytes = slotBytes + 32

// split: 'x'.repeat(1e8).split(”) makes 1e8 strings in one Go loop.
func (l *limiter) split(call goja.FunctionCall) goja.FunctionCall {
	units, width, ok := l.thisString(&call)
	if !ok {
		return call
	}
	a := args(&call, 2)
	sep, isStr := a[0].(goja.String)
	if !isStr && !goja.IsUndefined(a[0]) {
		if _, isObj := a[0].(*goja.Object); !isObj {
			a[0] = a[0].ToString()
			sep, isStr = a[0].(goja.String)
		}
	}
	pieces := float64(units + 1)
	if !goja.IsUndefined(a[1]) {
		a[1] = a[1].ToNumber()
		if n := a[1].ToFloat(); n >= 0 && n < pieces {
			pieces = math.Floor(n)
		}
	}
	if pieces*pieceBytes+float64(units)*width <= float64(l.limit) || !isStr {
		return call
	}
	if sep.Length() > 0 {
		pieces = math.Min(pieces, float64(strings.Count(call.This.String(), sep.String())+1))
	}
	l.alloc(pieces*pieceBytes + float64(units)*width)
	return call
}

// replaceAll with a string pattern and replacement: each match grows the
// result by the replacement, in one Go loop.
func (l *limiter) replaceAll(call goja.FunctionCall) goja.FunctionCall {
	units, width, ok := l.thisString(&call)
	if !ok {
		return call
	}
	a := args(&call, 2)
	pat, pOK := a[0].(goja.String)
	rep, rOK := a[1].(goja.String)
	if !pOK || !rOK {
		return call
	}
	ru, rw := str(rep)
	if float64(units+1)*float64(ru)*math.Max(width, rw)+float64(units)*width <= float64(l.limit) {
		return call
	}
	n := units + 1
	if pat.Length() > 0 {
		n = strings.Count(call.This.String(), pat.String())
	}
	l.alloc(float64(units)*width + float64(n)*float64(ru)*math.Max(width, rw))
	return call
}
