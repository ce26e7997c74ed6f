package web

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"math/big"

	"github.com/dop251/goja"
)

// maxModulus bounds generateKey's RSA size: Go cannot stop a key search
// once begun, and 16384 bits takes minutes.
const maxModulus = 8192

var curveOf = map[string]elliptic.Curve{"P-256": elliptic.P256(), "P-384": elliptic.P384(), "P-521": elliptic.P521()}

var curveName = map[elliptic.Curve]string{elliptic.P256(): "P-256", elliptic.P384(): "P-384", elliptic.P521(): "P-521"}

func (s subtle) invalidData() { s.fail("Invalid keyData", "DataError") }

func (s subtle) notSupported() { s.fail("The algorithm is not supported", "NotSupportedError") }

// generateKey answers a secret key's handle, or [public, private].
func (s subtle) generateKey(name string, po *goja.Object) goja.Value {
	p := param{po}
	vm := s.r.VM
	switch name {
	case "HMAC", "AES-GCM", "AES-CBC", "AES-CTR":
		bits := p.int("length")
		if name != "HMAC" && bits != 128 && bits != 192 && bits != 256 || bits <= 0 {
			s.fail(opFailed, "OperationError")
		}
		s.r.Alloc(bits / 8)
		b := make([]byte, (bits+7)/8)
		_, _ = rand.Read(b)
		return vm.ToValue(&subtleKey{secret: b})
	case "ECDSA":
		priv, err := ecdsa.GenerateKey(curveOf[p.str("namedCurve")], rand.Reader)
		if err != nil {
			s.fail(opFailed, "OperationError")
		}
		return s.pair(priv)
	case "Ed25519":
		_, priv, _ := ed25519.GenerateKey(rand.Reader)
		return s.pair(priv)
	}
	bits := p.int("modulusLength")
	if e := new(big.Int).SetBytes(p.bytes("publicExponent")); e.Cmp(big.NewInt(65537)) != 0 {
		s.fail("RSA keys with a public exponent other than 65537 are not supported by this host", "NotSupportedError")
	}
	if bits > maxModulus {
		s.fail("RSA keys over "+itoa(maxModulus)+" bits are not supported by this host", "NotSupportedError")
	}
	priv, err := rsa.GenerateKey(rand.Reader, int(bits))
	if err != nil {
		s.fail(opFailed, "OperationError")
	}
	return s.pair(priv)
}

func (s subtle) pair(priv crypto.Signer) goja.Value {
	return s.r.VM.ToValue([]any{&subtleKey{pub: priv.Public()}, &subtleKey{priv: priv, pub: priv.Public()}})
}

// imported is what importKey tells js/subtle.js besides the handle.
type imported struct {
	k    *subtleKey
	typ  string
	bits int
}

func (s subtle) importKey(format, name string, data goja.Value, po *goja.Object) goja.Value {
	p := param{po}
	var got imported
	switch {
	case format == "jwk":
		got = s.importJWK(name, data.ToObject(s.r.VM), p)
	case name == "HMAC" || name == "PBKDF2" || name == "HKDF" || len(name) > 4 && name[:4] == "AES-":
		if format != "raw" {
			s.notSupported()
		}
		b, _ := data.Export().([]byte)
		got = s.secret(name, b)
	default:
		b, _ := data.Export().([]byte)
		got = s.importAsymmetric(format, name, b, p)
	}
	vm := s.r.VM
	o := vm.NewObject()
	_ = o.Set("handle", got.k)
	_ = o.Set("type", got.typ)
	_ = o.Set("bits", got.bits)
	if pub, ok := got.k.pub.(*rsa.PublicKey); ok {
		_ = o.Set("bits", pub.N.BitLen())
		ab := vm.NewArrayBuffer(big.NewInt(int64(pub.E)).Bytes())
		e, _ := vm.New(vm.Get("Uint8Array"), vm.ToValue(ab))
		_ = o.Set("exponent", e)
	}
	return o
}

