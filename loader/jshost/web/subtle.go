package web

import (
	"crypto"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	_ "crypto/sha1" // registers crypto.SHA1
	_ "crypto/sha256"
	_ "crypto/sha512"
	_ "embed"
	"math/big"
	"strconv"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

//go:embed js/subtle.js
var subtleJS string

var subtleProgram = sync.OnceValue(func() *goja.Program { return goja.MustCompile("beeuni:subtle.js", subtleJS, true) })

// opFailed is WebKit's message for an operation that failed on its data
// (a wrong tag, bad padding): it says no more, and neither do we.
const opFailed = "The operation failed for an operation-specific reason"

// subtleKey is the material behind a CryptoKey; js/subtle.js holds it as
// an opaque value and keeps the key's algorithm and usages itself.
type subtleKey struct {
	secret []byte
	priv   crypto.Signer // *ecdsa.PrivateKey, ed25519.PrivateKey, *rsa.PrivateKey
	pub    crypto.PublicKey
}

// subtle is the Go half of crypto.subtle in one runtime.
type subtle struct{ r *rt.Runtime }

// makeSubtle runs js/subtle.js in r: { subtle, CryptoKey, SubtleCrypto }.
func makeSubtle(r *rt.Runtime) *goja.Object {
	s := subtle{r}
	vm := r.VM
	n := vm.NewObject()
	for name, f := range map[string]any{
		"digest": s.digest, "sign": s.sign, "verify": s.verify, "encrypt": s.encrypt,
		"deriveBits": s.deriveBits, "importKey": s.importKey, "exportKey": s.exportKey, "generateKey": s.generateKey,
	} {
		if err := n.Set(name, f); err != nil {
			panic(err)
		}
	}
	fv, err := vm.RunProgram(subtleProgram())
	if err != nil {
		panic(err)
	}
	fn, _ := goja.AssertFunction(fv)
	out, err := fn(goja.Undefined(), n, stateOf(r).web(r, "DOMException"))
	if err != nil {
		panic(err)
	}
	return out.ToObject(vm)
}

func (s subtle) fail(msg, name string) { panic(s.r.DOMError(msg, name)) }

func (s subtle) buffer(b []byte) goja.Value { return s.r.VM.ToValue(s.r.VM.NewArrayBuffer(b)) }

var hashes = map[string]crypto.Hash{"SHA-1": crypto.SHA1, "SHA-256": crypto.SHA256, "SHA-384": crypto.SHA384, "SHA-512": crypto.SHA512}

// hashed is the digest of data by the hash js/subtle.js named.
func hashed(name string, data []byte) (crypto.Hash, []byte) {
	h := hashes[name]
	w := h.New()
	w.Write(data)
	return h, w.Sum(nil)
}

func (s subtle) digest(name string, data []byte) goja.Value {
	_, sum := hashed(name, data)
	return s.buffer(sum)
}

// param reads a member js/subtle.js put in an operation's parameters.
type param struct{ o *goja.Object }

func (p param) str(k string) string { return p.o.Get(k).String() }
func (p param) int(k string) int64  { return p.o.Get(k).ToInteger() }
func (p param) has(k string) bool   { v := p.o.Get(k); return v != nil && !goja.IsUndefined(v) }
func (p param) bytes(k string) []byte {
	if !p.has(k) {
		return nil
	}
	b, _ := p.o.Get(k).Export().([]byte)
	return b
}

func (s subtle) sign(name string, k *subtleKey, data []byte, po *goja.Object) goja.Value {
	p := param{po}
	if name == "HMAC" {
		m := hmac.New(hashes[p.str("hash")].New, k.secret)
		m.Write(data)
		return s.buffer(m.Sum(nil))
	}
	var sig []byte
	var err error
	switch priv := k.priv.(type) {
	case ed25519.PrivateKey:
		sig = ed25519.Sign(priv, data)
	case *ecdsa.PrivateKey:
		_, sum := hashed(p.str("hash"), data)
		var r, ss *big.Int
		if r, ss, err = ecdsa.Sign(rand.Reader, priv, sum); err == nil {
			size := (priv.Curve.Params().BitSize + 7) / 8
			sig = make([]byte, 2*size)
			r.FillBytes(sig[:size])
			ss.FillBytes(sig[size:])
		}
	case *rsa.PrivateKey:
		h, sum := hashed(p.str("hash"), data)
		if name == "RSA-PSS" {
			sig, err = rsa.SignPSS(rand.Reader, priv, h, sum, s.pssOptions(h, p))
		} else {
			sig, err = rsa.SignPKCS1v15(rand.Reader, priv, h, sum)
		}
	}
	if err != nil || sig == nil {
		s.fail(opFailed, "OperationError")
	}
	return s.buffer(sig)
}

// pssOptions: Go reads a salt length of 0 as "as long as fits", so the
// Web Crypto's 0 (no salt) cannot be said to it and is refused.
func (s subtle) pssOptions(h crypto.Hash, p param) *rsa.PSSOptions {
	n := p.int("saltLength")
	if n == 0 {
		s.fail("RSA-PSS with saltLength 0 is not supported by this host: use the hash's length ("+itoa(int64(h.Size()))+")", "NotSupportedError")
	}
	if n < 0 {
		s.fail(opFailed, "OperationError")
	}
	return &rsa.PSSOptions{SaltLength: int(n), Hash: h}
}

func (s subtle) verify(name string, k *subtleKey, sig, data []byte, po *goja.Object) bool {
	p := param{po}
	if name == "HMAC" {
		m := hmac.New(hashes[p.str("hash")].New, k.secret)
		m.Write(data)
		return hmac.Equal(m.Sum(nil), sig)
	}
	switch pub := k.pub.(type) {
	case ed25519.PublicKey:
		return len(sig) == ed25519.SignatureSize && ed25519.Verify(pub, data, sig)
	case *ecdsa.PublicKey:
		size := (pub.Curve.Params().BitSize + 7) / 8
		if len(sig) != 2*size {
			return false
		}
		_, sum := hashed(p.str("hash"), data)
		return ecdsa.Verify(pub, sum, new(big.Int).SetBytes(sig[:size]), new(big.Int).SetBytes(sig[size:]))
	case *rsa.PublicKey:
		h, sum := hashed(p.str("hash"), data)
		if name == "RSA-PSS" {
			return rsa.VerifyPSS(pub, h, sum, sig, s.pssOptions(h, p)) == nil
		}
		return rsa.VerifyPKCS1v15(pub, h, sum, sig) == nil
	}
	return false
}

// encrypt is encrypt and decrypt of the AES modes.
func (s subtle) encrypt(name string, k *subtleKey, data []byte, po *goja.Object, decrypt bool) goja.Value {
	p := param{po}
	s.r.Alloc(int64(len(data)) + aes.BlockSize)
	block, err := aes.NewCipher(k.secret)
	if err != nil {
		s.fail(opFailed, "OperationError")
	}
	var out []byte
	switch name {
	case "AES-GCM":
		out = s.gcm(block, data, p, decrypt)
	case "AES-CBC":
		out = s.cbc(block, data, p.bytes("iv"), decrypt)
	default:
		out = s.ctr(block, data, p.bytes("counter"), p.int("length"))
	}
	return s.buffer(out)
}

func (s subtle) gcm(block cipher.Block, data []byte, p param, decrypt bool) []byte {
	tag, iv := p.int("tagLength"), p.bytes("iv")
	switch tag {
	case 32, 64, 96, 104, 112, 120, 128:
	default:
		s.fail(itoa(tag)+" is not a valid AES-GCM tag length", "OperationError")
	}
	var aead cipher.AEAD
	var err error
	switch {
	case len(iv) == 0:
		s.fail(opFailed, "OperationError")
	case tag == 128:
		aead, err = cipher.NewGCMWithNonceSize(block, len(iv))
	case len(iv) == 12 && tag >= 96:
		aead, err = cipher.NewGCMWithTagSize(block, int(tag/8))
	default:
		s.fail("AES-GCM with a "+itoa(tag)+"-bit tag and a "+itoa(int64(len(iv)))+"-byte iv is not supported by this host: use a 12-byte iv and a tag of 96 bits or more", "NotSupportedError")
	}
	if err != nil {
		s.fail(opFailed, "OperationError")
	}
	if !decrypt {
		return aead.Seal(nil, iv, data, p.bytes("additionalData"))
	}
	out, err := aead.Open(nil, iv, data, p.bytes("additionalData"))
	if err != nil {
		s.fail(opFailed, "OperationError")
	}
	return out
}

func (s subtle) cbc(block cipher.Block, data, iv []byte, decrypt bool) []byte {
	if len(iv) != aes.BlockSize {
		s.fail("algorithm.iv must contain exactly 16 bytes", "OperationError")
	}
	if !decrypt { // PKCS#7 padding, always at least one byte
		pad := aes.BlockSize - len(data)%aes.BlockSize
		out := append(append([]byte(nil), data...), make([]byte, pad)...)
		for i := len(data); i < len(out); i++ {
			out[i] = byte(pad)
		}
		cipher.NewCBCEncrypter(block, iv).CryptBlocks(out, out)
		return out
	}
	if len(data) == 0 || len(data)%aes.BlockSize != 0 {
		s.fail(opFailed, "OperationError")
	}
	out := make([]byte, len(data))
	cipher.NewCBCDecrypter(block, iv).CryptBlocks(out, data)
	pad := int(out[len(out)-1])
	if pad == 0 || pad > aes.BlockSize {
		s.fail(opFailed, "OperationError")
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			s.fail(opFailed, "OperationError")
		}
	}
	return out[:len(out)-pad]
}

