package jshost

import "testing"

// node:events as Node 20 has it (wants printed by Node).
func TestNodeEvents(t *testing.T) {
	checkLikeNode(t, "import { EventEmitter, once, on } from 'node:events'", []nodeCase{
		{`(async () => { const ee = new EventEmitter(); const ac = new AbortController(); setTimeout(() => { ee.emit('data', 1); ee.emit('data', 2); ee.emit('data', 3) }, 1); const got = []; try { for await (const [v] of on(ee, 'data', { signal: ac.signal })) { got.push(v); if (got.length === 3) ac.abort() } } catch (e) { got.push(e.name, e.code, e.message) } return [got, ee.listenerCount('data'), ee.listenerCount('error')] })()`, `[[1,2,3,"AbortError","ABORT_ERR","The operation was aborted"],0,0]`},
		{`(async () => { const ee = new EventEmitter(); setTimeout(() => ee.emit('ready', 'a', 'b'), 1); return [await once(ee, 'ready'), ee.eventNames()] })()`, `[["a","b"],[]]`},
		{`(async () => { const ee = new EventEmitter(); setTimeout(() => ee.emit('error', new Error('boom')), 1); try { await once(ee, 'ready') } catch (e) { return [e.message, ee.eventNames()] } })()`, `["boom",[]]`},
		{`(async () => { const ee = new EventEmitter(); const ac = new AbortController(); setTimeout(() => ac.abort(), 1); try { await once(ee, 'ready', { signal: ac.signal }) } catch (e) { return [e.name, e.code, ee.eventNames()] } })()`, `["AbortError","ABORT_ERR",[]]`},
		{`(async () => { try { await once(new EventEmitter(), 'x', { signal: AbortSignal.abort() }) } catch (e) { return e.name } })()`, `"AbortError"`},
		{`(() => { try { on(new EventEmitter(), 'x', { signal: AbortSignal.abort() }); return 'ok' } catch (e) { return e.name } })()`, `"AbortError"`},
		{`(async () => { const ee = new EventEmitter(); setTimeout(() => { ee.emit('d', 1); ee.emit('error', new Error('bad')) }, 1); const got = []; try { for await (const [v] of on(ee, 'd')) got.push(v) } catch (e) { got.push(e.message) } return got })()`, `[1,"bad"]`},
		{`(async () => { const ee = new EventEmitter(); const it = on(ee, 'd'); ee.emit('d', 7); const a = await it.next(); await it.return(); return [a, await it.next(), ee.listenerCount('d')] })()`, `[{"value":[7],"done":false},{"done":true},0]`},
		{`(async () => { const t = new EventTarget(); setTimeout(() => t.dispatchEvent(new Event('ping')), 1); const [ev] = await once(t, 'ping'); return ev.type })()`, `"ping"`},
		{`(() => { const ee = new EventEmitter(); const errs = []; ee.on(EventEmitter.errorMonitor, (e) => errs.push('m ' + e.message)); try { ee.emit('error', new Error('x')) } catch (e) { errs.push('thrown ' + e.message) } return errs })()`, `["m x","thrown x"]`},
		{`(() => { const ee = new EventEmitter(); try { ee.emit('error', 'str') } catch (e) { return [e.code, e.message] } })()`, `["ERR_UNHANDLED_ERROR","Unhandled error. ('str')"]`},
		{`(() => { const ee = new EventEmitter(); const f = () => {}; ee.on('a', f); ee.on(Symbol('s'), f); ee.on('b', f); ee.off('a', f); ee.on('a', f); return ee.eventNames().map(String) })()`, `["b","a","Symbol(s)"]`},
		{`(() => { const ee = new EventEmitter(); const seen = []; ee.on('newListener', (n) => seen.push(n)); ee.once('q', () => {}); ee.prependListener('r', () => {}); return [seen, ee.getMaxListeners(), EventEmitter.listenerCount(ee, 'q')] })()`, `[["q","r"],10,1]`},
		{`(() => { const ee = new EventEmitter(); let n = 0; const f = () => n++; ee.once('z', f); ee.emit('z'); ee.emit('z'); return [n, ee.listenerCount('z')] })()`, `[1,0]`},
		{`(() => { try { new EventEmitter().on('x', 1); return 'ok' } catch (e) { return e.code } })()`, `"ERR_INVALID_ARG_TYPE"`},
		// A function, as Node's: packages written before classes call it.
		{`(() => { function Old(x) { EventEmitter.call(this); this.x = x } Object.setPrototypeOf(Old.prototype, EventEmitter.prototype); const o = new Old(1); const got = []; o.on('a', (v) => got.push(v)); o.emit('a', 2); class C extends EventEmitter {} const c = new C(); c.once('b', () => got.push('b')); c.emit('b'); c.emit('b'); return [got, o instanceof EventEmitter, typeof EventEmitter, Object.keys(EventEmitter.prototype).includes('on'), o.listenerCount('a')] })()`, `[[2,"b"],true,"function",true,1]`},
		{`[typeof Symbol.asyncIterator, String(Symbol.asyncIterator)]`, `["symbol","Symbol(Symbol.asyncIterator)"]`},
	})
}
