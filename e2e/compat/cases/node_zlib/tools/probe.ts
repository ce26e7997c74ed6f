// node:zlib: round trips and decoding bytes another zlib made.
import zlib from 'node:zlib'
import { promisify } from 'node:util'

// "hello hello hello hello\n" gzipped by Node 20's zlib.
const FIXED_GZIP = 'H4sIAAAAAAAAA8tIzcnJV8hAJ7kAAIhZCxgAAAA='

export default {
  description: 'node:zlib',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  async execute(args: { text?: string }) {
    const text = args.text ?? 'compress me '.repeat(20)
    const gz = zlib.gzipSync(text)
    const df = zlib.deflateSync(Buffer.from(text))
    const raw = zlib.deflateRawSync(text)
    const br = zlib.brotliCompressSync ? zlib.brotliCompressSync(text) : null
    const gunzip = promisify(zlib.gunzip)
    return {
      gzipRoundTrip: zlib.gunzipSync(gz).toString() === text,
      gzipMagic: gz.subarray(0, 2).toString('hex'),
      smaller: gz.length < text.length,
      deflateRoundTrip: zlib.inflateSync(df).toString() === text,
      rawRoundTrip: zlib.inflateRawSync(raw).toString() === text,
      unzipAny: zlib.unzipSync(df).toString() === text,
      brotli: br ? zlib.brotliDecompressSync(br).toString() === text : 'no brotli',
      fixed: zlib.gunzipSync(Buffer.from(FIXED_GZIP, 'base64')).toString(),
      promisified: (await gunzip(gz)).toString().length,
      constants: [zlib.constants.Z_BEST_COMPRESSION, typeof zlib.createGzip],
      badInput: (() => { try { zlib.gunzipSync(Buffer.from('not gzip')); return 'accepted' } catch (e) { return (e as any).code } })(),
    }
  },
}
