package jshost

import (
	"encoding/json"
	"os"
	"reflect"
	"testing"
)

// subtleBunDiffers are the probe's cases where Node and Bun answer
// differently, with Bun's answer (the host matches Bun): Bun lists a
// generated HMAC key's length after its hash and its usages in the Web
// Crypto's order, and names the non-extractable error right.
var subtleBunDiffers = map[string]string{
	"HMAC generate SHA-512":  `[{"type":"secret","extractable":true,"algorithm":{"name":"HMAC","hash":{"name":"SHA-512"},"length":1024},"usages":["sign"],"tag":"[object CryptoKey]"},128]`,
	"non-extractable export": `{"threw":"InvalidAccessError"}`,
	"AES generate 256":       `[{"type":"secret","extractable":true,"algorithm":{"name":"AES-GCM","length":256},"usages":["encrypt","decrypt"],"tag":"[object CryptoKey]"},32]`,
}

// TestSubtleAsNode runs testdata/subtle.js, about 75 crypto.subtle
// operations (known test vectors, fixed keys, round trips and errors),
// and compares each answer with what Node 20 answered
// (testdata/subtle.node.json), or Bun where the two differ.
func TestSubtleAsNode(t *testing.T) {
	probe, err := os.ReadFile("testdata/subtle.js")
	if err != nil {
		t.Fatal(err)
	}
	golden, err := os.ReadFile("testdata/subtle.node.json")
	if err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal(golden, &want); err != nil {
		t.Fatal(err)
	}
	for name, v := range subtleBunDiffers {
		var bun any
		if err := json.Unmarshal([]byte(v), &bun); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		want[name] = bun
	}
	s, _ := loadTools(t, project(t, map[string]string{"tools/probe.js": tool("async execute() {\n" + string(probe) + "\nreturn run() }")}), Options{}, "tools/probe.js")
	mustLoad(t, s)
	r := call(t, s, "probe", "{}")
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Output), &got); r.IsError || err != nil {
		t.Fatalf("probe: %v %s", err, r.Output)
	}
	if len(want) < 50 || len(got) != len(want) {
		t.Fatalf("probe answered %d cases, golden has %d", len(got), len(want))
	}
	for name, w := range want {
		if !reflect.DeepEqual(got[name], w) {
			g, _ := json.Marshal(got[name])
			wj, _ := json.Marshal(w)
			t.Errorf("%s:\n got %s\nwant %s", name, g, wj)
		}
	}
}

// TestSubtleErrors: refusals carry Bun's class, name and message.
func TestSubtleErrors(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{"tools/e.ts": tool(evalTool)}), Options{}, "tools/e.ts")
	mustLoad(t, s)
	const hmac = "crypto.subtle.importKey('raw', new Uint8Array(4), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])"
	const aes = "crypto.subtle.importKey('raw', new Uint8Array(16), 'AES-GCM', false, ['encrypt'])"
	cases := []struct{ name, code, want string }{
		{"unknown digest", "crypto.subtle.digest('MD5', new Uint8Array(1)).catch((e) => [e instanceof DOMException, e.name, e.message, e.code])", `[true,"NotSupportedError","Unrecognized algorithm name",9]`},
		{"not extractable", hmac + ".then((k) => crypto.subtle.exportKey('raw', k)).catch((e) => [e.name, e.message, e.code])", `["InvalidAccessError","key is not extractable",15]`},
		{"wrong usage", hmac + ".then((k) => crypto.subtle.verify('HMAC', k, new Uint8Array(32), new Uint8Array(1))).catch((e) => [e.name, e.message])", `["InvalidAccessError","Unable to use this key to verify"]`},
		{"bad usage is a SyntaxError", "crypto.subtle.importKey('raw', new Uint8Array(4), { name: 'HMAC', hash: 'SHA-256' }, false, ['encrypt']).catch((e) => [e instanceof SyntaxError, e.message])", `[true,"Unsupported key usage for HMAC key"]`},
		{"missing member", "crypto.subtle.importKey('raw', new Uint8Array(4), { name: 'HMAC' }, false, ['sign']).catch((e) => [e instanceof TypeError, e.code, e.message])", `[true,"ERR_MISSING_OPTION","Member HmacKeyParams.hash is required and must be an instance of (object or DOMString)"]`},
		{"decrypt with an encrypt key", aes + ".then((k) => crypto.subtle.decrypt({ name: 'AES-GCM', iv: new Uint8Array(12) }, k, new Uint8Array(20))).catch((e) => [e.name, e.message])", `["InvalidAccessError","Unable to use this key to decrypt"]`},
		{"tag length", aes + ".then((k) => crypto.subtle.encrypt({ name: 'AES-GCM', iv: new Uint8Array(12), tagLength: 100 }, k, new Uint8Array(2))).catch((e) => [e.name, e.message])", `["OperationError","100 is not a valid AES-GCM tag length"]`},
		{"bad AES key", "crypto.subtle.importKey('raw', new Uint8Array(15), 'AES-GCM', false, ['encrypt']).catch((e) => [e.name, e.message])", `["DataError","Data provided to an operation does not meet requirements"]`},
		{"not implemented", "crypto.subtle.generateKey({ name: 'RSA-OAEP' }, false, ['encrypt']).catch((e) => [e.name, e.message.startsWith('RSA-OAEP is not supported')])", `["NotSupportedError",true]`},
		{"getRandomValues over 64 KiB", "crypto.getRandomValues(new Uint8Array(70000)).length", "70000"},
		{"getRandomValues of floats", "(() => { try { crypto.getRandomValues(new Float32Array(1)) } catch (e) { return [e instanceof DOMException, e.name, e.code] } })()", `[true,"TypeMismatchError",17]`},
		{"node webcrypto is the global", "[require('node:crypto').webcrypto === crypto, require('node:crypto').subtle === crypto.subtle]", "[true,true]"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"code": c.code})
			if r := call(t, s, "e", string(args)); r.Output != c.want {
				t.Errorf("%s\n got %s\nwant %s", c.code, r.Output, c.want)
			}
		})
	}
}
