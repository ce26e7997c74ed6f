package web

import (
	"unicode/utf8"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// decoder is js/web.js's n.decode(bytes, fatal) under TextDecoder and the
// Body readers: UTF-8, invalid sequences replaced unless fatal.
func decoder(r *rt.Runtime) func(v goja.Value, fatal bool) string {
	vm := r.VM
	return func(v goja.Value, fatal bool) string {
		b := buffer.DecodeBytes(vm, v, goja.Undefined())
		if fatal && !utf8.Valid(b) {
			panic(vm.NewTypeError("The encoded data was not valid for encoding utf-8"))
		}
		return rt.DecodeUTF8(b)
	}
}
