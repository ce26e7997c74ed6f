package release

import (
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

func testRecord(tb testing.TB) *Record {
	tb.Helper()
	r := newTestRepo(tb)
	r.write("beeuni.yaml", "tools: []\n", 0o644)
	r.write("tools/a.ts", "export default {}\n", 0o644)
	r.write("bin/run", "#!/bin/sh\necho hi\n", 0o755)
	r.symlink("tools/b.ts", "a.ts")
	rec := r.build(r.commitAll("record"), nil).Record("demo", 7, time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	rec.Tools = []ToolRef{{Name: "a", Kind: "project", Source: "tools/a.ts", Digest: sha("export default {}\n")}}
	return rec
}

func TestKeyFiles(t *testing.T) {
	dir := t.TempDir()
	keyPath := filepath.Join(dir, "keys", "signing.key")
	priv, err := LoadOrCreateKey(keyPath)
	if err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(keyPath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file %v, %v: want mode 0600", fi, err)
	}
	again, err := LoadOrCreateKey(keyPath)
	if err != nil || !again.Equal(priv) {
		t.Fatalf("second LoadOrCreateKey gave another key (%v)", err)
	}
	pubPath := filepath.Join(dir, "signing.pub")
	if err := WritePublicKey(pubPath, priv.Public().(ed25519.PublicKey)); err != nil {
		t.Fatal(err)
	}
	pub, err := LoadPublicKey(pubPath)
	if err != nil || !pub.Equal(priv.Public()) {
		t.Fatalf("LoadPublicKey = %v, want the key's public half", err)
	}
	if _, err := LoadPublicKey(keyPath); err == nil || !strings.Contains(err.Error(), "private key") {
		t.Fatalf("LoadPublicKey(private key file) err = %v, want a message about the private key", err)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "keys")); len(entries) != 1 {
		t.Fatalf("key folder holds %d files, want only the key (no temp files left)", len(entries))
	}
}

func TestLoadOrCreateKeyConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "k")
	keys := make([]ed25519.PrivateKey, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Go(func() {
			k, err := LoadOrCreateKey(path)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		})
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !k.Equal(keys[0]) {
			t.Fatalf("concurrent first runs ended with different keys")
		}
	}
}

func TestSignVerify(t *testing.T) {
	rec := testRecord(t)
	_, priv, _ := ed25519.GenerateKey(nil)
	pub := priv.Public().(ed25519.PublicKey)
	otherPub, _, _ := ed25519.GenerateKey(nil)
	env, err := Sign(priv, rec)
	if err != nil {
		t.Fatal(err)
	}
	// The envelope survives a JSON round trip (it travels over NATS).
	var wire Envelope
	if err := json.Unmarshal(mustJSON(t, env), &wire); err != nil {
		t.Fatal(err)
	}
	var got Record
	if err := Verify(pub, wire, &got); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if err := VerifyRecord(&got); err != nil {
		t.Fatalf("VerifyRecord of a good record: %v", err)
	}
	sameJSON(t, "signed and verified record", rec, &got)

	tamper := func(f func(e *Envelope)) Envelope {
		e := Envelope{Payload: append([]byte(nil), env.Payload...), Signature: append([]byte(nil), env.Signature...), KeyID: env.KeyID}
		f(&e)
		return e
	}
	tests := []struct {
		name    string
		pub     ed25519.PublicKey
		env     Envelope
		wantMsg string
	}{
		{"tampered payload", pub, tamper(func(e *Envelope) {
			e.Payload = []byte(strings.Replace(string(e.Payload), `"demo"`, `"evil"`, 1))
		}), "altered"},
		{"tampered signature", pub, tamper(func(e *Envelope) { e.Signature[0] ^= 1 }), "altered"},
		{"wrong key", otherPub, env, "signed by key " + KeyID(pub)},
	}
	var into Record
	if err := Verify(pub[:16], env, &into); err == nil || !strings.Contains(err.Error(), "public key has 16 bytes") || into.ID != "" {
		t.Errorf("Verify with a 16-byte key: %v", err)
	}
	for _, tc := range tests {
		var into Record
		err := Verify(tc.pub, tc.env, &into)
		if !errors.Is(err, ErrBadSignature) || errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), tc.wantMsg) {
			t.Errorf("%s: err = %v, want ErrBadSignature saying %q", tc.name, err, tc.wantMsg)
		}
		if into.ID != "" {
			t.Errorf("%s: payload was unmarshalled despite the bad signature", tc.name)
		}
	}
}

