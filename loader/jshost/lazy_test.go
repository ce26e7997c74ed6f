package jshost

import (
	"testing"
)

// TestLazyGlobals checks that the globals made on first read behave as the
// data properties they were: order and flags, typeof, in, assignment and
// delete before a read, identity with require, the host's own copies.
func TestLazyGlobals(t *testing.T) {
	const names = `['require','Buffer','URL','URLSearchParams','setTimeout','Event','EventTarget','DOMException','AbortController','AbortSignal','Headers','Request','Response','fetch','structuredClone','TextEncoder','TextDecoder','queueMicrotask','self','console','process','atob','btoa','crypto']`
	const flags = `const flags = (o, k) => { const d = Object.getOwnPropertyDescriptor(o, k); return k + (d.enumerable ? '+' : '-') + (d.configurable ? 'c' : '') }
		const keys = Object.getOwnPropertyNames(globalThis).filter((k) => ` + names + `.includes(k)).map((k) => flags(globalThis, k)).join(' ')`
	cases := []struct{ name, exec, want string }{
		// The order is that of installing them all eagerly: the platforms
		// in the core's order (node, then web), each in its own.
		{"order and flags before a read", `execute() { ` + flags + `; return keys }`,
			"require+c Buffer+c process+c URL+c URLSearchParams+c setTimeout+c Event-c EventTarget-c DOMException-c AbortController-c AbortSignal-c Headers-c Request-c Response-c fetch-c structuredClone-c TextEncoder-c TextDecoder-c queueMicrotask-c self-c console+c atob+c btoa+c crypto+c"},
		{"data properties after a read", `execute() {
			for (const k of ` + names + `) void globalThis[k]
			` + flags + `
			const all = ` + names + `.every((k) => { const d = Object.getOwnPropertyDescriptor(globalThis, k); return 'value' in d && d.writable })
			return all + ' ' + keys }`,
			"true require+c Buffer+c process+c URL+c URLSearchParams+c setTimeout+c Event-c EventTarget-c DOMException-c AbortController-c AbortSignal-c Headers-c Request-c Response-c fetch-c structuredClone-c TextEncoder-c TextDecoder-c queueMicrotask-c self-c console+c atob+c btoa+c crypto+c"},
		{"typeof and in", `execute() { return ` + names + `.map((k) => typeof globalThis[k] + (k in globalThis)).join(' ') + ' ' + typeof Buffer + typeof TextDecoder + typeof process }`,
			"functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue functiontrue objecttrue objecttrue objecttrue functiontrue functiontrue objecttrue functionfunctionobject"},
		{"same value on every read", `execute() { return [Buffer === globalThis.Buffer, URL === URL, process === process, crypto === crypto, console === console, DOMException === DOMException].join() }`,
			"true,true,true,true,true,true"},
		{"assignment before a read", `execute() {
			globalThis.URL = 1; Buffer = 2
			return [URL, Buffer, flags(globalThis, 'URL'), flags(globalThis, 'Buffer'), 'value' in Object.getOwnPropertyDescriptor(globalThis, 'Buffer')].join()
			function flags(o, k) { const d = Object.getOwnPropertyDescriptor(o, k); return (d.enumerable ? '+' : '-') + (d.writable ? 'w' : '') + (d.configurable ? 'c' : '') } }`,
			"1,2,+wc,+wc,true"},
		{"assignment through an inheriting object", `execute() {
			const o = Object.create(globalThis); o.Response = 1
			const d = Object.getOwnPropertyDescriptor(o, 'Response')
			return [o.Response, typeof Response, d.enumerable, d.writable, d.configurable].join() }`,
			"1,function,true,true,true"},
		{"delete before a read", `execute() { delete globalThis.process; delete globalThis.TextEncoder; return typeof process + typeof TextEncoder + ('process' in globalThis) }`,
			"undefinedundefinedfalse"},
		{"identity with require and with each other", `execute() {
			const r = new Request('http://example.com/')
			return [Buffer === require('buffer').Buffer, URL === require('node:url').URL, URLSearchParams === require('url').URLSearchParams,
				r.signal instanceof AbortSignal, new AbortController().signal instanceof EventTarget, require('util').TextEncoder === TextEncoder,
				new DOMException('m', 'AbortError') instanceof Error, Response.json({ a: 1 }).headers instanceof Headers,
				Object.getPrototypeOf(Buffer.prototype) === Uint8Array.prototype].join() }`,
			"true,true,true,true,true,true,true,true,true"},
		{"the host's AbortController, whatever the module did", `execute(a, ctx) {
			globalThis.AbortController = class {}; globalThis.EventTarget = class {}
			return [typeof ctx.signal.addEventListener, ctx.signal.aborted].join() }`,
			"function,false"},
		{"Buffer on the original Uint8Array", `execute() {
			const U = Uint8Array; const fake = function () {}
			globalThis.Uint8Array = fake
			const ok = Object.getPrototypeOf(Buffer.prototype) === U.prototype && Buffer.from('hi').toString('hex') === '6869'
			const kept = globalThis.Uint8Array === fake
			globalThis.Uint8Array = U
			return [ok, kept].join() }`,
			"true,true"},
		{"a frozen global", `execute() {
			Object.freeze(globalThis)
			let threw = false
			try { TextDecoder = 1 } catch (e) { threw = e instanceof TypeError }
			return [typeof TextEncoder, TextEncoder === TextEncoder, new TextEncoder().encode('ab').length, threw, typeof TextDecoder].join() }`,
			"function,true,2,true,function"},
		{"web globals that refer to each other", `async execute() {
			const c = new AbortController(); c.abort()
			let name = ''
			try { structuredClone(() => 1) } catch (e) { name = e.name + (e instanceof DOMException) }
			const tr = new TextDecoder().decode(new TextEncoder().encode('é'))
			return [c.signal.reason.name, c.signal.reason instanceof DOMException, name, tr, await new Response('x').text()].join() }`,
			"AbortError,true,DataCloneErrortrue,é,x"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, _ := loadTools(t, project(t, map[string]string{"tools/t.ts": tool(tc.exec)}), Options{}, "tools/t.ts")
			mustLoad(t, s)
			r := call(t, s, "t", "{}")
			if r.IsError || r.Output != tc.want {
				t.Fatalf("got %q (error %v)\nwant %q", r.Output, r.IsError, tc.want)
			}
		})
	}
}
