// import.meta in a tool module: where am I, to read files beside me.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'

export default {
  description: 'import.meta',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const here = path.dirname(fileURLToPath(import.meta.url))
    return {
      url: import.meta.url,
      dirname: (import.meta as any).dirname ?? null,
      filename: (import.meta as any).filename ?? null,
      sibling: readFileSync(path.join(here, 'data.txt'), 'utf8').trim(),
      resolve: typeof (import.meta as any).resolve,
    }
  },
}
