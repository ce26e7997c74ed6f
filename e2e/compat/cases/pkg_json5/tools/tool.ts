// json5: relaxed JSON config files.
import JSON5 from 'json5'

export default {
  description: 'Config with json5',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const bad = (() => { try { JSON5.parse('{a: }'); return 'parsed' } catch (e) { return (e as Error).message } })()
    return { parsed: JSON5.parse("{ // comment\n unquoted: 'single', trailing: [1, 2,], hex: 0x1F, inf: Infinity, }"), stringified: JSON5.stringify({ a: 1, 'b-c': "it's" }), bad }
  },
}
