package jshost

import "testing"

// Buffer as Node 20 has it (wants printed by Node).
func TestNodeBuffer(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`Buffer.from('aGVs bG8=\n', 'base64').toString()`, `"hello"`},
		{`Buffer.from('ab!cd', 'base64').toString('hex')`, `"69b71d"`},
		{`[Buffer.byteLength('aGVs bG8=\n', 'base64'), Buffer.byteLength('abc', 'hex'), Buffer.byteLength('é', 'latin1'), Buffer.byteLength('é', 'ucs2'), Buffer.byteLength('😀')]`, `[7,1,1,2,4]`},
		{`Buffer.from('_-8', 'base64url').toString('hex')`, `"ffef"`},
		{`Buffer.from([0xfb, 0xff]).toString('base64url')`, `"-_8"`},
		{`Buffer.from('abc', 'hex').toString('hex')`, `"ab"`},
		{`Buffer.from('12zz34', 'hex').toString('hex')`, `"12"`},
		{`Buffer.from('café', 'latin1').toString('hex')`, `"636166e9"`},
		{`Buffer.from([0xe9, 0xff, 0x41]).toString('latin1')`, `"éÿA"`},
		{`Buffer.from([0xe9, 0x41]).toString('ascii')`, `"iA"`},
		{`Buffer.from('h😀', 'utf16le').toString('hex')`, `"68003dd800de"`},
		{`Buffer.from([0x3d, 0xd8, 0x41]).toString('utf16le').length`, `1`},
		{`Buffer.from([0x61, 0xff, 0xfe, 0xe2, 0x82, 0x62, 0xf0, 0x9f, 0x98]).toString()`, `"a���b�"`},
		{`Buffer.from('\ud800x').toString('hex')`, `"efbfbd78"`},
		{`Buffer.isEncoding('UCS-2') && !Buffer.isEncoding('') && !Buffer.isEncoding(1)`, `true`},
		{`(() => { try { Buffer.from('x', 'nope'); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`Buffer.from('hello').toString('utf8', -3, 100)`, `"hello"`},
		{`Buffer.from('hello').toString(undefined, 2)`, `"llo"`},
		{`[Buffer.from('abcabc').indexOf('c', -2), Buffer.from('abcabc').lastIndexOf('b', -3), Buffer.from('abc').indexOf(''), Buffer.from('abc').indexOf('', 10), Buffer.from('abc').lastIndexOf('c', 10), Buffer.from('abc').indexOf(98 + 256), Buffer.from('abc').indexOf('b', 'latin1'), Buffer.from('abc').lastIndexOf('a', -10)]`, `[5,1,0,3,2,1,1,-1]`},
		{`Buffer.from('hello').slice(1, -1).toString()`, `"ell"`},
		{`Buffer.from('hello').subarray(1, 3) instanceof Buffer`, `true`},
		{`Buffer.from('hello').map((x) => x + 1) instanceof Buffer`, `true`},
		{`Buffer.from('hello').filter((x) => x > 104).toString()`, `"llo"`},
		{`Buffer.alloc(5, 'abc', 'latin1').toString()`, `"abcab"`},
		{`Buffer.alloc(4, 0x101).toString('hex')`, `"01010101"`},
		{`Buffer.alloc(5).fill('61', 1, 'hex').toString('hex')`, `"0061616161"`},
		{`(() => { try { Buffer.alloc(3).fill('zz', 'hex'); return 'ok' } catch (e) { return e.code } })()`, `"ERR_INVALID_ARG_VALUE"`},
		{`Buffer.alloc(3).fill(Buffer.from([1, 2])).toString('hex')`, `"010201"`},
		{`(() => { const b = Buffer.alloc(4); return [b.write('€€'), b.toString('hex')] })()`, `[3,"e282ac00"]`},
		{`(() => { const b = Buffer.alloc(4); return [b.write('abcd', 'hex'), b.write('ff', 2, 'hex'), b.toString('hex')] })()`, `[2,1,"abcdff00"]`},
		{`(() => { const b = Buffer.alloc(3); return [b.write('xyz', 1, 1), b.toString()] })()`, `[1,"\u0000x\u0000"]`},
		{`(() => { const b = Buffer.from('abcdef'); return [b.copy(b, 2, 0, 4), b.toString()] })()`, `[4,"ababcd"]`},
		{`(() => { const b = Buffer.alloc(2); return [Buffer.from('abc').copy(b, 0, 1, 100), b.toString()] })()`, `[2,"bc"]`},
		{`[Buffer.from('b').compare(Buffer.from('a')), Buffer.from('abc').compare(Buffer.from('xbc'), 1, 3, 1, 3), Buffer.compare(Buffer.from('a'), Buffer.from('ab'))]`, `[1,0,-1]`},
		{`(() => { try { Buffer.compare('a', Buffer.from('a')); return 'ok' } catch (e) { return e.code } })()`, `"ERR_INVALID_ARG_TYPE"`},
		{`Buffer.from(new Uint16Array([1, 2]).buffer).toString('hex')`, `"01000200"`},
		{`Buffer.from(Buffer.from('ab')).toString()`, `"ab"`},
		{`JSON.stringify(Buffer.from('hi'))`, `"{\"type\":\"Buffer\",\"data\":[104,105]}"`},
		{`Buffer.concat([Buffer.from('a'), new Uint8Array([98])]).toString()`, `"ab"`},
		{`Buffer.isBuffer(Buffer.alloc(0).subarray(0))`, `true`},
		{`'' + Buffer.from('tpl')`, `"tpl"`},
		{`Buffer.from('€').toLocaleString()`, `"€"`},
		{`Buffer.allocUnsafe(3).length`, `3`},
		// Empty views at the end of their buffer (goja points past the end
		// if they are exported: fatal under -race).
		{"[Buffer.from(Buffer.from('ab').subarray(2)).length, Buffer.from('ab').subarray(2).toString('hex'), new TextDecoder().decode(Buffer.from('ab').subarray(2)), Buffer.from('ab').subarray(2).indexOf('a'), Buffer.compare(Buffer.from('ab').subarray(2), Buffer.alloc(0))]", "[0,\"\",\"\",-1,0]"},
	})
}

// The Buffer function itself: Buffer(n), new Buffer(...), identity
// (wants printed by Node 20).
func TestNodeBufferConstructor(t *testing.T) {
	checkLikeNode(t, "import buffer from 'node:buffer'\nimport util from 'node:util'", []nodeCase{
		{"[Buffer(3).length, new Buffer(2).toString('hex'), Buffer('hi').toString(), new Buffer('aGk=', 'base64').toString(), Buffer([1, 2]).length]", "[3,\"0000\",\"hi\",\"hi\",2]"},
		{"(() => { try { Buffer(-1); return 'ok' } catch (e) { return [e.name, e.code] } })()", "[\"RangeError\",\"ERR_OUT_OF_RANGE\"]"},
		{"(() => { try { Buffer.alloc('3'); return 'ok' } catch (e) { return [e.name, e.code] } })()", "[\"TypeError\",\"ERR_INVALID_ARG_TYPE\"]"},
		{"(() => { try { Buffer(5, 'utf8'); return 'ok' } catch (e) { return [e.name, e.code] } })()", "[\"TypeError\",\"ERR_INVALID_ARG_TYPE\"]"},
		{"[Buffer.from('a').constructor === Buffer, Buffer.name, Buffer.prototype === Object.getPrototypeOf(Buffer.from('a')), Object.getPrototypeOf(Buffer) === Uint8Array, Buffer.from('ab') instanceof Buffer, Buffer.poolSize]", "[true,\"Buffer\",true,true,true,8192]"},
		{"buffer.Buffer === Buffer", "true"},
		{"util.inspect(Buffer.from('hi'))", "\"<Buffer 68 69>\""},
	})
}
