package node

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"errors"
	"hash/crc32"
	"io"
	"math"

	"github.com/andybalholm/brotli"
	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// zlibModule is node:zlib: the one-shot forms (gzipSync, gunzip with a
// callback, ...) over Go's compress packages and brotli. Streams
// (createGzip, ...) refuse: tools have no node:stream yet.
func zlibModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	z := vm.NewObject()
	type coder func(in []byte, level int) ([]byte, error)
	compress := func(mk func(w io.Writer, level int) (io.WriteCloser, error)) coder {
		return func(in []byte, level int) ([]byte, error) {
			var out bytes.Buffer
			w, err := mk(&out, level)
			if err != nil {
				return nil, err
			}
			if _, err := w.Write(in); err != nil {
				return nil, err
			}
			err = w.Close()
			return out.Bytes(), err
		}
	}
	decompress := func(mk func(rd io.Reader) (io.Reader, error)) coder {
		return func(in []byte, _ int) ([]byte, error) {
			rd, err := mk(bytes.NewReader(in))
			if err != nil {
				return nil, err
			}
			return readAllLimited(r, rd)
		}
	}
	gz := compress(func(w io.Writer, l int) (io.WriteCloser, error) { return gzip.NewWriterLevel(w, l) })
	df := compress(func(w io.Writer, l int) (io.WriteCloser, error) { return zlib.NewWriterLevel(w, l) })
	raw := compress(func(w io.Writer, l int) (io.WriteCloser, error) { return flate.NewWriter(w, l) })
	br := compress(func(w io.Writer, l int) (io.WriteCloser, error) { return brotli.NewWriterLevel(w, l), nil })
	gunzip0 := decompress(func(rd io.Reader) (io.Reader, error) { return gzip.NewReader(rd) })
	// zlib checks the magic bytes before it wants a whole header.
	gunzip := func(in []byte, l int) ([]byte, error) {
		if (len(in) > 0 && in[0] != 0x1f) || (len(in) > 1 && in[1] != 0x8b) {
			return nil, gzip.ErrHeader
		}
		return gunzip0(in, l)
	}
	inflate := decompress(func(rd io.Reader) (io.Reader, error) { return zlib.NewReader(rd) })
	inflateRaw := decompress(func(rd io.Reader) (io.Reader, error) { return flate.NewReader(rd), nil })
	unbrotli := decompress(func(rd io.Reader) (io.Reader, error) { return brotli.NewReader(rd), nil })
	unzip := func(in []byte, l int) ([]byte, error) {
		if len(in) >= 2 && in[0] == 0x1f && in[1] == 0x8b {
			return gunzip(in, l)
		}
		return inflate(in, l)
	}
	for name, c := range map[string]struct {
		fn    coder
		level func(opts goja.Value) int
	}{
		"gzip": {gz, zlibLevel}, "deflate": {df, zlibLevel}, "deflateRaw": {raw, zlibLevel}, "brotliCompress": {br, brotliQuality},
		"gunzip": {gunzip, nil}, "inflate": {inflate, nil}, "inflateRaw": {inflateRaw, nil}, "unzip": {unzip, nil}, "brotliDecompress": {unbrotli, nil},
	} {
		_ = z.Set(name+"Sync", func(data, opts goja.Value) goja.Value {
			in := zlibInput(r, data)
			level := 0
			if c.level != nil {
				level = c.level(opts)
				r.Alloc(int64(len(in)) + 1024) // compressed output stays near the input's size
			}
			out, err := c.fn(in, level)
			if err != nil {
				panic(zlibError(r, err))
			}
			return buffer.WrapBytes(vm, out)
		})
		_ = z.Set("create"+string(name[0]-32)+name[1:], func() {
			panic(vm.NewGoError(errors.New("zlib streams are not available to tools (they have no node:stream yet): use zlib." + name + "Sync or zlib." + name + " with a callback")))
		})
	}
	_ = z.Set("crc32", func(data, value goja.Value) uint32 {
		start := uint32(0)
		if value != nil && !goja.IsUndefined(value) {
			start = uint32(value.ToInteger())
		}
		return crc32.Update(start, crc32.IEEETable, zlibInput(r, data))
	})
	consts := vm.NewObject()
	for k, v := range zlibConstants {
		_ = consts.Set(k, v)
		_ = z.Set(k, v)
	}
	_ = z.Set("constants", consts)
	return jsModule(r, "zlib", z)
}