func (s subtle) secret(name string, b []byte) imported {
	if name[:4] == "AES-" && len(b) != 16 && len(b) != 24 && len(b) != 32 || name == "HMAC" && len(b) == 0 {
		s.fail("Data provided to an operation does not meet requirements", "DataError")
	}
	return imported{k: &subtleKey{secret: b}, typ: "secret", bits: 8 * len(b)}
}

// importAsymmetric reads raw (public), spki and pkcs8 keys.
func (s subtle) importAsymmetric(format, name string, b []byte, p param) imported {
	var key any
	var err error
	switch format {
	case "raw":
		switch name {
		case "Ed25519":
			if len(b) != ed25519.PublicKeySize {
				s.invalidData()
			}
			key = ed25519.PublicKey(b)
		case "ECDSA":
			key, err = ecdsa.ParseUncompressedPublicKey(curveOf[p.str("namedCurve")], b)
		default:
			s.notSupported()
		}
	case "spki":
		key, err = x509.ParsePKIXPublicKey(b)
	case "pkcs8":
		key, err = x509.ParsePKCS8PrivateKey(b)
	}
	if err != nil {
		s.invalidData()
	}
	return s.checked(name, key, p)
}

// checked answers key if it is of the algorithm (and curve) asked for.
func (s subtle) checked(name string, key any, p param) imported {
	k := &subtleKey{}
	if signer, ok := key.(crypto.Signer); ok {
		k.priv, k.pub = signer, signer.Public()
	} else {
		k.pub = key
	}
	ok := false
	switch pub := k.pub.(type) {
	case ed25519.PublicKey:
		ok = name == "Ed25519"
	case *ecdsa.PublicKey:
		ok = name == "ECDSA" && curveName[pub.Curve] == p.str("namedCurve")
	case *rsa.PublicKey:
		ok = name == "RSASSA-PKCS1-v1_5" || name == "RSA-PSS"
	}
	if !ok {
		s.invalidData()
	}
	if k.priv != nil {
		return imported{k: k, typ: "private"}
	}
	return imported{k: k, typ: "public"}
}

func (s subtle) exportKey(format, name string, k *subtleKey) goja.Value {
	if format == "jwk" {
		return s.exportJWK(k)
	}
	var out []byte
	var err error
	switch {
	case k.secret != nil:
		if format != "raw" || name == "PBKDF2" || name == "HKDF" {
			s.notSupported()
		}
		out = append([]byte(nil), k.secret...)
	case format == "raw" && k.priv == nil:
		switch pub := k.pub.(type) {
		case ed25519.PublicKey:
			out = append([]byte(nil), pub...)
		case *ecdsa.PublicKey:
			out, err = pub.Bytes()
		default:
			s.notSupported()
		}
	case format == "spki" && k.priv == nil:
		out, err = x509.MarshalPKIXPublicKey(k.pub)
	case format == "pkcs8" && k.priv != nil:
		out, err = x509.MarshalPKCS8PrivateKey(k.priv)
	default:
		s.fail("The requested operation is not valid for the provided key", "InvalidAccessError")
	}
	if err != nil {
		s.fail(opFailed, "OperationError")
	}
	return s.buffer(out)
}

var b64 = base64.RawURLEncoding

