// Text details every tool's answer goes through: JSON.stringify with an
// indent (beeuni itself formats results this way), surrogate pairs in
// regular expressions without the u flag, Date#toString, number formatting.
export default {
  description: 'JSON and string details',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const astral = 'a𝌆b😀'
    return {
      indented: JSON.stringify({ a: { empty: [], next: { x: 1 } }, none: {}, after: { y: [1, { z: 2 }] } }, null, 2),
      tabs: JSON.stringify({ a: [1, { b: [] }], c: 'd' }, null, '\t'),
      replacer: JSON.stringify({ a: 1, b: 2, c: { a: 3 } }, ['a', 'c']),
      toJSON: JSON.stringify({ d: new Date(Date.UTC(2024, 0, 2)), m: new Map([[1, 2]]), u: undefined, f() {}, n: NaN, big: 1e21 }),
      pairs: astral.match(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g),
      pairsU: astral.match(/\p{Extended_Pictographic}|\u{1D306}/gu),
      loneSurrogate: JSON.stringify('\uD800'),
      dateString: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)).toString(),
      dateUTC: new Date(Date.UTC(2024, 0, 2, 3, 4, 5)).toUTCString(),
      numbers: [(0.1 + 0.2).toFixed(20), (1234.5678).toFixed(2), (255).toString(16), (1e21).toString(), (0.000001234).toPrecision(2), Number('0x1f'), parseFloat('3.14abc')],
      localeCompare: ['b', 'a', 'B', 'é', 'e'].sort((x, y) => x.localeCompare(y)),
      normalize: ['é'.normalize('NFD').length, 'ﬁ'.normalize('NFKC')],
      padding: 'x'.padStart(4, 'ab') + '|' + 'x'.padEnd(4, '-'),
    }
  },
}
