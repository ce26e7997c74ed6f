package ecma

import (
	"strings"
	"sync"

	"github.com/dop251/goja"
)

// RegExp: goja reads a property escape (\p{Lu}) under the u flag as the
// letters "p{Lu}", so /\p{Lu}/u.test('A') is false: a silent wrong answer
// in every tool whose packages split words or strip marks this way. The
// global RegExp is wrapped by one that rewrites such a pattern into the
// classes of code points it stands for (regexp_translate.go) and leaves
// every other pattern to goja's RegExp untouched, at the cost of one Go
// call per construction. goja compiles a literal itself: the host turns
// the literals that need it into new RegExp(...) calls before it compiles
// a module (literals.go). A rewritten regexp keeps the source and flags
// it was given (own, non-enumerable properties), as source, flags and
// toString show.

// regexpJS wraps Native: translate(pattern, flags) answers null when
// goja's RegExp is right, else [source, flags (in RegExp#flags' order),
// rewritten source, flags as given (for goja to check), and an exec of
// its own for a pattern with surrogates (regexp_pairs.go)].
const regexpJS = `(function (Native, translate) {
  'use strict'
  const construct = Reflect.construct
  const define = Object.defineProperty
  const isRegExp = (p) => p !== null && typeof p === 'object' &&
    (p[Symbol.match] !== undefined ? !!p[Symbol.match] : p instanceof Native)
  function RegExp(pattern, flags) {
    let nt = new.target
    if (nt === undefined) {
      if (flags === undefined && isRegExp(pattern) && pattern.constructor === RegExp) return pattern
      nt = RegExp
    }
    const t = translate(pattern, flags)
    if (t === null) {
      // From a regexp, goja's RegExp would read a rewritten one's inner
      // pattern: give it the source the regexp shows.
      if (!isRegExp(pattern)) return construct(Native, arguments, nt)
      return construct(Native, [pattern.source, flags === undefined ? pattern.flags : flags], nt)
    }
    const re = construct(Native, [t[2], t[3]], nt)
    define(re, 'source', { value: t[0], configurable: true })
    define(re, 'flags', { value: t[1], configurable: true })
    if (t[4] !== undefined) define(re, 'exec', { value: t[4], writable: true, configurable: true })
    return re
  }
  define(RegExp, 'prototype', { value: Native.prototype, writable: false, enumerable: false, configurable: false })
  define(RegExp, Symbol.species, { get() { return this }, configurable: true })
  define(Native.prototype, 'constructor', { value: RegExp, writable: true, enumerable: false, configurable: true })
  return RegExp
})`

var regexpProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:regexp.js", regexpJS, true) })

func installRegExp(vm *goja.Runtime) error {
	native := vm.Get("RegExp")
	fv, err := vm.RunProgram(regexpProgram())
	if err != nil {
		return err
	}
	factory, _ := goja.AssertFunction(fv)
	tr := &translator{vm: vm, cache: map[string]goja.Value{}}
	wrapper, err := factory(goja.Undefined(), native, vm.ToValue(tr.call))
	if err != nil {
		return err
	}
	return vm.GlobalObject().DefineDataProperty("RegExp", wrapper, goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// translator answers the wrapper's translate(pattern, flags), caching
// rewritten patterns per runtime (a tool builds the same ones over and
// over: in a loop, or as String.prototype.split's species copy).
type translator struct {
	vm    *goja.Runtime
	cache map[string]goja.Value
}

// maxCached bounds a runtime's cache; patterns past it are rewritten anew.
const maxCached = 256

func (t *translator) call(call goja.FunctionCall) goja.Value {
	pattern, flagsArg := call.Argument(0), call.Argument(1)
	var source, flags string
	if o, ok := pattern.(*goja.Object); ok && o.ClassName() == "RegExp" {
		source = o.Get("source").String()
		if goja.IsUndefined(flagsArg) {
			flagsArg = o.Get("flags")
		}
	} else if !goja.IsUndefined(pattern) {
		source = pattern.String()
	}
	if !goja.IsUndefined(flagsArg) {
		flags = flagsArg.String()
	}
	if strings.ContainsAny(flags, "dv") {
		// d and v: goja's own refusal ("Invalid flags") stands.
		return goja.Null()
	}
	pairs := needsPairs(source, flags)
	if !pairs && !needsTranslation(source, flags) {
		return goja.Null()
	}
	key := flags + "/" + source
	if v, ok := t.cache[key]; ok {
		return v
	}
	if pairs {
		p, err := newPairsExec(t.vm, source, flags)
		if err != nil {
			return goja.Null() // goja's RegExp says what is wrong with it
		}
		return t.remember(key, t.vm.NewArray(source, canonicalFlags(flags), source, flags, p.exec))
	}
	rewritten, err := translate(source)
	if err != nil {
		ctor, _ := goja.AssertConstructor(t.vm.Get("SyntaxError"))
		e, cerr := ctor(nil, t.vm.ToValue("Invalid regular expression: /"+source+"/"+flags+": "+err.Error()))
		if cerr != nil {
			panic(cerr)
		}
		panic(e)
	}
	return t.remember(key, t.vm.NewArray(source, canonicalFlags(flags), rewritten, flags))
}

func (t *translator) remember(key string, v goja.Value) goja.Value {
	if len(t.cache) < maxCached {
		t.cache[key] = v
	}
	return v
}

// canonicalFlags orders flags as RegExp.prototype.flags lists them.
func canonicalFlags(flags string) string {
	var b strings.Builder
	for _, f := range "dgimsuvy" {
		if strings.ContainsRune(flags, f) {
			b.WriteRune(f)
		}
	}
	return b.String()
}
