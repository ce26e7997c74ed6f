// util.inspect and util.format print Node's format, which tools return as text.
import util from 'node:util'

class Point { constructor(public x: number, public y: number) {} }

export default {
  description: 'util.inspect and util.format',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const value = { name: 'beeuni', nested: { deep: { deeper: { deepest: 1 } } }, list: [1, 'two', null, undefined], map: new Map([['k', 1]]), set: new Set([1, 2]), point: new Point(1, 2), date: new Date(0), re: /x+/g, fn: function named() {}, sym: Symbol('s'), big: 10n }
    return [
      util.inspect(value),
      util.inspect(value, { depth: 0 }),
      util.inspect('str'),
      util.inspect([1, [2, [3, [4, [5]]]]]),
      util.inspect({ a: 1, b: 'x' }, { compact: false }),
      util.format('%s is %d years and %i, %j %o', 'Ada', 36.5, 7.9, { a: 1 }, [1]),
      util.format('extra', 1, { b: 2 }),
      util.format('%%s %c done', 'css'),
      util.inspect(new Error('boom')).split('\n')[0],
      util.inspect(Array.from({ length: 120 }, (_, i) => i)).split('\n').length,
    ].join('\n---\n')
  },
}
