// js-yaml: load and dump.
import * as yaml from 'js-yaml'

export default {
  description: 'YAML with js-yaml',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const doc = yaml.load('name: beeuni\nlist:\n  - 1\n  - two\nwhen: 2024-01-02\nmulti: |\n  line one\n  line two\n') as any
    const bad = (() => { try { yaml.load('a: b: c'); return 'parsed' } catch (e) { return (e as Error).name } })()
    return { doc: { ...doc, when: doc.when instanceof Date ? doc.when.toISOString() : doc.when }, dumped: yaml.dump({ a: [1, { b: 'x: y' }], s: 'multi\nline' }), bad }
  },
}
