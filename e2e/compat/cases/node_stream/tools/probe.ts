// node:stream and stream/promises, as CSV and scraping libraries use them.
import { Readable, Transform, Writable, PassThrough, Duplex } from 'node:stream'
import { pipeline, finished } from 'node:stream/promises'

export default {
  description: 'node:stream',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const out: string[] = []
    await pipeline(
      Readable.from(['a,b', 'c,d', 'e,f']),
      new Transform({ objectMode: true, transform(chunk, _enc, cb) { cb(null, String(chunk).split(',').reverse().join('|')) } }),
      new Writable({ objectMode: true, write(chunk, _enc, cb) { out.push(chunk); cb() } }),
    )
    const pass = new PassThrough()
    const bytes: Buffer[] = []
    pass.on('data', (c) => bytes.push(c))
    pass.write('hello ')
    pass.end('stream')
    await finished(pass)
    const collected: string[] = []
    for await (const chunk of Readable.from(Buffer.from('xyz'))) collected.push(String(chunk))
    const r = new Readable({ read() {} })
    r.push('pushed'); r.push(null)
    let pushed = ''
    r.setEncoding('utf8')
    for await (const c of r) pushed += c
    const webReadable = typeof (Readable as any).toWeb === 'function'
    return { out, passthrough: Buffer.concat(bytes).toString(), collected, pushed, duplex: typeof Duplex, webReadable, isReadable: Readable.from([]).readable }
  },
}
