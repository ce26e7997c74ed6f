// Regular expressions tool authors write: \p{...} under u, the d and v
// flags, named groups, lookbehind.
export default {
  description: 'Unicode regular expressions',
  parameters: { type: 'object', properties: { text: { type: 'string' } } },
  async execute(args: { text?: string }) {
    const text = args.text ?? 'Café Ünïcode ΑΒΓ 東京 123 ٣ — emoji 😀!'
    const d = /(?<word>b+)(c)/d.exec('aabbbc')
    return {
      letters: text.match(/\p{L}+/gu),
      greek: text.match(/\p{Script=Greek}+/u)?.[0],
      han: /\p{sc=Han}/u.test(text),
      numbers: text.match(/\p{Nd}+/gu),
      dash: /\p{Pd}/u.test(text),
      emoji: /\p{Extended_Pictographic}/u.test(text),
      upper: text.match(/\p{Lu}/gu)?.length,
      slug: text.normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^\p{L}\p{N}]+/gu, '-').toLowerCase(),
      indices: d?.indices ? [d.indices[0], d.indices[2], d.indices.groups?.word] : null,
      hasIndices: /x/d.hasIndices,
      vFlag: (() => { try { return [new RegExp('[\\p{L}--[a-z]]', 'v').test('a'), new RegExp('[\\p{L}--[a-z]]', 'v').test('É')] } catch (e) { return 'throws: ' + (e as Error).name } })(),
      named: '2024-01-02'.replace(/(?<y>\d+)-(?<m>\d+)-(?<d>\d+)/, '$<d>/$<m>/$<y>'),
      lookbehind: 'price: $42, cost: $7'.match(/(?<=\$)\d+/g),
      sticky: (() => { const r = /foo/y; r.lastIndex = 3; return r.test('barfoo') })(),
      dotAll: /a.b/s.test('a\nb'),
      matchAll: [...'a1b2c3'.matchAll(/[a-z](\d)/g)].map((m) => m[1]),
      unicodeLength: [...'😀é'].length,
      caseInsensitive: /ǅ/iu.test('ǆ'),
    }
  },
}