func TestVerifyContent(t *testing.T) {
	rec := testRecord(t)
	tests := []struct {
		name   string
		mutate func(r *Record)
		want   string
	}{
		{"entry digest changed", func(r *Record) { r.Entries[0].Digest = sha("other") }, "tampered content: the entries digest to"},
		{"entry added", func(r *Record) { r.Entries = append(r.Entries, Entry{Path: "zz", Mode: ModeFile, Digest: sha("")}) }, "tampered content"},
		{"mode changed", func(r *Record) { r.Entries[0].Mode = ModeExecutable }, "tampered content"},
		{"digest replaced with id left", func(r *Record) { r.Entries = r.Entries[1:]; r.Digest = Digest(r.Entries) }, "id does not match"},
		{"path escapes", func(r *Record) { r.Entries[0].Path = "../x" }, `".." segment`},
		{"unsorted", func(r *Record) { r.Entries[0], r.Entries[1] = r.Entries[1], r.Entries[0] }, "not sorted"},
		{"duplicate path", func(r *Record) { r.Entries[1].Path = r.Entries[0].Path }, "not sorted and unique"},
		{"unknown mode", func(r *Record) { r.Entries[0].Mode = "100666" }, `unknown mode "100666"`},
		{"malformed digest", func(r *Record) { r.Entries[0].Digest = strings.ToUpper(r.Entries[0].Digest) }, "malformed digest"},
		{"short digest", func(r *Record) { r.Entries[0].Digest = r.Entries[0].Digest[:10] }, "malformed digest"},
	}
	for _, tc := range tests {
		var r Record
		if err := json.Unmarshal(mustJSON(t, rec), &r); err != nil {
			t.Fatal(err)
		}
		tc.mutate(&r)
		err := VerifyRecord(&r)
		if !errors.Is(err, ErrTampered) || errors.Is(err, ErrBadSignature) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want ErrTampered saying %q", tc.name, err, tc.want)
		}
	}
	// The digest is over the sorted entries, whatever order they come in.
	rev := slices.Clone(rec.Entries)
	slices.Reverse(rev)
	if got := Digest(rev); got != rec.Digest {
		t.Errorf("Digest of the entries in reverse = %s, want %s", got, rec.Digest)
	}
	e := rec.Entries[0]
	if err := VerifyContent(e, []byte("tampered")); !errors.Is(err, ErrTampered) || !strings.Contains(err.Error(), e.Path) {
		t.Errorf("VerifyContent(tampered) = %v, want ErrTampered naming %s", err, e.Path)
	}
}

func TestIDs(t *testing.T) {
	id := FormatID(7, "3f9a2c1d4e5b77777777")
	if id != "r7-3f9a2c1d4e5b" {
		t.Fatalf("FormatID = %s", id)
	}
	seq, prefix, err := ParseID(id)
	if err != nil || seq != 7 || prefix != "3f9a2c1d4e5b" {
		t.Fatalf("ParseID = %d %s %v", seq, prefix, err)
	}
	for _, bad := range []string{"", "7-3f9a2c1d4e5b", "r-3f9a2c1d4e5b", "rx-3f9a2c1d4e5b", "r7-3f9a", "r7-3F9A2C1D4E5B"} {
		if _, _, err := ParseID(bad); err == nil {
			t.Errorf("ParseID(%q) accepted", bad)
		}
	}
}
