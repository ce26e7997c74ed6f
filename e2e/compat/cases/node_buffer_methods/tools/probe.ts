// Buffer instance methods: search, slicing, numbers, JSON.
export default {
  description: 'Buffer methods',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const b = Buffer.from('hello world, hello beeuni')
    const n = Buffer.alloc(8)
    n.writeUInt32BE(0xdeadbeef, 0)
    n.writeInt16LE(-2, 4)
    n.writeUInt8(255, 6)
    const s = b.slice(6, 11)
    s[0] = 87 // slice shares memory with b
    return {
      indexOf: [b.indexOf('hello'), b.indexOf('hello', 1), b.indexOf(Buffer.from('beeuni')), b.indexOf(111), b.indexOf('absent')],
      lastIndexOf: b.lastIndexOf('hello'),
      includes: [b.includes('world'), b.includes('World'), b.includes('beeuni', 20)],
      slice: s.toString(),
      sharedAfterSlice: b.toString('utf8', 0, 11),
      subarray: b.subarray(-6).toString(),
      numbers: [n.readUInt32BE(0), n.readInt16LE(4), n.readUInt8(6), n.toString('hex')],
      equals: [Buffer.from('a').equals(Buffer.from('a')), Buffer.from('a').equals(Buffer.from('b'))],
      json: Buffer.from('hi').toJSON(),
      stringified: JSON.stringify({ data: Buffer.from([1, 2]) }),
      copy: (() => { const t = Buffer.alloc(5, '.'); Buffer.from('xyz').copy(t, 1); return t.toString() })(),
      fill: Buffer.alloc(6).fill('ab', 1).toString('hex'),
      write: (() => { const t = Buffer.alloc(6); const k = t.write('héllo', 1); return [k, t.toString('hex')] })(),
      bigint: (() => { const t = Buffer.alloc(8); t.writeBigUInt64BE(2n ** 63n + 5n); return t.readBigUInt64BE().toString() })(),
      toStringRange: b.toString('hex', 0, 4),
    }
  },
}
