// papaparse: parse CSV text with headers and types, unparse back.
import Papa from 'papaparse'

const CSV = `name,age,city
"Lovelace, Ada",36,London
Grace Hopper,85,"New York"
Linus,,Helsinki`

export default {
  description: 'CSV with papaparse',
  parameters: { type: 'object', properties: { csv: { type: 'string' } } },
  async execute(args: { csv?: string }) {
    const parsed = Papa.parse(args.csv ?? CSV, { header: true, dynamicTyping: true, skipEmptyLines: true })
    return { data: parsed.data, fields: parsed.meta.fields, errors: parsed.errors.length, back: Papa.unparse(parsed.data as object[], { quotes: false }) }
  },
}
