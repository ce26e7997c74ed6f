// smol-toml: TOML config both ways.
import { parse, stringify } from 'smol-toml'

export default {
  description: 'TOML with smol-toml',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const doc = parse('title = "beeuni"\n[server]\nport = 8080\nhosts = ["a", "b"]\n[[tools]]\nname = "greet"\n[[tools]]\nname = "scrape"\nwhen = 2024-01-02T03:04:05Z\n') as any
    return { doc: { ...doc, tools: doc.tools.map((t: any) => ({ ...t, when: t.when ? String(t.when) : undefined })) }, back: stringify({ a: 1, b: { c: [1, 2] } }) }
  },
}
