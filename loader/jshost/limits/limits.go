// Package limits guards the ECMAScript builtins that allocate, or loop,
// in one Go call: goja checks for interrupts only between JS
// instructions, so `new Array(1e9).fill(0)` or `'x'.repeat(2**32)` would
// run to the end (or to the end of the machine's memory) whatever the
// deadline or the heap watchdog say. Each guard wraps the builtin at
// runtime set-up: it estimates what the builtin is about to make from
// its arguments (coerced once, then handed on, so nothing runs twice)
// and throws a RangeError naming the call's memory limit (rt.Alloc)
// before the original runs.
//
// What is guarded: String.prototype repeat, padStart, padEnd, concat,
// split and replaceAll with a string pattern; Array.prototype fill,
// join, concat, flat, slice, splice and the methods that loop over a
// length in Go (indexOf, includes, reverse, sort, ...); Array.from;
// JSON.parse (size and nesting); ArrayBuffer and the typed array
// constructors and their from. Buffer, fetch bodies, file reads and
// TextEncoder are guarded where they are made (node, web). What is not:
// replace with a global RegExp and a long replacement, match,
// JSON.stringify of a value that repeats one large part many times, and
// spreading a huge iterator: they are stopped after they return, by the
// watchdog, and a call stuck in one is answered at its deadline anyway.
package limits

import (
	"fmt"
	"math"
	"reflect"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// slotBytes is what one element costs at least (a goja Value in a slice).
const slotBytes = 16

// Platform installs the guards; it has no globals or modules of its own.
func Platform() rt.Platform { return rt.Platform{Install: install} }

// limiter is one runtime's guards.
type limiter struct {
	r     *rt.Runtime
	vm    *goja.Runtime
	limit uint64
}

func install(r *rt.Runtime) error {
	if r.Host.CallMemory == 0 {
		return nil
	}
	l := &limiter{r: r, vm: r.VM, limit: r.Host.CallMemory}
	vm := r.VM
	proto := func(ctor string) *goja.Object {
		return vm.Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
	}
	sp := proto("String")
	l.wrap(sp, "repeat", l.repeat)
	l.wrap(sp, "padStart", l.pad)
	l.wrap(sp, "padEnd", l.pad)
	l.wrap(sp, "concat", l.strConcat)
	l.wrap(sp, "split", l.split)
	l.wrap(sp, "replaceAll", l.replaceAll)
	ap := proto("Array")
	for _, name := range []string{"indexOf", "lastIndexOf", "includes", "reverse", "copyWithin", "sort", "toSorted", "toReversed", "with", "slice", "toSpliced"} {
		l.wrap(ap, name, l.arrayLength(-1))
	}
	l.wrap(ap, "fill", l.fill)
	l.wrap(ap, "splice", l.arrayLength(2))
	l.wrap(ap, "unshift", l.arrayLength(0))
	l.wrap(ap, "join", l.join)
	l.wrap(ap, "concat", l.arrayConcat)
	l.wrap(ap, "flat", l.flat)
	l.wrap(vm.Get("Array").ToObject(vm), "from", l.from(slotBytes))
	l.wrap(vm.Get("JSON").ToObject(vm), "parse", l.jsonParse)
	l.wrapBuffers()
	return nil
}

// wrap replaces obj[name] with a function that runs check, then the
// original with what check returns; name and length stay the original's.
func (l *limiter) wrap(obj *goja.Object, name string, check func(goja.FunctionCall) goja.FunctionCall) {
	ov := obj.Get(name)
	orig, ok := goja.AssertFunction(ov)
	if !ok {
		return
	}
	fn := l.vm.ToValue(func(call goja.FunctionCall) goja.Value {
		call = check(call)
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	l.describe(fn, name, ov.ToObject(l.vm).Get("length"))
	_ = obj.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// describe gives a wrapper the original's name and length.
func (l *limiter) describe(fn *goja.Object, name string, length goja.Value) {
	_ = fn.DefineDataProperty("name", l.vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = fn.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// alloc throws when bytes (an estimate, possibly huge) is over the limit.
func (l *limiter) alloc(bytes float64) {
	if bytes > float64(l.limit) || math.IsNaN(bytes) {
		l.r.Alloc(int64(min(bytes, math.MaxInt64)))
	}
}

// elements throws when an array-like's length is more than the limit
// can hold: such an array is sparse, and builtins loop over its length
// in Go, beyond the reach of interrupts.
func (l *limiter) elements(n float64) {
	if max := float64(l.limit / slotBytes); n > max {
		panic(l.r.RangeError(fmt.Sprintf("this array's length (%.0f) is over what the tool's memory limit of %s allows (%.0f elements): use a smaller array", n, rt.Bytes(l.limit), max)))
	}
}

// str is a string value's length in UTF-16 units and its bytes per unit
// (goja keeps ASCII strings as Go strings, others as []uint16).
func str(v goja.Value) (units int, width float64) {
	s, ok := v.(goja.String)
	if !ok {
		return 0, 1
	}
	if reflect.TypeOf(s).Kind() == reflect.String {
		return s.Length(), 1
	}
	return s.Length(), 2
}

// thisString coerces call.This to a string once (null and undefined are
// left to the original, which throws the TypeError).
func (l *limiter) thisString(call *goja.FunctionCall) (units int, width float64, ok bool) {
	if goja.IsNull(call.This) || goja.IsUndefined(call.This) {
		return 0, 0, false
	}
	if _, isStr := call.This.(goja.String); !isStr {
		call.This = call.This.ToString()
	}
	units, width = str(call.This)
	return units, width, true
}

// args returns call's arguments with at least n, so they can be replaced.
func args(call *goja.FunctionCall, n int) []goja.Value {
	for len(call.Arguments) < n {
		call.Arguments = append(call.Arguments, goja.Undefined())
	}
	call.Arguments = append([]goja.Value(nil), call.Arguments...)
	return call.Arguments
}

// length is an array-like's length (ToLength of its length property).
func (l *limiter) length(o *goja.Object) float64 {
	v := o.Get("length")
	if v == nil {
		return 0
	}
	n := v.ToFloat()
	if math.IsNaN(n) || n <= 0 {
		return 0
	}
	return math.Min(math.Floor(n), 1<<53-1)
}

// thisObject coerces call.This to an object once (null and undefined are
// left to the original).
func (l *limiter) thisObject(call *goja.FunctionCall) (*goja.Object, bool) {
	if goja.IsNull(call.This) || goja.IsUndefined(call.This) {
		return nil, false
	}
	o := call.This.ToObject(l.vm)
	call.This = o
	return o, true
}

// Guard wraps obj[name], a function that allocates about size(call)
// bytes in one step, so that it throws rt.Alloc's RangeError first. A
// platform guards its own allocating functions with it (Buffer.alloc).
func Guard(r *rt.Runtime, obj *goja.Object, name string, size func(goja.FunctionCall) float64) {
	if r.Host.CallMemory == 0 {
		return
	}
	l := &limiter{r: r, vm: r.VM, limit: r.Host.CallMemory}
	l.wrap(obj, name, func(call goja.FunctionCall) goja.FunctionCall {
		l.alloc(size(call))
		return call
	})
}

// Length is an array-like's length, for Guard's size functions.
func Length(r *rt.Runtime, v goja.Value) float64 {
	o, ok := v.(*goja.Object)
	if !ok {
		return 0
	}
	return (&limiter{r: r, vm: r.VM}).length(o)
}
