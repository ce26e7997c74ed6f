// csv-parse (sync API) with columns and casting.
import { parse } from 'csv-parse/sync'

const CSV = `name,age,city
"Lovelace, Ada",36,London
Grace Hopper,85,"New York"
Linus,,Helsinki`

export default {
  description: 'CSV with csv-parse',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const records = parse(CSV, { columns: true, skip_empty_lines: true, cast: true })
    const bad = (() => { try { parse('a,b\n1,2,3', { columns: true }); return 'parsed' } catch (e) { return (e as any).code } })()
    return { records, bad }
  },
}
