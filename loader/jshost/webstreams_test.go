package jshost

import "testing"

// The web platform's streams (web-streams-polyfill), Blob, File and
// FormData, and fetch's bodies made of them; the answers are what Node 20
// printed (Bun prints the same but for File's toStringTag, a Blob
// appended to a FormData without a name, and the text of a Request made
// of a FormData, where Node follows the standards).
func TestWebStreamsAndBlobs(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`(async () => { const out = []; await new ReadableStream({ start(c) { c.enqueue('a'); c.enqueue('b'); c.close() } }).pipeThrough(new TransformStream({ transform(x, c) { c.enqueue(x + x) } })).pipeTo(new WritableStream({ write(x) { out.push(x) } })); return out })()`, `["aa","bb"]`},
		{`(async () => { const [a, b] = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close() } }).tee(); const r = async (s) => { const o = []; const rd = s.getReader(); for (;;) { const { done, value } = await rd.read(); if (done) return o; o.push(value) } }; return [await r(a), await r(b)] })()`, `[[1,2],[1,2]]`},
		{`(async () => { const got = []; for await (const x of new ReadableStream({ start(c) { c.enqueue('p'); c.enqueue('q'); c.close() } })) got.push(x); return got })()`, `["p","q"]`},
		{`(async () => { const s = new ReadableStream({ pull(c) { c.error(new TypeError('boom')) } }); try { await s.getReader().read(); return 'no' } catch (e) { return [e.name, e.message] } })()`, `["TypeError","boom"]`},
		{`(async () => { const w = new WritableStream({}, new CountQueuingStrategy({ highWaterMark: 3 })); const wr = w.getWriter(); return [wr.desiredSize, new ByteLengthQueuingStrategy({ highWaterMark: 16 }).size(new Uint8Array(5)), new CountQueuingStrategy({ highWaterMark: 1 }).highWaterMark] })()`, `[3,5,1]`},
		{`(async () => { const out = []; const enc = new TextEncoderStream(); const w = enc.writable.getWriter(); w.write('h\u00e9'); w.write('\ud83d'); w.write('\ude00'); w.close(); const rd = enc.readable.getReader(); for (;;) { const { done, value } = await rd.read(); if (done) break; out.push(...value) } return [enc.encoding, out] })()`, `["utf-8",[104,195,169,240,159,152,128]]`},
		{`(async () => { const d = new TextDecoderStream(); const w = d.writable.getWriter(); w.write(new Uint8Array([0xe2, 0x82])); w.write(new Uint8Array([0xac, 0x41])); w.close(); let s = ''; const rd = d.readable.getReader(); for (;;) { const { done, value } = await rd.read(); if (done) break; s += value } return [d.encoding, d.fatal, s] })()`, `["utf-8",false,"€A"]`},
		{`(async () => { const s = new ReadableStream({ type: 'bytes', start(c) { c.enqueue(new Uint8Array([1, 2, 3])); c.close() } }); const rd = s.getReader({ mode: 'byob' }); const { value } = await rd.read(new Uint8Array(8)); return [value.length, [...value]] })()`, `[3,[1,2,3]]`},
		{`[typeof ReadableStreamDefaultReader, typeof WritableStreamDefaultWriter, typeof TransformStreamDefaultController, typeof ReadableByteStreamController, Object.prototype.toString.call(new ReadableStream())]`, `["function","function","function","function","[object ReadableStream]"]`},
		{`(async () => { const b = new Blob(['ab', new Uint8Array([99]), new Blob(['d'])]); return [b.size, b.type, await b.text(), await b.slice(-2).text(), await b.slice(1, 2).text(), (await b.arrayBuffer()).byteLength, [...await b.bytes()]] })()`, `[4,"","abcd","cd","b",4,[97,98,99,100]]`},
		{`(async () => { const f = new File(['x'], 'n.txt', { lastModified: 42 }); return [f.name, f.size, f.lastModified, f instanceof Blob, Object.prototype.toString.call(f), f.type] })()`, `["n.txt",1,42,true,"[object File]",""]`},
		{`(async () => { const s = new Blob(['stream me']).stream(); const rd = s.getReader(); let t = ''; for (;;) { const { done, value } = await rd.read(); if (done) break; t += new TextDecoder().decode(value) } return t })()`, `"stream me"`},
		{`(async () => { const fd = new FormData(); fd.append('a', '1'); fd.append('b', new Blob(['x'])); fd.append('c', new Blob(['y']), 'c.txt'); fd.append('a', '2'); fd.set('a', '3'); fd.delete('zz'); return [[...fd.keys()], fd.getAll('a'), fd.get('b').name, fd.get('c').name, fd.get('b') instanceof File, fd.has('c'), fd.get('none'), [...fd.values()].length] })()`, `[["a","b","c"],["3"],"blob","c.txt",true,true,null,3]`},
		{`(async () => { const fd = new FormData(); fd.append('k', 'v'); fd.append('f', new File(['data'], 'a.bin', { type: 'application/octet-stream' })); const back = await new Response(fd).formData(); return [back.get('k'), back.get('f').name, back.get('f').type, await back.get('f').text()] })()`, `["v","a.bin","application/octet-stream","data"]`},
		{`(async () => { const fd = await new Response('a=1&b=x+y&a=%C3%A9', { headers: { 'content-type': 'application/x-www-form-urlencoded' } }).formData(); return [...fd] })()`, `[["a","1"],["b","x y"],["a","é"]]`},
		{`(async () => { try { await new Response('x', { headers: { 'content-type': 'text/plain' } }).formData(); return 'no' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(async () => { const r = new Response(new Blob(['blob body'], { type: 'text/x-mine' })); return [r.headers.get('content-type'), await r.text()] })()`, `["text/x-mine","blob body"]`},
		{`(async () => { const b = await new Response(new Uint8Array([1, 2])).blob(); return [b.size, b instanceof Blob] })()`, `[2,true]`},
		{`(async () => { const r = new Response('body'); const s = r.body; return [s instanceof ReadableStream, r.bodyUsed, await new Response(s).text(), r.bodyUsed] })()`, `[true,false,"body",true]`},
		{`(async () => { const r = new Response('twice'); const c = r.clone(); return [await r.text(), await c.text()] })()`, `["twice","twice"]`},
		{`(async () => { const r = new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([104, 105])); c.close() } })); const c = r.clone(); return [await r.text(), await c.text()] })()`, `["hi","hi"]`},
		{`(async () => { const r = new Response('used'); await r.text(); try { await r.text(); return 'no' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(async () => { const r = new Response(new ReadableStream({ start(c) { c.enqueue(new Uint8Array([1])); c.close() } })); r.body.getReader(); try { await r.text(); return 'no' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`[new Response(null).body, new Request('http://x/').body, new Request('http://x/', { method: 'POST', body: 'b' }).body instanceof ReadableStream]`, `[null,null,true]`},
		{`(async () => { const q = new Request('http://x/', { method: 'POST', body: new ReadableStream({ start(c) { c.enqueue(new Uint8Array([65])); c.close() } }), duplex: 'half' }); return await q.text() })()`, `"A"`},
		{`(async () => { const fd = new FormData(); fd.append('a', 'b'); const q = new Request('http://x/', { method: 'POST', body: fd }); const t = await q.text(); return [q.headers.get('content-type').startsWith('multipart/form-data; boundary='), t.includes('name="a"')] })()`, `[true,true]`},
	})
}

// TestBlobTypesAsBun: a Blob's type as Bun 1.4.4 makes it (Node keeps the
// type as given, lowercased): the types Bun knows get their canonical
// form with a charset; and a FormData body as Bun sends it.
func TestBlobTypesAsBun(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`['text/plain', 'application/json', 'TEXT/HTML', 'image/png', 'text/plain;charset=latin1', '', 'application/javascript', 'Text/Plain', 'text/html;charset=UTF-8', 'a\u0100b', 'application/x-www-form-urlencoded'].map((t) => new Blob(['a'], { type: t }).type)`,
			`["text/plain;charset=utf-8","application/json;charset=utf-8","text/html","image/png","text/plain;charset=latin1","","text/javascript;charset=utf-8","text/plain","text/html;charset=utf-8","","application/x-www-form-urlencoded;charset=UTF-8"]`},
		{`new Response('x').blob().then((b) => b.type)`, `"text/plain;charset=utf-8"`},
		{`(async () => { const fd = new FormData(); fd.append('a', '1'); fd.append('f', new Blob(['xx']), 'x"y.txt'); const r = new Response(fd); const ct = r.headers.get('content-type'); const b = ct.split('boundary=')[1]; return [/^----WebKitFormBoundary[0-9a-f]{32}$/.test(b), (await r.text()).split(b).join('B')] })()`,
			`[true,"--B\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"x%22y.txt\"\r\nContent-Type: application/octet-stream\r\n\r\nxx\r\n--B--\r\n"]`},
	})
}
