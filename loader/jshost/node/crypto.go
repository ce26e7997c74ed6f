package node

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/subtle"
	"hash"
	"math/big"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/rt"
	"github.com/beeuni/beeuni/loader/jshost/web"
)

var hashes = map[string]func() hash.Hash{
	"md5": md5.New, "sha1": sha1.New, "sha224": sha256.New224, "sha256": sha256.New,
	"sha384": sha512.New384, "sha512": sha512.New,
}

// cryptoModule is node:crypto: hashes, HMACs and randomness (the web
// platform's getRandomValues and randomUUID; webcrypto and subtle are
// the crypto global).
func cryptoModule(r *rt.Runtime) goja.Value {
	vm := r.VM
	o := vm.NewObject()
	newHash := func(alg string) func() hash.Hash {
		h, ok := hashes[strings.ToLower(strings.ReplaceAll(alg, "-", ""))]
		if !ok {
			panic(vm.NewTypeError("Digest method not supported: " + alg + " (tools have md5, sha1, sha224, sha256, sha384, sha512)"))
		}
		return h
	}
	wrap := func(h hash.Hash) *goja.Object {
		obj := vm.NewObject()
		done := false
		_ = obj.Set("update", func(data, enc goja.Value) *goja.Object {
			if done {
				panic(vm.NewGoError(errDigestCalled))
			}
			if enc == nil {
				enc = goja.Undefined()
			}
			h.Write(buffer.DecodeBytes(vm, data, enc))
			return obj
		})
		_ = obj.Set("digest", func(enc goja.Value) goja.Value {
			if done {
				panic(vm.NewGoError(errDigestCalled))
			}
			done = true
			if enc == nil {
				enc = goja.Undefined()
			}
			return buffer.EncodeBytes(vm, h.Sum(nil), enc)
		})
		return obj
	}
	_ = o.Set("createHash", func(alg string) *goja.Object { return wrap(newHash(alg)()) })
	_ = o.Set("createHmac", func(alg string, key, enc goja.Value) *goja.Object {
		if enc == nil {
			enc = goja.Undefined()
		}
		return wrap(hmac.New(newHash(alg), buffer.DecodeBytes(vm, key, enc)))
	})
	_ = o.Set("getHashes", func() []string { return []string{"md5", "sha1", "sha224", "sha256", "sha384", "sha512"} })
	_ = o.Set("randomBytes", func(c goja.FunctionCall) goja.Value {
		n := c.Argument(0).ToInteger()
		if n < 0 || n > 1<<30 {
			panic(vm.NewTypeError("The \"size\" argument is out of range"))
		}
		b := make([]byte, n)
		_, _ = rand.Read(b)
		buf := buffer.WrapBytes(vm, b)
		if cb, ok := goja.AssertFunction(c.Argument(1)); ok {
			qm, _ := goja.AssertFunction(vm.Get("queueMicrotask"))
			_, _ = qm(goja.Undefined(), vm.ToValue(func() { _, _ = cb(goja.Undefined(), goja.Null(), buf) }))
			return goja.Undefined()
		}
		return buf
	})
	_ = o.Set("randomUUID", web.RandomUUID)
	_ = o.Set("randomInt", func(c goja.FunctionCall) goja.Value {
		lo, hi := int64(0), c.Argument(0).ToInteger()
		if len(c.Arguments) > 1 {
			if _, isFn := goja.AssertFunction(c.Argument(1)); !isFn {
				lo, hi = hi, c.Argument(1).ToInteger()
			}
		}
		if hi <= lo {
			panic(vm.NewTypeError("The value of \"max\" must be greater than the value of \"min\""))
		}
		n, _ := rand.Int(rand.Reader, big.NewInt(hi-lo))
		return vm.ToValue(lo + n.Int64())
	})
	getRandom := web.GetRandomValues(r)
	_ = o.Set("getRandomValues", getRandom)
	_ = o.Set("timingSafeEqual", func(a, b goja.Value) bool {
		x, y := buffer.DecodeBytes(vm, a, goja.Undefined()), buffer.DecodeBytes(vm, b, goja.Undefined())
		if len(x) != len(y) {
			panic(vm.NewGoError(errLengths))
		}
		return subtle.ConstantTimeCompare(x, y) == 1
	})
	wc := web.Crypto(r)
	_ = o.Set("webcrypto", wc)
	_ = o.DefineAccessorProperty("subtle", vm.ToValue(func() goja.Value { return wc.Get("subtle") }), nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return o
}

type cryptoErr string

func (e cryptoErr) Error() string { return string(e) }

const (
	errDigestCalled = cryptoErr("Digest already called")
	errLengths      = cryptoErr("Input buffers must have the same byte length")
)
