package jshost

import "testing"

// WeakRef, FinalizationRegistry and performance as Node 20 has them
// (wants printed by Node).
func TestNodeGlobals(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`(() => { const t = { id: 1 }; const r = new WeakRef(t); return [r.deref() === t, Object.prototype.toString.call(r), typeof WeakRef.prototype.deref] })()`, `[true,"[object WeakRef]","function"]`},
		{`(() => { try { new WeakRef(1); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { try { WeakRef({}); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { try { WeakRef.prototype.deref.call({}); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { const fr = new FinalizationRegistry(() => {}); const t = {}, tok = {}; fr.register(t, 'h', tok); fr.register({}, 'h2', tok); return [fr.unregister(tok), fr.unregister(tok), fr.unregister({}), Object.prototype.toString.call(fr), fr.register({}, 1)] })()`, `[true,false,false,"[object FinalizationRegistry]",null]`},
		{`(() => { try { new FinalizationRegistry(1); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { const fr = new FinalizationRegistry(() => {}); const t = {}; try { fr.register(t, t); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { const fr = new FinalizationRegistry(() => {}); try { fr.register(1, 'x'); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { const fr = new FinalizationRegistry(() => {}); try { fr.unregister(1); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { const fr = new FinalizationRegistry(() => {}); try { fr.register({}, 'x', 1); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`[typeof WeakRef, typeof FinalizationRegistry, WeakRef.name, WeakRef.length, FinalizationRegistry.length]`, `["function","function","WeakRef",1,1]`},
		{`(() => { class R extends WeakRef { get extra() { return 'e' } } const t = {}; const r = new R(t); return [r.deref() === t, r.extra, r instanceof WeakRef] })()`, `[true,"e",true]`},
		{`(async () => { const t0 = performance.now(); performance.mark('a'); await new Promise((r) => setTimeout(r, 3)); performance.mark('b', { detail: { k: 1 } }); const m = performance.measure('ab', 'a', 'b'); return [typeof t0, m.name, m.entryType, m.duration > 0, performance.getEntriesByType('mark').map((e) => e.name), performance.getEntriesByName('b')[0].detail, performance.getEntries().length] })()`, `["number","ab","measure",true,["a","b"],{"k":1},3]`},
		{`(() => { try { performance.measure('x', 'missing'); return 'ok' } catch (e) { return [e.name, e.message] } })()`, `["SyntaxError","The \"missing\" performance mark has not been set"]`},
		{`(() => { performance.mark('c', { startTime: 5 }); performance.mark('d', { startTime: 12 }); const m = performance.measure('cd', { start: 'c', end: 'd' }); const n = performance.measure('dur', { start: 0, duration: 3 }); return [m.startTime, m.duration, n.duration, n.startTime] })()`, `[5,7,3,0]`},
		{`(() => { performance.clearMarks(); performance.clearMeasures('cd'); return [performance.getEntriesByType('mark').length, performance.getEntriesByType('measure').map((e) => e.name)] })()`, `[0,["dur","ab"]]`},
		{`[performance.timeOrigin > 1.6e12, typeof performance.toJSON().timeOrigin, Object.prototype.toString.call(performance)]`, `[true,"number","[object Performance]"]`},
		{`(() => { const m = performance.mark('j'); return Object.keys(m.toJSON()) })()`, `["name","entryType","startTime","duration","detail"]`},
	})
}

// process and node:process (wants printed by Node).
func TestNodeProcess(t *testing.T) {
	checkLikeNode(t, "import proc from 'node:process'", []nodeCase{
		{`[proc === process, typeof process.memoryUsage().heapUsed, typeof process.memoryUsage.rss(), process.stdout.isTTY, typeof process.stdout.write, process.exitCode, typeof process.hrtime.bigint(), process.hrtime(process.hrtime()).length, typeof process.on, process.on('exit', () => {}) === process, process.listenerCount('exit')]`, `[true,"number","number",null,"function",null,"bigint",2,"function",true,1]`},
		{`(() => { let got = null; process.once('custom', (v) => { got = v }); process.emit('custom', 7); return got })()`, `7`},
	})
}

// The ES2024 built-ins and globals goja lacks (wants by the spec: Node 20
// has neither Object.groupBy nor navigator).
func TestES2024Globals(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`(() => { const g = Object.groupBy([1, 2, 3, 4], (x, i) => (x % 2 ? 'odd' : 'even') + (i > 1 ? '+' : '')); return [Object.getPrototypeOf(g) === null, Object.keys(g), g['odd'], g['even+']] })()`, `[true,["odd","even","odd+","even+"],[1],[4]]`},
		{`(() => { const m = Map.groupBy([1, -0, 2], (x) => (x === 2 ? 'two' : 0)); return [[...m.keys()], m.get(0).length, Object.is(m.get(0)[1], -0)] })()`, `[[0,"two"],2,true]`},
		{`(() => { try { Object.groupBy(null, (x) => x); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(async () => { const { promise, resolve } = Promise.withResolvers(); setTimeout(() => resolve('done'), 1); return [await promise, promise instanceof Promise] })()`, `["done",true]`},
		{`(async () => { const { promise, reject } = Promise.withResolvers(); reject(new Error('no')); return await promise.catch((e) => e.message) })()`, `"no"`},
		{`[globalThis.global === globalThis, Object.getOwnPropertyDescriptor(globalThis, 'global').enumerable, typeof navigator.hardwareConcurrency, typeof reportError]`, `[true,true,"number","function"]`},
	})
}

// string_decoder, querystring, tty, timers/promises (wants printed by
// Node 20).
func TestNodeSmallModules(t *testing.T) {
	checkLikeNode(t, "import sd from 'node:string_decoder'\nimport qs from 'node:querystring'\nimport tty from 'node:tty'\nimport tp from 'node:timers/promises'", []nodeCase{
		{"(() => { const d = new sd.StringDecoder('utf8'); const e = Buffer.from('€'); return [d.write(e.subarray(0, 1)), d.write(e.subarray(1, 2)), d.write(e.subarray(2)), d.write(Buffer.from([0xe2])), d.end()] })()", "[\"\",\"\",\"€\",\"\",\"�\"]"},
		{"(() => { const d = new sd.StringDecoder('base64'); return [d.write(Buffer.from('hell')), d.write(Buffer.from('o')), d.end()] })()", "[\"aGVs\",\"\",\"bG8=\"]"},
		{"(() => { const d = new sd.StringDecoder('hex'); return [d.write(Buffer.from([1, 255])), d.end(Buffer.from([2])), d.encoding] })()", "[\"01ff\",\"02\",\"hex\"]"},
		{"(() => { try { new sd.StringDecoder('nope'); return 'ok' } catch (e) { return [e.name, e.code] } })()", "[\"TypeError\",\"ERR_UNKNOWN_ENCODING\"]"},
		{"[new sd.StringDecoder().encoding, new sd.StringDecoder('UCS2').encoding, new sd.StringDecoder('binary').encoding]", "[\"utf8\",\"utf16le\",\"latin1\"]"},
		{"[qs.stringify({ a: [1, 2], b: 'x y', c: true, d: null, e: NaN, f: {}, 'k y': 'ü/?' }), qs.stringify({ a: 1 }, ';', ':')]", "[\"a=1&a=2&b=x%20y&c=true&d=&e=&f=&k%20y=%C3%BC%2F%3F\",\"a:1\"]"},
		{"JSON.stringify(qs.parse('a=1&a=2&b=%20c&c&d=x+y&%zz=1&e=%E0%A4%A'))", "\"{\\\"a\\\":[\\\"1\\\",\\\"2\\\"],\\\"b\\\":\\\" c\\\",\\\"c\\\":\\\"\\\",\\\"d\\\":\\\"x y\\\",\\\"%zz\\\":\\\"1\\\",\\\"e\\\":\\\"�%A\\\"}\""},
		{"JSON.stringify(qs.parse('a:1;b:2', ';', ':'))", "\"{\\\"a\\\":\\\"1\\\",\\\"b\\\":\\\"2\\\"}\""},
		{"JSON.stringify(qs.parse('a=1&b=2&c=3', null, null, { maxKeys: 2 }))", "\"{\\\"a\\\":\\\"1\\\",\\\"b\\\":\\\"2\\\"}\""},
		{"[qs.escape('a b/c?é'), qs.unescape('a%20b%zz')]", "[\"a%20b%2Fc%3F%C3%A9\",\"a b%zz\"]"},
		{"[typeof tty.isatty, tty.isatty(99)]", "[\"function\",false]"},
		{"(async () => [await tp.setTimeout(2, 'slept'), await tp.setImmediate('now'), await tp.setTimeout(1000, 'x', { signal: AbortSignal.timeout(5) }).catch((e) => [e.name, e.code])])()", "[\"slept\",\"now\",[\"AbortError\",\"ABORT_ERR\"]]"},
		{"(() => { const d = new sd.StringDecoder('utf16le'); const b = Buffer.from('ab', 'utf16le'); return [d.write(b.subarray(0, 3)), d.write(b.subarray(3)), d.end()] })()", "[\"a\",\"b\",\"\"]"},
	})
}

// node:assert and util.isDeepStrictEqual (wants printed by Node 20).
func TestNodeAssert(t *testing.T) {
	checkLikeNode(t, "import assert from 'node:assert'\nimport strict from 'node:assert/strict'\nimport util from 'node:util'", []nodeCase{
		{"(() => { assert.deepStrictEqual({ a: [1, new Map([[{ k: 1 }, new Set([1, { s: 2 }])]])], d: new Date(5) }, { a: [1, new Map([[{ k: 1 }, new Set([{ s: 2 }, 1])]])], d: new Date(5) }); return 'passed' })()", "\"passed\""},
		{"(() => { try { assert.strictEqual(1, 2, 'one is not two') } catch (e) { return [e.name, e.message, e.code, e.actual, e.expected, e.operator, e.generatedMessage] } })()", "[\"AssertionError\",\"one is not two\\n\\n1 !== 2\\n\",\"ERR_ASSERTION\",1,2,\"strictEqual\",false]"},
		{"(() => { try { assert.strictEqual(1, 2) } catch (e) { return [e.message, e.generatedMessage] } })()", "[\"Expected values to be strictly equal:\\n\\n1 !== 2\\n\",true]"},
		{"(() => { try { assert.deepStrictEqual([1], ['1']) } catch (e) { return [e.name, e.code] } })()", "[\"AssertionError\",\"ERR_ASSERTION\"]"},
		{"(() => { assert.deepEqual([1], ['1']); return 'loose ok' })()", "\"loose ok\""},
		{"(() => { try { assert.notStrictEqual(1, 1) } catch (e) { return e.message } })()", "\"Expected \\\"actual\\\" to be strictly unequal to: 1\""},
		{"(() => { try { assert.equal(1, 2) } catch (e) { return e.message } })()", "\"1 == 2\""},
		{"(() => { assert.throws(() => { throw new TypeError('x') }, TypeError); assert.throws(() => { throw new Error('boom 42') }, /boom \\d+/); assert.throws(() => { throw Object.assign(new Error('e'), { code: 'E1' }) }, { code: 'E1', message: /^e$/ }); return 'passed' })()", "\"passed\""},
		{"(() => { try { assert.throws(() => {}) } catch (e) { return e.message } })()", "\"Missing expected exception.\""},
		{"(() => { try { assert.throws(() => {}, TypeError) } catch (e) { return e.message } })()", "\"Missing expected exception (TypeError).\""},
		{"(() => { try { assert.throws(() => { throw new RangeError('r') }, TypeError) } catch (e) { return [e.name, e.message] } })()", "[\"AssertionError\",\"The error is expected to be an instance of \\\"TypeError\\\". Received \\\"RangeError\\\"\\n\\nError message:\\n\\nr\"]"},
		{"(() => { try { assert.doesNotThrow(() => { throw new Error('no') }) } catch (e) { return e.message } })()", "\"Got unwanted exception.\\nActual message: \\\"no\\\"\""},
		{"(async () => { await assert.rejects(Promise.reject(new Error('x')), Error); return await assert.rejects(Promise.resolve(1)).catch((e) => e.message) })()", "\"Missing expected rejection.\""},
		{"(() => { try { assert(false) } catch (e) { return [e.code, e.actual, e.expected, e.operator] } })()", "[\"ERR_ASSERTION\",false,true,\"==\"]"},
		{"(() => { try { assert.ok(0, 'zero') } catch (e) { return e.message } })()", "\"zero\""},
		{"(() => { try { assert.fail('boom') } catch (e) { return [e.message, e.code] } })()", "[\"boom\",\"ERR_ASSERTION\"]"},
		{"(() => { try { assert.ifError(new Error('bad')) } catch (e) { return e.message } })()", "\"ifError got unwanted exception: bad\""},
		{"(() => { try { assert.match('abc', /x/) } catch (e) { return e.message } })()", "\"The input did not match the regular expression /x/. Input:\\n\\n'abc'\\n\""},
		{"[assert.strict === strict, strict.equal === strict.strictEqual, typeof assert.AssertionError, new assert.AssertionError({ message: 'm' }).code]", "[true,true,\"function\",\"ERR_ASSERTION\"]"},
		{"(() => { try { strict.equal(1, '1') } catch (e) { return e.code } })()", "\"ERR_ASSERTION\""},
		{"[util.isDeepStrictEqual(new Set([1, 2]), new Set([2, 1])), util.isDeepStrictEqual([1, 2], [1, 2, 3]), util.isDeepStrictEqual(new Uint8Array([1]), Buffer.from([1])), util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual({ a: undefined }, {}), util.isDeepStrictEqual(/a/g, /a/g), util.isDeepStrictEqual(new Error('x'), new Error('y'))]", "[true,false,false,true,false,true,false]"},
		{"(() => { const a = { x: 1 }; a.self = a; const b = { x: 1 }; b.self = b; return util.isDeepStrictEqual(a, b) })()", "true"},
	})
}

// node:zlib one-shot forms (wants printed by Node 20; zlib.crc32 is
// Node 22's, checked by hand).
func TestNodeZlib(t *testing.T) {
	checkLikeNode(t, "import zlib from 'node:zlib'", []nodeCase{
		{"[zlib.gunzipSync(zlib.gzipSync('hello ' + 'x'.repeat(50))).toString().length, zlib.inflateSync(zlib.deflateSync(Buffer.from('abc'), { level: 9 })).toString(), zlib.inflateRawSync(zlib.deflateRawSync(new Uint8Array([1, 2, 3]))).join(','), zlib.unzipSync(zlib.gzipSync('g')).toString(), zlib.unzipSync(zlib.deflateSync('d')).toString()]", "[56,\"abc\",\"1,2,3\",\"g\",\"d\"]"},
		{"zlib.gunzipSync(Buffer.from('H4sIAAAAAAAAA8tIzcnJV8hAJ7kAAIhZCxgAAAA=', 'base64')).toString()", "\"hello hello hello hello\\n\""},
		{"zlib.inflateSync(Buffer.from('eJzLSM3JyVcozy/KSQEAGgsEXQ==', 'base64')).toString()", "\"hello world\""},
		{"zlib.brotliDecompressSync(zlib.brotliCompressSync('brotli '.repeat(10), { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } })).toString().length", "70"},
		{"zlib.brotliDecompressSync(Buffer.from('iwWAaGVsbG8gYnJvdGxpAw==', 'base64')).toString()", "\"hello brotli\""},
		{"(() => { try { zlib.gunzipSync(Buffer.from('not gzip')) } catch (e) { return [e.message, e.code, e.errno] } })()", "[\"incorrect header check\",\"Z_DATA_ERROR\",-3]"},
		{"(() => { try { zlib.gunzipSync(zlib.gzipSync('truncated input here').subarray(0, 15)) } catch (e) { return [e.message, e.code, e.errno] } })()", "[\"unexpected end of file\",\"Z_BUF_ERROR\",-5]"},
		{"(() => { try { zlib.inflateSync(Buffer.from('xx')) } catch (e) { return [e.message, e.code] } })()", "[\"incorrect header check\",\"Z_DATA_ERROR\"]"},
		{"(async () => await new Promise((res) => zlib.gzip('cb', (err, buf) => zlib.gunzip(buf, (e2, out) => res([err, e2, out.toString()])))))()", "[null,null,\"cb\"]"},
		{"(async () => await new Promise((res) => zlib.gunzip(Buffer.from('bad!'), (err) => res([err.code]))))()", "[\"Z_DATA_ERROR\"]"},
		{"[zlib.gzipSync('x').subarray(0, 3).toString('hex'), zlib.constants.Z_BEST_COMPRESSION, zlib.Z_DEFAULT_COMPRESSION, typeof zlib.createGzip]", "[\"1f8b08\",9,-1,\"function\"]"},
		{"[zlib.crc32('hello'), zlib.crc32('world', zlib.crc32('hello '))]", "[907060870,222957957]"},
	})
}
