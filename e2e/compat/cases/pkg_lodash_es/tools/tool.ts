// lodash-es: group, sort and pick records.
import { groupBy, sortBy, mapValues, pick, chunk, uniqBy, debounce, get, merge, camelCase, template } from 'lodash-es'

export default {
  description: 'Summarize records with lodash',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const rows = [{ team: 'a', name: 'Zed', score: 3 }, { team: 'b', name: 'Amy', score: 9 }, { team: 'a', name: 'Bob', score: 7 }, { team: 'b', name: 'Amy', score: 1 }]
    return {
      byTeam: mapValues(groupBy(rows, 'team'), (r) => r.map((x) => x.name)),
      sorted: sortBy(rows, ['score']).map((r) => pick(r, ['name', 'score'])),
      chunks: chunk([1, 2, 3, 4, 5], 2),
      uniq: uniqBy(rows, 'name').length,
      debounce: typeof debounce(() => 1, 10),
      get: get({ a: [{ b: { c: 'deep' } }] }, 'a[0].b.c'),
      merge: merge({ a: { x: 1 } }, { a: { y: 2 } }),
      camel: camelCase('Hello wide_world-now'),
      template: template('Hi <%= name %>!')({ name: 'Ada' }),
    }
  },
}
