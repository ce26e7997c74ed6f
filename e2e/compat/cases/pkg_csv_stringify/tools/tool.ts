// csv-stringify (sync API): records to CSV with quoting.
import { stringify } from 'csv-stringify/sync'

export default {
  description: 'CSV with csv-stringify',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return stringify([{ name: 'Lovelace, Ada', note: 'said "hi"', n: 1 }, { name: 'Linus', note: 'multi\nline', n: 2.5 }], { header: true, columns: ['name', 'note', 'n'] })
  },
}
