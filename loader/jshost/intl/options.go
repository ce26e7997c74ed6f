package intl

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// options reads an options argument as ECMA-402's GetOption does, with
// Bun's (JavaScriptCore's) messages.
type options struct {
	vm *goja.Runtime
	o  *goja.Object // nil: undefined options
}

func newOptions(vm *goja.Runtime, v goja.Value) options {
	if v == nil || goja.IsUndefined(v) {
		return options{vm: vm}
	}
	if goja.IsNull(v) {
		panic(vm.NewTypeError("options argument must be an object"))
	}
	return options{vm: vm, o: v.ToObject(vm)}
}

func (p options) get(name string) goja.Value {
	if p.o == nil {
		return goja.Undefined()
	}
	if v := p.o.Get(name); v != nil {
		return v
	}
	return goja.Undefined()
}

// str is a string option among allowed (any string if allowed is empty),
// def when undefined. message is the RangeError for another value.
func (p options) str(name string, def string, message string, allowed ...string) string {
	v := p.get(name)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	s := v.String()
	if len(allowed) == 0 {
		return s
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	panic(rangeError(p.vm, "%s", message))
}

// boolean is a boolean option: 0 unset, 1 false, 2 true.
func (p options) boolean(name string) int {
	v := p.get(name)
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	if v.ToBoolean() {
		return 2
	}
	return 1
}

// number is an integer option within [lo, hi], def when undefined, -1
// when undefined and def is -1.
func (p options) number(name string, lo, hi, def int) int {
	v := p.get(name)
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f < float64(lo) || f > float64(hi) {
		panic(rangeError(p.vm, "%s is out of range", name))
	}
	return int(math.Floor(f))
}

// has tells whether name is set to something other than undefined.
func (p options) has(name string) bool {
	v := p.get(name)
	return v != nil && !goja.IsUndefined(v)
}

func rangeError(vm *goja.Runtime, format string, args ...any) *goja.Object {
	ctor := vm.Get("RangeError")
	o, err := vm.New(ctor, vm.ToValue(fmt.Sprintf(format, args...)))
	if err != nil {
		panic(err)
	}
	return o
}

// unsupported is the error for what this Intl does not implement: a
// clear refusal rather than a wrong answer.
func unsupported(vm *goja.Runtime, format string, args ...any) *goja.Object {
	return rangeError(vm, "%s is not supported by beeuni's Intl", fmt.Sprintf(format, args...))
}

func toLength(v goja.Value) int64 {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	return int64(math.Min(f, 1<<53-1))
}

func itoa(i int64) string { return strconv.FormatInt(i, 10) }

// localize writes the ASCII digits of s in the numbering system's digits.
func localize(s, digits string) string {
	if digits == "" || digits == "0123456789" {
		return s
	}
	d := []rune(digits)
	var b strings.Builder
	for _, c := range s {
		if c >= '0' && c <= '9' {
			b.WriteRune(d[c-'0'])
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}

// localeMatcher reads (and checks) the option every constructor takes;
// lookup and best fit find the same locales here.
func (p options) localeMatcher() {
	p.str("localeMatcher", "best fit", `localeMatcher must be either "lookup" or "best fit"`, "lookup", "best fit")
}
