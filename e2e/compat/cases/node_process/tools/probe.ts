// process and node:process as tools read them.
import proc from 'node:process'

export default {
  description: 'process',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const order: string[] = []
    await new Promise<void>((resolve) => {
      setTimeout(() => { order.push('timeout'); resolve() }, 0)
      Promise.resolve().then(() => order.push('promise'))
      process.nextTick(() => order.push('tick'))
      order.push('sync')
    })
    return {
      same: proc === process,
      platform: process.platform,
      tz: process.env.TZ,
      cwdIsDirectory: process.cwd() === context.directory,
      version: /^v\d+\.\d+\.\d+/.test(process.version),
      versionsNode: typeof process.versions.node,
      hrtime: typeof process.hrtime.bigint(),
      hrtimeArray: Array.isArray(process.hrtime()),
      uptime: typeof process.uptime(),
      memory: typeof process.memoryUsage().heapUsed,
      order,
      argv0IsString: typeof process.argv[0],
      exitCode: process.exitCode ?? null,
      emitWarning: typeof process.emitWarning,
      stdoutIsTTY: Boolean(process.stdout?.isTTY),
      arch: typeof process.arch,
      pidIsNumber: typeof process.pid,
    }
  },
}
