package jshost

import "testing"

// TextDecoder and TextEncoder as Node 20 has them (wants printed by Node).
func TestTextDecoderLikeNode(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`new TextDecoder('utf-16le').decode(new Uint8Array([0x48, 0x00, 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde]))`, `"Hé😀"`},
		{`[new TextDecoder('UTF-16').encoding, new TextDecoder(' Latin1 ').encoding, new TextDecoder('ascii').encoding, new TextDecoder('utf-16be').encoding]`, `["utf-16le","windows-1252","windows-1252","utf-16be"]`},
		// windows-1252 as the spec and Bun have it (Node 20 decodes ISO-8859-1).
		{`[...new TextDecoder('latin1').decode(new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x80, 0x81, 0x9f]))].map((c) => c.codePointAt(0))`, `[99,97,102,233,8364,129,376]`},
		{`new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0xfe, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98]))`, `"a���b�"`},
		{`(() => { const d = new TextDecoder(); return [d.decode(new Uint8Array([0xe2]), { stream: true }), d.decode(new Uint8Array([0x82]), { stream: true }), d.decode(new Uint8Array([0xac, 0xe2]), { stream: true }), d.decode()] })()`, `["","","€","�"]`},
		{`(() => { const d = new TextDecoder('utf-16le'); return [d.decode(new Uint8Array([0x3d]), { stream: true }), d.decode(new Uint8Array([0xd8]), { stream: true }), d.decode(new Uint8Array([0x00, 0xde, 0x41]))] })()`, `["","","😀�"]`},
		{`(() => { try { new TextDecoder('utf-16le', { fatal: true }).decode(new Uint8Array([0x00, 0xd8])); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`new TextDecoder('utf-16le').decode(new Uint8Array([0xff, 0xfe, 0x68, 0x00]))`, `"h"`},
		{`new TextDecoder('utf-16be').decode(new Uint8Array([0x00, 0x68, 0xd8, 0x3d, 0xde, 0x00]))`, `"h😀"`},
		{`(() => { const d = new TextDecoder(); return [d.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x61])), d.decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x62]))] })()`, `["a","b"]`},
		{`(() => { try { new TextDecoder('klingon'); return 'ok' } catch (e) { return [e.name, e.code] } })()`, `["RangeError","ERR_ENCODING_NOT_SUPPORTED"]`},
		{`(() => { const t = new Uint8Array(5); const r = new TextEncoder().encodeInto('a😀b', t); return [r, [...t]] })()`, `[{"read":3,"written":5},[97,240,159,152,128]]`},
		{`(() => { const t = new Uint8Array(3); return new TextEncoder().encodeInto('a😀', t) })()`, `{"read":1,"written":1}`},
		{`(() => { try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xe2, 0x82])); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
	})
}
