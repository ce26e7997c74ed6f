// yaml: parse and stringify documents, keep comments.
import YAML from 'yaml'

const SRC = `# config
name: beeuni   # the project
tools:
  - greet
  - scrape
limits: { timeout: 30s, retries: 3 }
anchors:
  base: &base { a: 1 }
  copy: *base
`

export default {
  description: 'YAML with yaml',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const doc = YAML.parseDocument(SRC)
    doc.setIn(['tools', 2], 'memory')
    const bad = (() => { try { YAML.parse('a: [1, 2'); return 'parsed' } catch (e) { return (e as any).code } })()
    return { parsed: YAML.parse(SRC), edited: doc.toString(), stringified: YAML.stringify({ list: [1, 'two'], nested: { k: null } }), bad }
  },
}
