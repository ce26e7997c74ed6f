// TextDecoder beyond UTF-8, TextEncoder.encodeInto.
export default {
  description: 'TextDecoder encodings',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const utf16 = new Uint8Array([0x48, 0x00, 0xe9, 0x00, 0x3d, 0xd8, 0x00, 0xde])
    const latin = new Uint8Array([0x63, 0x61, 0x66, 0xe9, 0x80])
    const enc = new TextEncoder()
    const target = new Uint8Array(4)
    return {
      utf16le: new TextDecoder('utf-16le').decode(utf16),
      utf16label: new TextDecoder('utf-16').encoding,
      latin1: new TextDecoder('latin1').decode(latin),
      windows1252: new TextDecoder('windows-1252').decode(latin),
      bom: new TextDecoder().decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68, 0x69])),
      ignoreBOM: new TextDecoder('utf-8', { ignoreBOM: true }).decode(new Uint8Array([0xef, 0xbb, 0xbf, 0x68])).length,
      replacement: new TextDecoder().decode(new Uint8Array([0x61, 0xff, 0x62])),
      fatal: (() => { try { new TextDecoder('utf-8', { fatal: true }).decode(new Uint8Array([0xff])); return 'no error' } catch (e) { return (e as Error).name } })(),
      stream: (() => { const d = new TextDecoder(); return d.decode(new Uint8Array([0xe2, 0x82]), { stream: true }) + d.decode(new Uint8Array([0xac])) })(),
      encodeInto: enc.encodeInto('héllo', target),
      encoded: [...target],
      encoding: enc.encoding,
      unknown: (() => { try { new TextDecoder('klingon'); return 'accepted' } catch (e) { return (e as Error).name } })(),
    }
  },
}
