package node

import (
	"bytes"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// completeBuffer adds to goja_nodejs's Buffer what Node's has and it
// lacks (js/node.js's buffer, over these Go bindings), and answers the
// Buffer function tools get in its place.
func completeBuffer(r *rt.Runtime, b *goja.Object) *goja.Object {
	vm := r.VM
	nb := vm.NewObject()
	bytesOf := func(v goja.Value, name string) []byte {
		if o, ok := v.(*goja.Object); ok {
			if b, ok := exportBytes(o); ok {
				return b
			}
		}
		panic(vm.NewTypeError(`The "` + name + `" argument must be an instance of Buffer or Uint8Array`))
	}
	must := func(err error) {
		if err != nil {
			panic(err)
		}
	}
	must(nb.Set("encoding", encodingName))
	must(nb.Set("decode", func(s goja.Value, enc goja.Value) goja.Value {
		name := codecOf(r, enc)
		if str, ok := s.(goja.String); ok {
			r.Alloc(3 * int64(str.Length())) // UTF-8: up to 3 bytes a UTF-16 unit
		}
		return vm.ToValue(vm.NewArrayBuffer(decodeString(s, name)))
	}))
	must(nb.Set("byteLength", byteLength))
	must(nb.Set("compare", func(a, b goja.Value) int { return bytes.Compare(bytesOf(a, "buf1"), bytesOf(b, "buf2")) }))
	must(nb.Set("indexOf", func(hay, needle goja.Value, off int64, forward bool) int64 {
		return indexOf(bytesOf(hay, "this"), bytesOf(needle, "value"), off, forward)
	}))
	must(nb.Set("fill", func(buf, pattern goja.Value, off, end int) {
		dst, src := bytesOf(buf, "this")[off:end], bytesOf(pattern, "value")
		for i := 0; i < len(dst); {
			i += copy(dst[i:], src)
		}
	}))
	proto := b.Get("prototype").ToObject(vm)
	must(proto.Set("toString", func(c goja.FunctionCall) goja.Value {
		o, ok := c.This.(*goja.Object)
		data, isBytes := []byte(nil), false
		if ok {
			data, isBytes = exportBytes(o)
		}
		if !isBytes {
			panic(vm.NewTypeError(`The "this" argument must be an instance of Buffer or Uint8Array`))
		}
		enc := codecOf(r, c.Argument(0))
		n := int64(len(data))
		start, end := int64(0), n
		if s := c.Argument(1); !goja.IsUndefined(s) {
			start = clampInt(s.ToInteger(), 0, n)
		}
		if e := c.Argument(2); !goja.IsUndefined(e) {
			end = clampInt(e.ToInteger(), 0, n)
		}
		if end <= start {
			return vm.ToValue("")
		}
		return encodeBytes(vm, data[start:end], enc)
	}))
	return jsModule(r, "buffer", b, nb).ToObject(vm)
}

func clampInt(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

// indexOf is Node's native search (IndexOfOffset then a forward or
// backward search): off counts from the end when negative.
func indexOf(hay, needle []byte, off int64, forward bool) int64 {
	n, k := int64(len(hay)), int64(len(needle))
	switch {
	case off < 0 && off+n >= 0:
		off += n
	case off < 0 && (forward || k == 0):
		off = 0
	case off < 0:
		return -1
	case off+k <= n:
	case k == 0:
		off = n
	case forward:
		return -1
	default:
		off = n - 1
	}
	if k == 0 {
		return off
	}
	if n == 0 || (forward && off+k > n) {
		return -1
	}
	if forward {
		if i := bytes.Index(hay[off:], needle); i >= 0 {
			return off + int64(i)
		}
		return -1
	}
	return int64(bytes.LastIndex(hay[:min(off+k, n)], needle))
}

// byteLength is Buffer.byteLength of a string: Node counts base64 and hex
// from the length, not by decoding.
func byteLength(s goja.Value, enc string) int64 {
	str, ok := s.(goja.String)
	if !ok {
		return int64(len(decodeString(s, enc)))
	}
	n := int64(str.Length())
	switch enc {
	case "base64", "base64url":
		for k := 0; k < 2 && n > 1 && str.CharAt(int(n-1)) == '='; k++ {
			n--
		}
		return n * 3 >> 2
	case "hex":
		return n >> 1
	case "latin1", "ascii":
		return n
	case "utf16le":
		return 2 * n
	}
	// UTF-8, counted without making the bytes: a lone surrogate is 3.
	var total int64
	for i := 0; i < int(n); i++ {
		switch c := str.CharAt(i); {
		case c < 0x80:
			total++
		case c < 0x800:
			total += 2
		case c >= 0xd800 && c < 0xdc00 && i+1 < int(n) && str.CharAt(i+1) >= 0xdc00 && str.CharAt(i+1) < 0xe000:
			total += 4
			i++
		default:
			total += 3
		}
	}
	return total
}

// exportBytes is the bytes of a Uint8Array (or Buffer) without copying.
// An empty view at the end of its buffer is answered without Export: goja
// computes a pointer past the end for it (fatal under checkptr, -race).
func exportBytes(o *goja.Object) ([]byte, bool) {
	if o.ExportType() != typeBytes {
		return nil, false
	}
	if n := o.Get("byteLength"); n != nil && n.ToInteger() == 0 {
		return []byte{}, true
	}
	b, ok := o.Export().([]byte)
	return b, ok
}