// readAllLimited reads a decompressed stream, at most the call's memory
// limit (a small input may inflate to gigabytes).
func readAllLimited(r *rt.Runtime, rd io.Reader) ([]byte, error) {
	limit := int64(r.Host.CallMemory)
	if limit <= 0 {
		limit = math.MaxInt64 - 1
	}
	out, err := io.ReadAll(io.LimitReader(rd, limit+1))
	if int64(len(out)) > limit {
		r.Alloc(int64(len(out)))
	}
	return out, err
}

// zlibInput is the bytes of a string (UTF-8) or a Buffer, typed array or
// ArrayBuffer.
func zlibInput(r *rt.Runtime, v goja.Value) []byte {
	if s, ok := v.(goja.String); ok {
		return []byte(s.String())
	}
	if o, ok := v.(*goja.Object); ok {
		if b, ok := exportBytes(o); ok {
			return b
		}
		if n := o.Get("byteLength"); n != nil && n.ToInteger() == 0 {
			return nil
		}
		switch x := o.Export().(type) {
		case goja.ArrayBuffer:
			return x.Bytes()
		}
		if view := o.Get("buffer"); view != nil {
			if ab, ok := view.Export().(goja.ArrayBuffer); ok {
				off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
				return ab.Bytes()[off : off+n]
			}
		}
	}
	panic(r.VM.NewTypeError(`The "buffer" argument must be of type string or an instance of Buffer, TypedArray, DataView, or ArrayBuffer`))
}

func optNumber(opts goja.Value, key string) (int, bool) {
	o, ok := opts.(*goja.Object)
	if !ok {
		return 0, false
	}
	v := o.Get(key)
	if v == nil || goja.IsUndefined(v) {
		return 0, false
	}
	return int(v.ToInteger()), true
}

// zlibLevel is options.level, Node's default (-1: zlib's 6) when unset.
func zlibLevel(opts goja.Value) int {
	if l, ok := optNumber(opts, "level"); ok && l >= -1 && l <= 9 {
		return l
	}
	return flate.DefaultCompression
}

// brotliQuality is options.params[BROTLI_PARAM_QUALITY], 11 when unset.
func brotliQuality(opts goja.Value) int {
	if o, ok := opts.(*goja.Object); ok {
		if p, ok := o.Get("params").(*goja.Object); ok {
			if q, ok := optNumber(p, "1"); ok && q >= 0 && q <= 11 {
				return q
			}
		}
	}
	return 11
}

// zlibError is the Error Node throws for bad data: its message, code and
// errno.
func zlibError(r *rt.Runtime, err error) *goja.Object {
	code, errno, msg := "Z_DATA_ERROR", -3, err.Error()
	switch {
	case errors.Is(err, gzip.ErrHeader), errors.Is(err, zlib.ErrHeader):
		msg = "incorrect header check"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		code, errno, msg = "Z_BUF_ERROR", -5, "unexpected end of file"
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, zlib.ErrChecksum):
		msg = "incorrect data check"
	}
	e, _ := r.VM.New(r.VM.Get("Error"), r.VM.ToValue(msg))
	_ = e.Set("code", code)
	_ = e.Set("errno", errno)
	return e
}

var zlibConstants = map[string]int{
	"Z_NO_FLUSH": 0, "Z_PARTIAL_FLUSH": 1, "Z_SYNC_FLUSH": 2, "Z_FULL_FLUSH": 3, "Z_FINISH": 4, "Z_BLOCK": 5,
	"Z_OK": 0, "Z_STREAM_END": 1, "Z_NEED_DICT": 2, "Z_ERRNO": -1, "Z_STREAM_ERROR": -2, "Z_DATA_ERROR": -3,
	"Z_MEM_ERROR": -4, "Z_BUF_ERROR": -5, "Z_VERSION_ERROR": -6,
	"Z_NO_COMPRESSION": 0, "Z_BEST_SPEED": 1, "Z_BEST_COMPRESSION": 9, "Z_DEFAULT_COMPRESSION": -1,
	"Z_FILTERED": 1, "Z_HUFFMAN_ONLY": 2, "Z_RLE": 3, "Z_FIXED": 4, "Z_DEFAULT_STRATEGY": 0,
	"BROTLI_OPERATION_PROCESS": 0, "BROTLI_OPERATION_FLUSH": 1, "BROTLI_OPERATION_FINISH": 2,
	"BROTLI_PARAM_MODE": 0, "BROTLI_MODE_GENERIC": 0, "BROTLI_MODE_TEXT": 1, "BROTLI_MODE_FONT": 2,
	"BROTLI_PARAM_QUALITY": 1, "BROTLI_MIN_QUALITY": 0, "BROTLI_MAX_QUALITY": 11, "BROTLI_DEFAULT_QUALITY": 11,
	"BROTLI_PARAM_LGWIN": 2, "BROTLI_PARAM_SIZE_HINT": 5,
}
