// qs: nested query strings.
import qs from 'qs'

export default {
  description: 'Query strings with qs',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const s = qs.stringify({ a: { b: [1, 2], c: 'x y' }, d: true, e: null }, { encodeValuesOnly: true })
    return { s, back: qs.parse(s), brackets: qs.stringify({ a: [1, 2] }, { arrayFormat: 'brackets' }), parsed: qs.parse('user[name]=Ada&user[langs][]=js&user[langs][]=go&n=%E2%9C%93', { ignoreQueryPrefix: true }) }
  },
}