// ctr is AES-CTR as Web Crypto defines it: only the counter's rightmost
// length bits count up, and wrap. Go's CTR counts up the whole block, which
// is the same until those bits wrap, so the data runs in segments that end
// where they do.
func (s subtle) ctr(block cipher.Block, data, counter []byte, length int64) []byte {
	if len(counter) != aes.BlockSize || length < 1 || length > 128 {
		s.fail(opFailed, "OperationError")
	}
	c := new(big.Int).SetBytes(counter)
	mod := new(big.Int).Lsh(big.NewInt(1), uint(length))
	low := new(big.Int).Mod(c, mod)
	high := new(big.Int).Sub(c, low)
	blocks := int64(len(data)+aes.BlockSize-1) / aes.BlockSize
	if big.NewInt(blocks).Cmp(mod) > 0 {
		s.fail(opFailed, "OperationError")
	}
	out := make([]byte, len(data))
	for done := 0; done < len(data); {
		left := new(big.Int).Sub(mod, low) // blocks before the low bits wrap
		n := len(data) - done
		if left.IsInt64() && left.Int64() < int64(n+aes.BlockSize-1)/aes.BlockSize {
			n = int(left.Int64()) * aes.BlockSize
		}
		iv := make([]byte, aes.BlockSize)
		new(big.Int).Add(high, low).FillBytes(iv)
		cipher.NewCTR(block, iv).XORKeyStream(out[done:done+n], data[done:done+n])
		done += n
		low.SetInt64(0)
	}
	return out
}

