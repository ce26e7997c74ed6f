package web

import (
	_ "embed"
	"sync"

	"github.com/dop251/goja"
	whatwg "github.com/nlnwa/whatwg-url/url"
	"golang.org/x/net/idna"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/url.js
var urlJS string

var urlProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:url.js", urlJS, true) })

// urlParser is the WHATWG parser with its default options, which are the
// standard's (browsers, Node and Bun): no lax host parsing, no collapsed
// slashes, no skipped normalizations. It is immutable.
var urlParser = sync.OnceValue(func() whatwg.Parser { return whatwg.NewParser() })

type urlKey struct{}

// URLModule is the url module of r, made once: URL and URLSearchParams of
// js/url.js over the WHATWG parser, and domainToASCII/domainToUnicode. The
// URL globals and node:url are this one.
func URLModule(r *rt.Runtime) *goja.Object {
	return rt.Local(r, urlKey{}, func() *goja.Object {
		vm := r.VM
		b := vm.NewObject()
		must := func(err error) {
			if err != nil {
				panic(err)
			}
		}
		must(b.Set("parse", func(input string, base goja.Value) goja.Value { return parseURL(vm, input, base) }))
		must(b.Set("set", func(href, component, value string) goja.Value { return setURL(vm, href, component, value) }))
		must(b.Set("formParse", func(s string) goja.Value { return formParse(vm, s) }))
		must(b.Set("formSerialize", func(list goja.Value) string { return formSerialize(r, list) }))
		must(b.Set("usvString", func(s string) string { return s })) // a Go string has no lone surrogates
		fv, err := vm.RunProgram(urlProgram())
		must(err)
		fn, _ := goja.AssertFunction(fv)
		cv, err := fn(goja.Undefined(), b)
		must(err)
		c := cv.ToObject(vm)
		m := vm.NewObject()
		must(m.Set("URL", c.Get("URL")))
		must(m.Set("URLSearchParams", c.Get("URLSearchParams")))
		must(m.Set("domainToASCII", domainToASCII))
		must(m.Set("domainToUnicode", domainToUnicode))
		return m
	})
}

// parseURL is input parsed against base (undefined: none) as the
// components js/url.js keeps, or null when either is not a URL.
func parseURL(vm *goja.Runtime, input string, base goja.Value) goja.Value {
	p := urlParser()
	var u *whatwg.Url
	var err error
	if base == nil || goja.IsUndefined(base) {
		u, err = p.Parse(input)
	} else if b, berr := p.Parse(base.String()); berr != nil {
		return goja.Null()
	} else {
		u, err = b.Parse(input)
	}
	if err != nil {
		return goja.Null()
	}
	return urlRecord(vm, u)
}

// setURL is the URL href with one component set as the standard's setter
// does (a value it cannot take leaves the URL as it was), or null when
// component is href and value is not a URL. "query" is search set by the
// URL's searchParams.
func setURL(vm *goja.Runtime, href, component, value string) goja.Value {
	p := urlParser()
	u, err := p.Parse(href)
	if err != nil { // an href this parser made parses again
		panic(vm.NewTypeError("URL " + href + " does not parse again: " + err.Error()))
	}
	switch component {
	case "href":
		if u, err = p.Parse(value); err != nil {
			return goja.Null()
		}
	case "protocol":
		u.SetProtocol(value)
	case "username":
		u.SetUsername(value)
	case "password":
		u.SetPassword(value)
	case "host":
		u.SetHost(value)
	case "hostname":
		u.SetHostname(value)
	case "port":
		u.SetPort(value)
	case "pathname":
		u.SetPathname(value)
	case "search", "query":
		u.SetSearch(value)
	case "hash":
		u.SetHash(value)
	default:
		panic(vm.NewTypeError("URL has no component " + component + " to set"))
	}
	return urlRecord(vm, u)
}

// urlRecord is u's components, as the URL getters answer them.
func urlRecord(vm *goja.Runtime, u *whatwg.Url) goja.Value {
	o := vm.NewObject()
	for _, kv := range [...][2]string{
		{"href", u.Href(false)}, {"origin", urlOrigin(u)}, {"protocol", u.Protocol()},
		{"username", u.Username()}, {"password", u.Password()}, {"host", u.Host()},
		{"hostname", u.Hostname()}, {"port", u.Port()}, {"pathname", u.Pathname()},
		{"search", u.Search()}, {"hash", u.Hash()},
	} {
		_ = o.Set(kv[0], kv[1])
	}
	return o
}

// urlOrigin is the serialized origin of u: scheme, host and port for the
// schemes that have a tuple origin, the origin of the inner URL for blob:,
// "null" (an opaque origin) for the rest, file: included, as in Node.
func urlOrigin(u *whatwg.Url) string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.Protocol() + "//" + u.Host()
	case "blob":
		if in, err := urlParser().Parse(u.Pathname()); err == nil && (in.Scheme() == "http" || in.Scheme() == "https") {
			return urlOrigin(in)
		}
	}
	return "null"
}

// domainToASCII is Node's url.domainToASCII: the domain as a URL's host
// (IDNA, lower case), or "" when it is not a valid one.
func domainToASCII(domain string) string {
	u, err := urlParser().Parse("ws://x")
	if err != nil {
		return ""
	}
	if _, err := urlParser().BasicParser(domain, nil, u, whatwg.StateHostname); err != nil {
		return ""
	}
	return u.Hostname()
}

// domainToUnicode is Node's url.domainToUnicode: domainToASCII turned back
// into Unicode labels, or "" for an invalid domain.
func domainToUnicode(domain string) string {
	a := domainToASCII(domain)
	if a == "" {
		return ""
	}
	s, _ := idna.ToUnicode(a) // labels it cannot decode stay as they are
	return s
}
