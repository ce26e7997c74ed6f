package node

import (
	_ "embed"
	"path/filepath"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/dop251/goja"
	"golang.org/x/net/idna"

	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// urlModule is node:url: the web platform's url module (the same URL and
// URLSearchParams as the globals, domainToASCII, domainToUnicode) with
// fileURLToPath, pathToFileURL and the legacy API (parse, format,
// resolve, resolveObject, Url) added.
func urlModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	m := web.URLModule(r)
	legacy := urlLegacy(r, m)
	for _, k := range []string{"Url", "parse", "resolve", "resolveObject", "format"} {
		_ = m.Set(k, legacy.Get(k))
	}
	_ = m.Set("fileURLToPath", func(v goja.Value) string { return fileURLToPath(r, m, v) })
	_ = m.Set("pathToFileURL", func(p string) goja.Value {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Host.Directory, p)
		}
		resolved := filepath.Clean(p)
		if strings.HasSuffix(p, "/") && !strings.HasSuffix(resolved, "/") { // Node keeps a trailing slash
			resolved += "/"
		}
		// What the pathname setter would not encode but a file name may hold.
		resolved = strings.NewReplacer("%", "%25", "\\", "%5C", "\n", "%0A", "\r", "%0D", "\t", "%09").Replace(resolved)
		u, err := vm.New(m.Get("URL"), vm.ToValue("file://"))
		if err != nil {
			panic(err)
		}
		if err := u.Set("pathname", resolved); err != nil {
			panic(err)
		}
		return u
	})
	return m
}

// fileURLToPath is Node's url.fileURLToPath on POSIX: the decoded path of a
// file: URL (a string or a URL) with no host and no encoded '/'.
func fileURLToPath(r *rt.Runtime, m *goja.Object, v goja.Value) string {
	vm := r.VM
	var u *goja.Object
	switch {
	case v == nil:
	case isString(v):
		o, err := vm.New(m.Get("URL"), v)
		if err != nil {
			panic(err)
		}
		u = o
	default:
		if o, ok := v.(*goja.Object); ok && !goja.IsUndefined(o.Get("href")) && !goja.IsUndefined(o.Get("protocol")) {
			u = o
		}
	}
	if u == nil {
		panic(codedTypeError(vm, "ERR_INVALID_ARG_TYPE", `The "path" argument must be of type string or an instance of URL`))
	}
	if u.Get("protocol").String() != "file:" {
		panic(codedTypeError(vm, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file"))
	}
	if u.Get("hostname").String() != "" {
		panic(codedTypeError(vm, "ERR_INVALID_FILE_URL_HOST", `File URL host must be "localhost" or empty on linux`))
	}
	p := u.Get("pathname").String()
	if strings.Contains(p, "%2f") || strings.Contains(p, "%2F") {
		panic(codedTypeError(vm, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters"))
	}
	s, ok := decodeURIComponent(p)
	if !ok { // as decodeURIComponent throws
		e, err := vm.New(vm.Get("URIError"), vm.ToValue("URI malformed"))
		if err != nil {
			panic(err)
		}
		panic(e)
	}
	return s
}

func isString(v goja.Value) bool {
	_, ok := v.(goja.String)
	return ok
}

// decodeURIComponent is JS's: %XX bytes that must form UTF-8; false where
// JS throws URIError.
func decodeURIComponent(s string) (string, bool) {
	if !strings.Contains(s, "%") {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '%' {
			b = append(b, s[i])
			continue
		}
		if i+2 >= len(s) || !rt.IsHex(s[i+1]) || !rt.IsHex(s[i+2]) {
			return "", false
		}
		b = append(b, rt.Unhex(s[i+1])<<4|rt.Unhex(s[i+2]))
		i += 2
	}
	return string(b), utf8.Valid(b)
}

func codedTypeError(vm *goja.Runtime, code, msg string) *goja.Object {
	e := vm.NewTypeError(msg)
	_ = e.Set("code", code)
	return e
}

//go:embed js/url_legacy.js
var urlLegacyJS string

var urlLegacyProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:url_legacy.js", urlLegacyJS, true) })

// urlLegacy is Node's legacy url API (js/url_legacy.js) over m's URL.
func urlLegacy(r *rt.Runtime, m *goja.Object) *goja.Object {
	vm := r.VM
	n := vm.NewObject()
	_ = n.Set("URL", m.Get("URL"))
	_ = n.Set("URLSearchParams", m.Get("URLSearchParams"))
	_ = n.Set("domainToUnicode", m.Get("domainToUnicode"))
	_ = n.Set("querystring", r.Require("querystring"))
	_ = n.Set("toASCII", legacyToASCII)
	_ = n.Set("inspect", func(v goja.Value) string { return r.Inspect(v) })
	return runFactory(r, urlLegacyProgram(), n)
}

// uts46 is the UTS #46 processing Node's url.parse applies to a host
// name (its binding's toASCII): nontransitional, hyphens and STD3 rules
// unchecked, bidi and joiner rules checked, any length. Immutable.
var uts46 = sync.OnceValue(func() *idna.Profile {
	return idna.New(idna.MapForLookup(), idna.Transitional(false), idna.BidiRule(),
		idna.CheckJoiners(true), idna.CheckHyphens(false), idna.StrictDomainName(false), idna.VerifyDNSLength(false))
})

// legacyToASCII is host in ASCII (punycode labels), or "" when it is not
// a valid IDNA name (url.parse then throws ERR_INVALID_URL, as Node does).
func legacyToASCII(host string) string {
	a, err := uts46().ToASCII(host)
	if err != nil {
		return ""
	}
	return a
}
