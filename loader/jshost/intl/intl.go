// Package intl is the Intl platform of every runtime: goja has no Intl,
// so this is one, as Bun's (ICU's) answers it. Intl.NumberFormat,
// DateTimeFormat, PluralRules, Collator, RelativeTimeFormat, ListFormat,
// DisplayNames, Locale, Segmenter, getCanonicalLocales and
// supportedValuesOf, and the locale forms of Number, BigInt, Date,
// String and Array toLocaleString/localeCompare.
//
// js/intl.js makes the classes over Go bindings (one Go type a class).
// Plural rules, collation, language parents and currency digits come
// from golang.org/x/text, text segmentation from github.com/rivo/uniseg;
// the patterns, symbols and words of the locales (which x/text does not
// expose) are the files under data/, recorded from Bun's own Intl by
// gen.js. What this package does not implement (other calendars,
// formatRange, rare compound units...) throws a RangeError naming it:
// never a wrong answer.
//
// The Intl object is made on first read (rt.LazyGlobal): a runtime that
// never touches it pays for the prototype methods only.
package intl

import (
	_ "embed"
	"sync"
	_ "time/tzdata" // IANA zones where the system has no zoneinfo

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/intl.js
var intlJS string

var intlProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:intl.js", intlJS, true) })

// Platform is the Intl platform: the Intl global and the locale methods
// of the builtins; no modules.
func Platform() rt.Platform { return rt.Platform{Install: install} }

type stateKey struct{}

// state is the platform's part of one runtime: what js/intl.js made.
type state struct {
	exports *goja.Object // Intl and the helpers of the builtins' methods
}

func install(r *rt.Runtime) error {
	r.LazyGlobal("Intl", false, func() goja.Value { return exportsOf(r).Get("Intl") })
	installBuiltins(r)
	return nil
}

// exportsOf runs js/intl.js in r once and answers what it made.
func exportsOf(r *rt.Runtime) *goja.Object {
	st := rt.Local(r, stateKey{}, func() *state { return &state{} })
	if st.exports != nil {
		return st.exports
	}
	vm := r.VM
	fv, err := vm.RunProgram(intlProgram())
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	v, err := fn(goja.Undefined(), natives(r))
	if err != nil {
		panic(err)
	}
	st.exports = v.ToObject(vm)
	return st.exports
}

// helper calls the js/intl.js helper name with this and args.
func helper(r *rt.Runtime, name string, this goja.Value, args ...goja.Value) goja.Value {
	f, _ := goja.AssertFunction(exportsOf(r).Get(name))
	v, err := f(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

// installBuiltins replaces the locale methods goja answers without
// locales (Number#toLocaleString is its toString) by ones that go
// through Intl, made on first call.
func installBuiltins(r *rt.Runtime) {
	vm := r.VM
	method := func(ctor, name, helperName string, length int) {
		proto := vm.Get(ctor).ToObject(vm).Get("prototype").ToObject(vm)
		fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
			return helper(r, helperName, call.This, call.Arguments...)
		}).(*goja.Object)
		_ = fn.DefineDataProperty("name", vm.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = fn.DefineDataProperty("length", vm.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		_ = proto.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	method("Number", "toLocaleString", "numberToLocaleString", 0)
	method("BigInt", "toLocaleString", "bigintToLocaleString", 0)
	method("Date", "toLocaleString", "dateToLocaleString", 0)
	method("Date", "toLocaleDateString", "dateToLocaleDateString", 0)
	method("Date", "toLocaleTimeString", "dateToLocaleTimeString", 0)
	method("String", "localeCompare", "localeCompare", 1)
	method("Array", "toLocaleString", "arrayToLocaleString", 0)
}
