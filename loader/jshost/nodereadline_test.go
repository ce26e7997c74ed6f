package jshost

import "testing"

// node:readline reads lines from a stream as Node's does; the answers are
// what Node 20 printed, but for the last: what needs a terminal refuses.
func TestNodeReadline(t *testing.T) {
	checkLikeNode(t, "import readline from 'node:readline'\nimport { Readable } from 'node:stream'", []nodeCase{
		{`(async () => { const lines = []; const rl = readline.createInterface({ input: Readable.from(['one\ntwo\n', 'three']), crlfDelay: Infinity }); for await (const l of rl) lines.push(l); return lines })()`, `["one","two","three"]`},
		{`(async () => { const lines = []; const rl = readline.createInterface({ input: Readable.from(['a\r', '\nb\r\nc\rd\n\n', 'e']), crlfDelay: Infinity }); rl.on('line', (l) => lines.push(l)); await new Promise((r) => rl.on('close', r)); return lines })()`, `["a","b","c","d","","e"]`},
		{`(async () => { const lines = []; const rl = readline.createInterface({ input: Readable.from([Buffer.from('\u20ac'.repeat(2)).subarray(0, 4), Buffer.from('\u20ac'.repeat(2)).subarray(4), Buffer.from('\nz')]) }); for await (const l of rl) lines.push(l); return lines })()`, `["€€","z"]`},
		{`(async () => { const rl = readline.createInterface({ input: Readable.from(['x\ny\n']) }); const it = rl[Symbol.asyncIterator](); const a = await it.next(); await it.return(); return [a, rl.closed] })()`, `[{"value":"x","done":false},true]`},
		{`(() => { const rl = readline.createInterface({ input: Readable.from([]) }); try { rl.question('?', () => {}) ; return 'asked' } catch (e) { return e.message } })()`, `"readline question() is not available to tools: they have no terminal"`},
	})
}
