// The smaller node: modules: string_decoder, assert, timers/promises,
// querystring, tty, readline, os.EOL, path.posix.
import { StringDecoder } from 'node:string_decoder'
import assert from 'node:assert'
import { setTimeout as sleep } from 'node:timers/promises'
import querystring from 'node:querystring'
import tty from 'node:tty'
import readline from 'node:readline'
import { Readable } from 'node:stream'
import os from 'node:os'
import path from 'node:path'

export default {
  description: 'small node modules',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const dec = new StringDecoder('utf8')
    const euro = Buffer.from('€')
    const lines: string[] = []
    const rl = readline.createInterface({ input: Readable.from(['one\ntwo\n', 'three']), crlfDelay: Infinity })
    for await (const line of rl) lines.push(line)
    return {
      stringDecoder: dec.write(euro.subarray(0, 1)) + '|' + dec.write(euro.subarray(1)) + dec.end(),
      assertOk: (() => { assert.deepStrictEqual({ a: [1] }, { a: [1] }); return 'passed' })(),
      assertFail: (() => { try { assert.strictEqual(1, 2, 'one is not two'); return 'passed' } catch (e) { return [(e as Error).name, (e as Error).message, (e as any).code] } })(),
      assertThrows: (() => { assert.throws(() => { throw new TypeError('x') }, TypeError); return 'passed' })(),
      sleep: await sleep(3, 'slept'),
      querystring: [querystring.stringify({ a: [1, 2], b: 'x y' }), JSON.stringify(querystring.parse('a=1&a=2&b=%20c'))],
      escape: querystring.escape('a b/c'),
      tty: [typeof tty.isatty, tty.isatty(99)],
      readline: lines,
      eol: JSON.stringify(os.EOL),
      posix: path.posix.join('a', '..', 'b', 'c.txt'),
      win32: path.win32.basename('C:\\dir\\file.txt'),
    }
  },
}
