package release

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Envelope is a signed payload: Signature is ed25519 over exactly the
// Payload bytes (JSON), KeyID names the signing key (see KeyID).
type Envelope struct {
	Payload   []byte `json:"payload"`
	Signature []byte `json:"signature"`
	KeyID     string `json:"key_id"`
}

// KeyID names a public key: "ed25519:" and the first 16 hex digits of the
// SHA-256 of the key bytes. It lets an executor say which key signed what it
// refused; it is not a security boundary.
func KeyID(pub ed25519.PublicKey) string {
	sum := sha256.Sum256(pub)
	return "ed25519:" + hex.EncodeToString(sum[:8])
}

// Sign marshals payload to JSON and signs the bytes.
func Sign(priv ed25519.PrivateKey, payload any) (Envelope, error) {
	b, err := json.Marshal(payload)
	if err != nil {
		return Envelope{}, fmt.Errorf("sign: marshal payload: %w", err)
	}
	return Envelope{
		Payload:   b,
		Signature: ed25519.Sign(priv, b),
		KeyID:     KeyID(priv.Public().(ed25519.PublicKey)),
	}, nil
}

// Verify checks env's signature over its exact payload bytes with pub, then
// unmarshals the payload into into. A signature that does not verify is
// ErrBadSignature (errors.Is); nothing is unmarshalled then.
func Verify(pub ed25519.PublicKey, env Envelope, into any) error {
	if len(pub) != ed25519.PublicKeySize {
		return fmt.Errorf("verify: public key has %d bytes, want %d", len(pub), ed25519.PublicKeySize)
	}
	if !ed25519.Verify(pub, env.Payload, env.Signature) {
		if want := KeyID(pub); env.KeyID != want {
			return fmt.Errorf("verify: %w: signed by key %s, the trusted key is %s", ErrBadSignature, env.KeyID, want)
		}
		return fmt.Errorf("verify: %w: the payload or signature was altered", ErrBadSignature)
	}
	if err := json.Unmarshal(env.Payload, into); err != nil {
		return fmt.Errorf("verify: unmarshal signed payload: %w", err)
	}
	return nil
}

// PEM block types of the key files (PKCS#8 and PKIX, as openssl writes them).
const (
	pemPrivate = "PRIVATE KEY"
	pemPublic  = "PUBLIC KEY"
)

// LoadOrCreateKey reads the ed25519 private key at path (PEM, PKCS#8), or on
// first run makes a new one and writes it with mode 0600. Creation is atomic
// and exclusive: a temp file is written and fsynced, then hard-linked to
// path, so two processes starting at once end up with the same key.
func LoadOrCreateKey(path string) (ed25519.PrivateKey, error) {
	priv, err := loadPrivateKey(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return priv, err
	}
	_, priv, err = ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("create signing key %s: %w", path, err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		return nil, fmt.Errorf("create signing key %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("create signing key %s: %w", path, err)
	}
	err = writeExclusive(path, pem.EncodeToMemory(&pem.Block{Type: pemPrivate, Bytes: der}), 0o600)
	if errors.Is(err, fs.ErrExist) {
		return loadPrivateKey(path) // another process made it first
	}
	if err != nil {
		return nil, fmt.Errorf("create signing key %s: %w", path, err)
	}
	return priv, nil
}

func loadPrivateKey(path string) (ed25519.PrivateKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read signing key: %w", err)
	}
	block, _ := pem.Decode(b)
	if block == nil || block.Type != pemPrivate {
		return nil, fmt.Errorf("read signing key %s: not a PEM %q block; delete it to make a new key, or give an ed25519 PKCS#8 key", path, pemPrivate)
	}
	k, err := x509.ParsePKCS8PrivateKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("read signing key %s: %w", path, err)
	}
	priv, ok := k.(ed25519.PrivateKey)
	if !ok {
		return nil, fmt.Errorf("read signing key %s: key is %T, want ed25519", path, k)
	}
	return priv, nil
}

// WritePublicKey writes pub to path (PEM, PKIX "PUBLIC KEY", mode 0644),
// atomically. That file is what `beeuni executor --trust-key` takes.
func WritePublicKey(path string, pub ed25519.PublicKey) error {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return fmt.Errorf("write public key %s: %w", path, err)
	}
	if err := writeAtomic(path, pem.EncodeToMemory(&pem.Block{Type: pemPublic, Bytes: der}), 0o644); err != nil {
		return fmt.Errorf("write public key %s: %w", path, err)
	}
	return nil
}

// LoadPublicKey reads a public key file written by WritePublicKey (or by
// `openssl pkey -pubout`).
func LoadPublicKey(path string) (ed25519.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read trusted key: %w", err)
	}
	block, _ := pem.Decode(b)
	switch {
	case block == nil:
		return nil, fmt.Errorf("read trusted key %s: not a PEM file; give the controller's public key file", path)
	case block.Type == pemPrivate:
		return nil, fmt.Errorf("read trusted key %s: this is a private key; give executors the public key (beeuni writes it next to the signing key)", path)
	case block.Type != pemPublic:
		return nil, fmt.Errorf("read trusted key %s: PEM block %q, want %q", path, block.Type, pemPublic)
	}
	k, err := x509.ParsePKIXPublicKey(block.Bytes)
	if err != nil {
		return nil, fmt.Errorf("read trusted key %s: %w", path, err)
	}
	pub, ok := k.(ed25519.PublicKey)
	if !ok {
		return nil, fmt.Errorf("read trusted key %s: key is %T, want ed25519", path, k)
	}
	return pub, nil
}

// writeTemp writes data to a new temp file next to path, fsynced.
func writeTemp(path string, data []byte, perm fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return "", err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp)
		return "", err
	}
	return tmp, nil
}

func writeAtomic(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return syncDir(filepath.Dir(path))
}

// writeExclusive is writeAtomic that fails with fs.ErrExist if path exists.
func writeExclusive(path string, data []byte, perm fs.FileMode) error {
	tmp, err := writeTemp(path, data, perm)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
