package web

import (
	"crypto/rand"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// webCrypto is the crypto global: getRandomValues and randomUUID.
func webCrypto(r *rt.Runtime) goja.Value {
	o := r.VM.NewObject()
	_ = o.Set("getRandomValues", GetRandomValues(r))
	_ = o.Set("randomUUID", RandomUUID)
	return o
}

// GetRandomValues is crypto.getRandomValues of r: it fills an integer
// typed array with random bytes and answers it.
func GetRandomValues(r *rt.Runtime) func(goja.Value) goja.Value {
	vm := r.VM
	return func(v goja.Value) goja.Value {
		obj, ok := v.(*goja.Object)
		if !ok {
			panic(vm.NewTypeError("The data argument must be an integer-type TypedArray"))
		}
		ab, ok := obj.Get("buffer").Export().(goja.ArrayBuffer)
		if !ok {
			panic(vm.NewTypeError("The data argument must be an integer-type TypedArray"))
		}
		off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
		if n > 65536 {
			panic(r.DOMError("The ArrayBufferView's byte length exceeds the number of bytes of entropy available via this API (65536)", "QuotaExceededError"))
		}
		_, _ = rand.Read(ab.Bytes()[off : off+n])
		return v
	}
}

// RandomUUID is crypto.randomUUID: a version 4 UUID.
func RandomUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	const hex = "0123456789abcdef"
	out := make([]byte, 0, 36)
	for i, c := range b {
		if i == 4 || i == 6 || i == 8 || i == 10 {
			out = append(out, '-')
		}
		out = append(out, hex[c>>4], hex[c&15])
	}
	return string(out)
}
