package limits

import (
	"math"
	"strconv"

	"github.com/dop251/goja"
)

// arrayLength guards a method that loops over this.length in Go (and
// may make an array as long): items is the index of the first argument
// that adds elements (unshift's 0, splice's 2), or -1 for none.
func (l *limiter) arrayLength(items int) func(goja.FunctionCall) goja.FunctionCall {
	return func(call goja.FunctionCall) goja.FunctionCall {
		o, ok := l.thisObject(&call)
		if !ok {
			return call
		}
		n := l.length(o)
		if items >= 0 && len(call.Arguments) > items {
			n += float64(len(call.Arguments) - items)
		}
		l.elements(n)
		return call
	}
}

// fillBytes is what fill costs an element of an array that is not yet
// dense (new Array(n).fill(x)): the slot, grown by doubling (the old
// slice is alive while the new one fills), and a boxed number.
const fillBytes = 2*slotBytes + 8

// fill: new Array(1e9).fill(0) writes a billion slots in one Go loop.
func (l *limiter) fill(call goja.FunctionCall) goja.FunctionCall {
	o, ok := l.thisObject(&call)
	if !ok {
		return call
	}
	l.alloc(l.length(o) * fillBytes)
	return call
}

// join: the result holds every element's text and the separators; one
// large string repeated in a long array is the bomb.
func (l *limiter) join(call goja.FunctionCall) goja.FunctionCall {
	o, ok := l.thisObject(&call)
	if !ok {
		return call
	}
	n := l.length(o)
	l.elements(n)
	a := args(&call, 1)
	sepUnits, width := 1, 1.0
	if !goja.IsUndefined(a[0]) {
		a[0] = a[0].ToString()
		sepUnits, width = str(a[0])
	}
	total := math.Max(n-1, 0) * float64(sepUnits) * width
	l.alloc(total)
	for i := 0; i < int(n); i++ {
		if u, w := str(o.Get(strconv.Itoa(i))); u > 0 {
			total += float64(u) * w
		}
	}
	l.alloc(total)
	return call
}

// arrayConcat: [].concat(a, a, a, ...) with one large array many times.
func (l *limiter) arrayConcat(call goja.FunctionCall) goja.FunctionCall {
	o, ok := l.thisObject(&call)
	if !ok {
		return call
	}
	n := l.length(o)
	for _, v := range call.Arguments {
		if ao, isObj := v.(*goja.Object); isObj && ao.ClassName() == "Array" {
			n += l.length(ao)
		} else {
			n++
		}
	}
	l.elements(n)
	return call
}

// flat: [a, a, a, ...].flat() with one large array many times.
func (l *limiter) flat(call goja.FunctionCall) goja.FunctionCall {
	o, ok := l.thisObject(&call)
	if !ok {
		return call
	}
	a := args(&call, 1)
	depth := 1.0
	if !goja.IsUndefined(a[0]) {
		a[0] = a[0].ToNumber()
		if depth = a[0].ToFloat(); math.IsNaN(depth) {
			depth = 0
		}
	}
	max := float64(l.limit / slotBytes)
	// count adds the elements o spreads into at depth: a nested array's
	// length when it is not flattened further, its elements' otherwise.
	var count func(o *goja.Object, depth float64, n float64) float64
	count = func(o *goja.Object, depth float64, n float64) float64 {
		length := l.length(o)
		if depth < 1 {
			return n + length
		}
		l.elements(length)
		for i := 0; i < int(length) && n <= max; i++ {
			if e, isObj := o.Get(strconv.Itoa(i)).(*goja.Object); isObj && e.ClassName() == "Array" {
				n = count(e, depth-1, n)
			} else {
				n++
			}
		}
		return n
	}
	l.elements(count(o, depth, 0))
	return call
}

// from: Array.from({length: 1e9}) (and the typed arrays' from) make an
// array as long as the array-like says, in one Go loop.
func (l *limiter) from(elemBytes float64) func(goja.FunctionCall) goja.FunctionCall {
	return func(call goja.FunctionCall) goja.FunctionCall {
		if len(call.Arguments) == 0 {
			return call
		}
		src, ok := call.Arguments[0].(*goja.Object)
		if !ok {
			return call
		}
		n := l.length(src)
		l.elements(n)
		l.alloc(n * elemBytes)
		return call
	}
}
