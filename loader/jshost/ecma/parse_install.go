package ecma

import (
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installParse replaces JSON.parse by the parser's.
func installParse(r *rt.Runtime, j *goja.Object) error {
	vm := r.VM
	ov := j.Get("parse")
	if _, ok := goja.AssertFunction(ov); !ok {
		return nil
	}
	p := JSONParser(r)
	// The reviver's walk, with the builtins it uses as they are now, before
	// any module runs (made on the first reviver).
	var originals []goja.Value
	for _, path := range [][2]string{{"Array", "isArray"}, {"Object", "keys"}, {"Reflect", "defineProperty"}, {"Reflect", "deleteProperty"}, {"Reflect", "apply"}} {
		originals = append(originals, vm.Get(path[0]).ToObject(vm).Get(path[1]))
	}
	var revive goja.Callable
	fn := vm.ToValue(func(call goja.FunctionCall) goja.Value {
		v, e := p.parse(jsText(call.Argument(0).ToString()))
		if e != nil {
			panic(e)
		}
		reviver := call.Argument(1)
		if _, ok := goja.AssertFunction(reviver); !ok {
			return v
		}
		if revive == nil {
			mk, err := vm.RunProgram(reviveProgram())
			if err != nil {
				panic(err)
			}
			f, _ := goja.AssertFunction(mk)
			w, err := f(goja.Undefined(), originals...)
			if err != nil {
				panic(err)
			}
			revive, _ = goja.AssertFunction(w)
		}
		out, err := revive(goja.Undefined(), v, reviver)
		if err != nil {
			panic(err)
		}
		return out
	}).(*goja.Object)
	describe(vm, fn, "parse", ov)
	return j.DefineDataProperty("parse", fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// reviveProgram is ECMA-262's InternalizeJSONProperty: the reviver sees
// every value, depth first, its holder as this; undefined deletes.
var reviveProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("beeuni:json_revive.js", `(function (isArray, keys, define, del, apply) {
  'use strict'
  function walk(holder, name, reviver) {
    const val = holder[name]
    if (typeof val === 'object' && val !== null) {
      if (isArray(val)) {
        const len = val.length
        for (let i = 0; i < len; i++) revise(val, '' + i, reviver)
      } else {
        const ks = keys(val)
        for (let i = 0; i < ks.length; i++) revise(val, ks[i], reviver)
      }
    }
    return apply(reviver, holder, [name, val])
  }
  function revise(o, k, reviver) {
    const v = walk(o, k, reviver)
    if (v === undefined) del(o, k)
    else define(o, k, { __proto__: null, value: v, writable: true, enumerable: true, configurable: true })
  }
  return function (root, reviver) {
    const holder = {}
    define(holder, '', { __proto__: null, value: root, writable: true, enumerable: true, configurable: true })
    return walk(holder, '', reviver)
  }
})`, true)
})
