package jshost

import (
	"errors"
	"math"

	"github.com/dop251/goja"
)

// The optional exports of SPEC-beyond §0 besides timeout: parseArgs,
// concurrent and maxResultChars. Each is read like timeout: a field of the
// default export, else a named export of that name; absent, undefined or
// null means not given. A wrong type fails the load with the reason below.
var (
	errParseArgsType      = errors.New("parseArgs must be a function: parseArgs(args, context) returns the arguments to use, or nothing to keep them")
	errConcurrentType     = errors.New("concurrent must be true or false: false makes the tool a barrier in batch calls")
	errMaxResultCharsType = errors.New("maxResultChars must be a positive whole number of characters")
)

// optionalExport is the value of one optional export, or nil when the
// module does not give it.
func (w *worker) optionalExport(name string) goja.Value {
	given := func(v goja.Value) bool { return v != nil && !goja.IsUndefined(v) && !goja.IsNull(v) }
	if v := w.export.Get(name); given(v) {
		return v
	}
	if w.named != nil && w.named != w.export {
		if v := w.named.Get(name); given(v) {
			return v
		}
	}
	return nil
}

// describeOptional reads parseArgs, concurrent and maxResultChars into m.
func (w *worker) describeOptional(m *meta) error {
	m.concurrent = true
	if v := w.optionalExport("parseArgs"); v != nil {
		if _, ok := goja.AssertFunction(v); !ok {
			return errParseArgsType
		}
		m.hasParseArgs = true
	}
	if v := w.optionalExport("concurrent"); v != nil {
		b, ok := v.Export().(bool)
		if !ok {
			return errConcurrentType
		}
		m.concurrent = b
	}
	if v := w.optionalExport("maxResultChars"); v != nil {
		var n float64
		switch x := v.Export().(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			return errMaxResultCharsType
		}
		if n < 1 || n != math.Trunc(n) || n > math.MaxInt32 {
			return errMaxResultCharsType
		}
		m.maxResultChars = int(n)
	}
	return nil
}
