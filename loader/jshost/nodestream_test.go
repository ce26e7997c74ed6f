package jshost

import "testing"

// node:stream is readable-stream (Node's own streams), run on the host's
// events, process and buffer; the answers are what Node 20 printed.
func TestNodeStream(t *testing.T) {
	checkLikeNode(t, "import { Readable, Transform, Writable, PassThrough, Stream } from 'node:stream'\nimport { pipeline, finished } from 'node:stream/promises'\nimport { EventEmitter } from 'node:events'", []nodeCase{
		{`(async () => { const out = []; await pipeline(Readable.from(['a,b', 'c,d']), new Transform({ objectMode: true, transform(c, _e, cb) { cb(null, String(c).split(',').reverse().join('|')) } }), new Writable({ objectMode: true, write(c, _e, cb) { out.push(c); cb() } })); return out })()`, `["b|a","d|c"]`},
		{`(async () => { const got = []; for await (const c of Readable.from(['x', 'y'])) got.push(c); return got })()`, `["x","y"]`},
		{`(async () => { const p = new PassThrough(); const bs = []; p.on('data', (c) => bs.push(String(c))); p.write('he'); p.end('llo'); await finished(p); return bs.join('') })()`, `"hello"`},
		{`[new Stream() instanceof EventEmitter, typeof Stream.Readable, typeof Stream.promises.pipeline]`, `[true,"function","function"]`},
		// off is the base removeListener (streams override removeListener
		// and call the base's: it must not come back through off).
		{`(() => { class R extends EventEmitter { removeListener(n, f) { this.removed = (this.removed || 0) + 1; return super.removeListener(n, f) } } const r = new R(); const f = () => {}; r.on('a', f); r.off('a', f); r.once('b', () => {}); r.emit('b'); return [r.removed, r.listenerCount('a'), r.listenerCount('b')] })()`, `[1,0,0]`},
	})
}
