// Bun.env, Bun.sleep, Bun.version and named imports from "bun".
import { sleep, env, version } from 'bun'

export default {
  description: 'Bun.env, Bun.sleep, Bun.version',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const t0 = Date.now()
    await Bun.sleep(20)
    await sleep(5)
    return {
      tz: Bun.env.TZ,
      envIsProcessEnv: env.TZ === process.env.TZ,
      slept: Date.now() - t0 >= 20,
      version: /^\d+\.\d+\.\d+/.test(Bun.version) && version === Bun.version,
      revision: typeof Bun.revision,
      main: typeof Bun.main,
      nanoseconds: typeof Bun.nanoseconds(),
      processVersionsBun: typeof process.versions.bun,
      sleepSync: typeof Bun.sleepSync,
      inspect: Bun.inspect({ a: [1, { b: 'x' }] }),
      deepEquals: Bun.deepEquals({ a: [1] }, { a: [1] }),
      escapeHTML: Bun.escapeHTML('<a href="x">&</a>'),
      stringWidth: typeof Bun.stringWidth === 'function' ? Bun.stringWidth('日本a') : null,
    }
  },
}