// importJWK reads a JSON Web Key (js/subtle.js copied its string members).
func (s subtle) importJWK(name string, o *goja.Object, p param) imported {
	str := func(k string) string {
		v := o.Get(k)
		if v == nil || goja.IsUndefined(v) {
			return ""
		}
		return v.String()
	}
	field := func(k string) []byte {
		b, err := b64.DecodeString(str(k))
		if err != nil || len(b) == 0 {
			s.invalidData()
		}
		return b
	}
	num := func(k string) *big.Int { return new(big.Int).SetBytes(field(k)) }
	var key any
	var err error
	switch str("kty") {
	case "oct":
		if name != "HMAC" && name[:4] != "AES-" {
			s.invalidData()
		}
		return s.secret(name, field("k"))
	case "OKP":
		if name != "Ed25519" || str("crv") != "Ed25519" {
			s.invalidData()
		}
		x := field("x")
		if str("d") == "" {
			key = ed25519.PublicKey(x)
			break
		}
		d := field("d")
		if len(d) != ed25519.SeedSize {
			s.invalidData()
		}
		priv := ed25519.NewKeyFromSeed(d)
		if string(priv.Public().(ed25519.PublicKey)) != string(x) {
			s.invalidData()
		}
		key = priv
	case "EC":
		curve := curveOf[str("crv")]
		if curve == nil || str("crv") != p.str("namedCurve") {
			s.invalidData()
		}
		size := (curve.Params().BitSize + 7) / 8
		point := append([]byte{4}, append(pad(field("x"), size), pad(field("y"), size)...)...)
		var pub *ecdsa.PublicKey
		if pub, err = ecdsa.ParseUncompressedPublicKey(curve, point); err != nil || str("d") == "" {
			key = pub
			break
		}
		var priv *ecdsa.PrivateKey
		if priv, err = ecdsa.ParseRawPrivateKey(curve, pad(field("d"), size)); err == nil && !priv.PublicKey.Equal(pub) {
			s.invalidData()
		}
		key = priv
	case "RSA":
		pub := rsa.PublicKey{N: num("n"), E: int(num("e").Int64())}
		if str("d") == "" {
			key = &pub
			break
		}
		priv := &rsa.PrivateKey{PublicKey: pub, D: num("d"), Primes: []*big.Int{num("p"), num("q")}}
		priv.Precompute()
		err = priv.Validate()
		key = priv
	default:
		s.invalidData()
	}
	if err != nil {
		s.invalidData()
	}
	return s.checked(name, key, p)
}

func pad(b []byte, size int) []byte {
	if len(b) >= size {
		return b
	}
	return append(make([]byte, size-len(b)), b...)
}

// exportJWK answers the key's members; js/subtle.js adds alg, ext and
// key_ops and orders them as Bun does.
func (s subtle) exportJWK(k *subtleKey) goja.Value {
	o := s.r.VM.NewObject()
	set := func(name string, b []byte) { _ = o.Set(name, b64.EncodeToString(b)) }
	if k.secret != nil {
		_ = o.Set("kty", "oct")
		set("k", k.secret)
		return o
	}
	switch pub := k.pub.(type) {
	case ed25519.PublicKey:
		_ = o.Set("kty", "OKP")
		_ = o.Set("crv", "Ed25519")
		set("x", pub)
		if priv, ok := k.priv.(ed25519.PrivateKey); ok {
			set("d", priv.Seed())
		}
	case *ecdsa.PublicKey:
		_ = o.Set("kty", "EC")
		_ = o.Set("crv", curveName[pub.Curve])
		point, _ := pub.Bytes()
		size := (len(point) - 1) / 2
		set("x", point[1:1+size])
		set("y", point[1+size:])
		if priv, ok := k.priv.(*ecdsa.PrivateKey); ok {
			d, _ := priv.Bytes()
			set("d", d)
		}
	case *rsa.PublicKey:
		_ = o.Set("kty", "RSA")
		set("n", pub.N.Bytes())
		set("e", big.NewInt(int64(pub.E)).Bytes())
		if priv, ok := k.priv.(*rsa.PrivateKey); ok {
			set("d", priv.D.Bytes())
			set("p", priv.Primes[0].Bytes())
			set("q", priv.Primes[1].Bytes())
			set("dp", priv.Precomputed.Dp.Bytes())
			set("dq", priv.Precomputed.Dq.Bytes())
			set("qi", priv.Precomputed.Qinv.Bytes())
		}
	}
	return o
}
