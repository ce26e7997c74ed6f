package node

import (
	"net/url"
	"path/filepath"

	"github.com/dop251/goja"
	_ "github.com/dop251/goja_nodejs/url" // registers the url module (URL, URLSearchParams)

	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

// urlModule is node:url: goja_nodejs's module (the same URL and
// URLSearchParams as the globals) with fileURLToPath and pathToFileURL
// added.
func urlModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	m := web.URLModule(r)
	_ = m.Set("fileURLToPath", func(v goja.Value) string {
		s := v.String()
		u, err := url.Parse(s)
		if err != nil || u.Scheme != "file" {
			panic(vm.NewTypeError("The URL must be of scheme file: " + s))
		}
		return u.Path
	})
	_ = m.Set("pathToFileURL", func(p string) goja.Value {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Host.Directory, p)
		}
		u := url.URL{Scheme: "file", Path: p}
		v, err := vm.New(vm.Get("URL"), vm.ToValue(u.String()))
		if err != nil {
			panic(err)
		}
		return v
	})
	return m
}
