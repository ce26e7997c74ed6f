package web

import (
	"net/url"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// urlWrap makes URL from goja_nodejs's constructor: that one cleans a
// relative input into an absolute path before it resolves it, so
// new URL('./x', 'file:///a/b/c') gave file:///x, a silent wrong answer.
// The wrapper resolves input against base first (RFC 3986, as WHATWG does
// for the URLs modules build) and hands the constructor an absolute URL;
// what it cannot resolve goes through as given, so the errors stay the
// constructor's own.
const urlWrap = `(function (Orig, resolve) {
  'use strict'
  function URL(input, base) {
    if (new.target === undefined) throw new TypeError("Class constructor URL cannot be invoked without 'new'")
    if (base !== undefined) {
      const abs = resolve(String(input), String(base))
      if (abs !== '') return Reflect.construct(Orig, [abs], new.target)
    }
    return Reflect.construct(Orig, arguments.length > 1 ? [input, base] : [input], new.target)
  }
  URL.prototype = Orig.prototype
  Object.setPrototypeOf(URL, Orig)
  URL.canParse = function canParse(input, base) { try { new URL(input, base); return true } catch (e) { return false } }
  return URL
})`

var urlWrapProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:url.js", urlWrap, true) })

type urlKey struct{}

// URLModule is goja_nodejs's url module with URL resolving relative inputs
// right; the URL global and node:url are this one.
func URLModule(r *rt.Runtime) *goja.Object {
	return rt.Local(r, urlKey{}, func() *goja.Object {
		m := r.Native("url")
		fv, err := r.VM.RunProgram(urlWrapProgram())
		if err != nil {
			panic(err)
		}
		wrap, _ := goja.AssertFunction(fv)
		u, err := wrap(goja.Undefined(), m.Get("URL"), r.VM.ToValue(resolveURL))
		if err != nil {
			panic(err)
		}
		if err := m.Set("URL", u); err != nil {
			panic(err)
		}
		return m
	})
}

// resolveURL is ref resolved against base, or "" when either does not
// parse, base is not absolute or ref is (the constructor's own path then).
func resolveURL(ref, base string) string {
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ""
	}
	f, err := url.Parse(ref)
	if err != nil || f.IsAbs() {
		return ""
	}
	u := b.ResolveReference(f)
	u.Fragment, u.RawFragment = f.Fragment, f.RawFragment // RFC 3986 5.2.2: never the base's
	return u.String()
}