// deriveBits is PBKDF2 and HKDF. PBKDF2 is written here rather than
// taken from crypto/pbkdf2 so that a tool's huge iteration count stops
// at the call's deadline: Go code cannot be interrupted from outside.
func (s subtle) deriveBits(name string, k *subtleKey, po *goja.Object, bits int64) goja.Value {
	p := param{po}
	size := bits / 8
	s.r.Alloc(size)
	h := hashes[p.str("hash")]
	if name == "HKDF" {
		out, err := hkdf.Key(h.New, k.secret, p.bytes("salt"), string(p.bytes("info")), int(size))
		if err != nil || size == 0 {
			s.fail(opFailed, "OperationError")
		}
		return s.buffer(out)
	}
	iter := p.int("iterations")
	if iter == 0 {
		s.fail(opFailed, "OperationError")
	}
	if size == 0 {
		return s.buffer([]byte{})
	}
	stopped := s.r.Loop.Stopped() // the pending interrupt then ends the call
	prf := hmac.New(h.New, k.secret)
	out := make([]byte, 0, size+int64(h.Size()))
	salt := p.bytes("salt")
	for i := uint32(1); int64(len(out)) < size; i++ {
		prf.Reset()
		prf.Write(salt)
		prf.Write([]byte{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i)})
		u := prf.Sum(nil)
		t := append([]byte(nil), u...)
		for j := int64(1); j < iter; j++ {
			if j%4096 == 0 {
				select {
				case <-stopped:
					return goja.Undefined()
				default:
				}
			}
			prf.Reset()
			prf.Write(u)
			u = prf.Sum(u[:0])
			for x := range t {
				t[x] ^= u[x]
			}
		}
		out = append(out, t...)
	}
	return s.buffer(out[:size])
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
