package web

import (
	"crypto/rand"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// Crypto is the crypto global as the web platform made it in r (also
// node:crypto's webcrypto): getRandomValues, randomUUID and subtle.
func Crypto(r *rt.Runtime) *goja.Object {
	st := stateOf(r)
	if st.crypto == nil {
		o := r.VM.NewObject()
		_ = o.Set("getRandomValues", GetRandomValues(r))
		_ = o.Set("randomUUID", RandomUUID)
		_ = o.DefineAccessorProperty("subtle", r.VM.ToValue(func() goja.Value { return st.subtle(r).Get("subtle") }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
		st.crypto = o
	}
	return st.crypto
}

// subtle is js/subtle.js's answer in r, made on first use.
func (st *state) subtle(r *rt.Runtime) *goja.Object {
	if st.subtleJS == nil {
		st.subtleJS = makeSubtle(r)
	}
	return st.subtleJS
}

// GetRandomValues is crypto.getRandomValues of r: it fills an integer
// typed array with random bytes and answers it. Bun sets no limit on the
// size (the Web Crypto's 65,536 bytes is not enforced there), nor do we.
func GetRandomValues(r *rt.Runtime) func(goja.Value) goja.Value {
	return func(v goja.Value) goja.Value {
		obj, ok := v.(*goja.Object)
		if !ok || !integerArray(obj) {
			panic(r.DOMError("The data argument must be an integer-type TypedArray", "TypeMismatchError"))
		}
		ab, ok := obj.Get("buffer").Export().(goja.ArrayBuffer)
		if !ok {
			panic(r.DOMError("The data argument must be an integer-type TypedArray", "TypeMismatchError"))
		}
		off, n := obj.Get("byteOffset").ToInteger(), obj.Get("byteLength").ToInteger()
		_, _ = rand.Read(ab.Bytes()[off : off+n])
		return v
	}
}

// integerArray: getRandomValues takes the integer typed arrays only
// (Buffer too: it is a Uint8Array); goja exports each as a slice of its
// element type.
func integerArray(o *goja.Object) bool {
	switch o.Export().(type) {
	case []int8, []uint8, []int16, []uint16, []int32, []uint32, []int64, []uint64:
		return true
	}
	return false
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
