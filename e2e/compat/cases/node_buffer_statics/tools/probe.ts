// Buffer's static API, as tools that hash, encode or frame bytes use it.
export default {
  description: 'Buffer statics',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const a = Buffer.from('abc')
    return {
      isBuffer: [Buffer.isBuffer(a), Buffer.isBuffer(new Uint8Array(3)), Buffer.isBuffer('abc')],
      allocUnsafe: Buffer.allocUnsafe(7).length,
      allocUnsafeSlow: Buffer.allocUnsafeSlow(3).length,
      alloc: Buffer.alloc(4, 'ab').toString(),
      allocZero: [...Buffer.alloc(3)],
      byteLength: [Buffer.byteLength('héllo'), Buffer.byteLength('€'), Buffer.byteLength('aGk=', 'base64'), Buffer.byteLength(new ArrayBuffer(5))],
      compare: [Buffer.compare(Buffer.from('a'), Buffer.from('b')), Buffer.compare(Buffer.from('b'), Buffer.from('a')), Buffer.compare(a, Buffer.from('abc'))],
      isEncoding: ['utf8', 'UTF-8', 'latin1', 'binary', 'base64url', 'ucs2', 'utf16le', 'hex', 'nope'].map((e) => Buffer.isEncoding(e)),
      concat: Buffer.concat([Buffer.from('ab'), Buffer.from('cd')], 3).toString(),
      fromArray: Buffer.from([104, 105, 256 + 33]).toString(),
      fromArrayBuffer: Buffer.from(new Uint8Array([1, 2, 3, 4]).buffer, 1, 2).toString('hex'),
      poolSize: typeof Buffer.poolSize,
      of: Buffer.of(1, 2, 3).toString('hex'),
      instanceofUint8Array: a instanceof Uint8Array,
    }
  },
}
