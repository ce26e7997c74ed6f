package jshost

import "testing"

// Error.captureStackTrace as V8 has it (wants printed by Node 20).
func TestNodeErrorStatics(t *testing.T) {
	checkLikeNode(t, "", []nodeCase{
		{`(() => { const h = {}; Error.captureStackTrace(h); return [typeof h.stack, h.stack.split('\n')[0], Object.keys(h), /^\s+at /.test(h.stack.split('\n')[1])] })()`, `["string","Error",[],true]`},
		{`(() => { function outer() { const o = { name: 'Custom', message: 'why' }; Error.captureStackTrace(o, outer); return o.stack } return [outer().split('\n')[0], outer().includes('at outer')] })()`, `["Custom: why",false]`},
		{`(() => { function notCalled() {} const o = {}; Error.captureStackTrace(o, notCalled); return o.stack })()`, `"Error"`},
		{`(() => { try { Error.captureStackTrace(1); return 'ok' } catch (e) { return e.name } })()`, `"TypeError"`},
		{`(() => { class E extends Error { constructor(m) { super(m); this.name = 'E'; Error.captureStackTrace(this, E) } } const e = new E('m'); return [e.stack.split('\n')[0], Object.keys(e), JSON.stringify(e), e instanceof E] })()`, `["E: m",["name"],"{\"name\":\"E\"}",true]`},
		{`(() => { const o = {}; const before = Error.stackTraceLimit; Error.stackTraceLimit = 0; Error.captureStackTrace(o); Error.stackTraceLimit = before; return [o.stack, typeof before] })()`, `["Error","number"]`},
		// A prepareStackTrace of the tool's own gets call sites (depd does this).
		{`(() => { const prev = Error.prepareStackTrace; Error.prepareStackTrace = (_, stack) => stack; const o = {}; function here() { Error.captureStackTrace(o) } here(); const s = o.stack; Error.prepareStackTrace = prev; return [Array.isArray(s), ['string', 'undefined'].includes(typeof s[0].getFileName()), typeof s[0].getLineNumber(), s[0].getFunctionName(), typeof s[0].isNative()] })()`, `[true,true,"number","here","boolean"]`},
		{`(() => { const prev = Error.prepareStackTrace; Error.prepareStackTrace = (e, stack) => 'custom ' + e.name + ' ' + stack.length; const o = { name: 'N' }; Error.captureStackTrace(o); const s = o.stack; Error.prepareStackTrace = prev; return s.startsWith('custom N ') })()`, `true`},
	})
}
