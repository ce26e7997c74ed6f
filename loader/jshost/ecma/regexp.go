package ecma

import (
	"strings"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// RegExp: goja answers some patterns otherwise than the standard, and
// silently: it reads a property escape (\p{Lu}) under u as the letters
// "p{Lu}"; without u, regexp2 (goja's fallback engine) confuses classes
// of surrogates (regexp_pairs.go); and it refuses the d and v flags. The
// global RegExp is wrapped by one that mends those patterns: \p{...}
// becomes the class of code points it stands for (regexp_translate.go),
// a v class is computed as a set (regexp_v.go), and surrogates and d get
// an exec of the host's (regexp_exec.go). Every other pattern goes to
// goja's RegExp untouched, at the cost of the wrapper's call. goja
// compiles a literal itself: the host turns the literals that need it
// into new RegExp(...) calls before it compiles a module (literals.go).
// A mended regexp keeps the source and flags it was given (own,
// non-enumerable properties), as source, flags and toString show.

// regexpJS wraps goja's RegExp (Native): translate(pattern, flags)
// answers null when goja's RegExp is right, else [source, flags (in
// RegExp#flags' order), rewritten source, flags for goja (as given, less
// d, v as u), the host's exec for a pattern with surrogates or the d flag
// (regexp_exec.go), whether it has d, whether it has v; then the
// wrapper's first regexp of it].
const regexpJS = `(function (translate) {
  'use strict'
  const Native = /(?:)/.constructor
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
      if (typeof pattern !== 'object' || !isRegExp(pattern)) return construct(Native, [pattern, flags], nt)
      return construct(Native, [pattern.source, flags === undefined ? pattern.flags : flags], nt)
    }
    // goja compiles a rewritten pattern once per runtime (a class of
    // every letter takes it 0.2ms): a copy of the first shares it.
    if (t[7] === undefined) t[7] = construct(Native, [t[2], t[3]])
    const re = construct(Native, [t[7]], nt)
    if (nt !== RegExp) Object.setPrototypeOf(re, nt.prototype)
    define(re, 'source', { value: t[0], configurable: true })
    define(re, 'flags', { value: t[1], configurable: true })
    if (t[4] !== undefined) define(re, 'exec', { value: t[4], writable: true, configurable: true })
    if (t[5]) define(re, 'hasIndices', { value: true, configurable: true })
    if (t[6]) {
      define(re, 'unicodeSets', { value: true, configurable: true })
      define(re, 'unicode', { value: false, configurable: true })
    }
    return re
  }
  define(RegExp, 'prototype', { value: Native.prototype, writable: false, enumerable: false, configurable: false })
  define(RegExp, Symbol.species, { get() { return this }, configurable: true })
  define(Native.prototype, 'constructor', { value: RegExp, writable: true, enumerable: false, configurable: true })
  for (const name of ['hasIndices', 'unicodeSets']) {
    define(Native.prototype, name, { get() { return this === Native.prototype ? undefined : false }, configurable: true })
  }
  return RegExp
})`

var regexpProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:regexp.js", regexpJS, true) })

// installRegExp makes the global RegExp the wrapper, on first read: a
// runtime is set up for every module load and pool growth, and making the
// wrapper costs some 0.2ms. (Redefining the global makes goja build its
// own RegExp, some 40µs, which a module's first regexp literal costs
// anyway.) A literal goja compiles needs no global RegExp; one the host
// routed reads it.
func installRegExp(r *rt.Runtime) {
	vm := r.VM
	r.LazyGlobal("RegExp", false, func() goja.Value {
		fv, err := vm.RunProgram(regexpProgram())
		if err != nil {
			panic(err)
		}
		factory, _ := goja.AssertFunction(fv)
		tr := &translator{vm: vm, cache: map[string]goja.Value{}}
		wrapper, err := factory(goja.Undefined(), vm.ToValue(tr.call))
		if err != nil {
			panic(err)
		}
		return wrapper
	})
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
	// goja refuses d (the host's exec gives the indices) and v (whose
	// classes the host computes, leaving a u pattern).
	indices, sets := strings.ContainsRune(flags, 'd'), strings.ContainsRune(flags, 'v')
	if !indices && !sets && !needsPairs(source, flags) && !needsTranslation(source, flags) {
		return goja.Null()
	}
	key := flags + "/" + source
	if v, ok := t.cache[key]; ok {
		return v
	}
	native := strings.Replace(flags, "d", "", 1)
	compiled := source
	if sets {
		if strings.ContainsRune(flags, 'u') {
			ctor, _ := goja.AssertConstructor(t.vm.Get("SyntaxError"))
			e, _ := ctor(nil, t.vm.ToValue("Invalid flags supplied to RegExp constructor '"+flags+"'"))
			panic(e)
		}
		native = strings.Replace(native, "v", "u", 1)
		var err error
		if compiled, err = translateV(source); err != nil {
			panic(t.syntaxError(source, flags, err.Error()))
		}
	}
	pairs := needsPairs(compiled, native)
	if needsTranslation(compiled, native) {
		var err error
		if compiled, err = translate(compiled); err != nil {
			panic(t.syntaxError(source, flags, err.Error()))
		}
	}
	exec := goja.Undefined()
	if indices || pairs {
		h, err := newHostExec(t.vm, compiled, native, indices)
		if err != nil {
			if !indices {
				return goja.Null() // goja's RegExp says what is wrong with it
			}
			panic(t.syntaxError(source, flags, err.Error()))
		}
		exec = t.vm.ToValue(h.exec)
	}
	return t.remember(key, t.vm.NewArray(source, canonicalFlags(flags), compiled, native, exec, indices, sets))
}

// syntaxError is the SyntaxError a bad pattern throws, worded as V8's.
func (t *translator) syntaxError(source, flags, msg string) goja.Value {
	ctor, _ := goja.AssertConstructor(t.vm.Get("SyntaxError"))
	e, err := ctor(nil, t.vm.ToValue("Invalid regular expression: /"+source+"/"+flags+": "+msg))
	if err != nil {
		panic(err)
	}
	return e
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
