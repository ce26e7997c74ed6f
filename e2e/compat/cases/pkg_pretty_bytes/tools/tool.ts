// pretty-bytes: human sizes.
import prettyBytes from 'pretty-bytes'

export default {
  description: 'Sizes with pretty-bytes',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return [0, 1, 1000, 1337, 51200, 1e9, 123456789].map((n) => prettyBytes(n)).concat([prettyBytes(1337, { binary: true }), prettyBytes(1337, { locale: 'de' }), prettyBytes(-42, { signed: true })])
  },
}
