// util.parseArgs, promisify, types, isDeepStrictEqual, TextEncoder via util.
import util from 'node:util'

export default {
  description: 'util helpers',
  parameters: { type: 'object', properties: { argv: { type: 'array', items: { type: 'string' } } } },
  async execute(args: { argv?: string[] }) {
    const argv = args.argv ?? ['--name', 'Ada', '-v', '--count=3', 'file.txt', '--', '--raw']
    const parsed = util.parseArgs({ args: argv, allowPositionals: true, options: { name: { type: 'string' }, verbose: { type: 'boolean', short: 'v' }, count: { type: 'string', default: '1' } } })
    const wait = util.promisify((ms: number, cb: (e: Error | null, v?: string) => void) => setTimeout(() => cb(null, 'waited ' + ms), ms))
    const failing = util.promisify((cb: (e: Error | null) => void) => cb(new Error('nope')))
    return {
      parsed: { values: { ...parsed.values }, positionals: parsed.positionals },
      strictError: (() => { try { util.parseArgs({ args: ['--bogus'], options: {} }); return 'accepted' } catch (e) { return (e as any).code } })(),
      promisified: await wait(2),
      rejected: await failing().catch((e: Error) => e.message),
      types: [util.types.isDate(new Date()), util.types.isRegExp(/x/), util.types.isPromise(Promise.resolve()), util.types.isUint8Array(Buffer.alloc(1)), util.types.isAsyncFunction(async () => {})],
      deepEqual: [util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ['1'])],
      deprecate: typeof util.deprecate(() => 1, 'old'),
      inherits: typeof util.inherits,
      textEncoder: util.TextEncoder === TextEncoder,
      stripVT: typeof util.stripVTControlCharacters === 'function' ? util.stripVTControlCharacters('\u001b[31mred\u001b[0m') : 'missing',
    }
  },
}
