// Every Buffer encoding, both directions.
export default {
  description: 'Buffer encodings',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  async execute(args: { text?: string }) {
    const text = args.text ?? 'Grüße, 世界! ✓ ~?>'
    const out: Record<string, unknown> = {}
    for (const enc of ['utf8', 'hex', 'base64', 'base64url', 'latin1', 'binary', 'ascii', 'utf16le', 'ucs2'] as const) {
      const encoded = Buffer.from(text).toString(enc)
      out[enc] = { encoded, back: Buffer.from(encoded, enc).toString('utf8') }
    }
    out.latin1FromString = Buffer.from('café', 'latin1').toString('hex')
    out.utf16leFromString = Buffer.from('hé', 'utf16le').toString('hex')
    out.base64urlDecode = Buffer.from('_-8', 'base64url').toString('hex')
    out.base64Loose = Buffer.from('aGVs bG8=\n', 'base64').toString()
    out.hexOdd = Buffer.from('abc', 'hex').toString('hex')
    return out
  },
}
