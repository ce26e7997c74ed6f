// node:events: once, on (async iteration), and EventEmitter details.
import { EventEmitter, once, on } from 'node:events'

export default {
  description: 'events.once and events.on',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const ee = new EventEmitter()
    const log: string[] = []
    setTimeout(() => ee.emit('ready', 'a', 'b'), 1)
    log.push('once:' + (await once(ee, 'ready')).join(','))
    const ac = new AbortController()
    setTimeout(() => { ee.emit('data', 1); ee.emit('data', 2); ee.emit('data', 3) }, 1)
    const got: number[] = []
    try {
      for await (const [v] of on(ee, 'data', { signal: ac.signal })) {
        got.push(v)
        if (got.length === 3) ac.abort()
      }
    } catch (e) { log.push('on ended: ' + (e as Error).name) }
    ee.on('x', () => {}); ee.prependListener('x', () => {})
    const errs: string[] = []
    ee.on(EventEmitter.errorMonitor, (e) => errs.push('monitor ' + e.message))
    ee.on('error', (e) => errs.push('handled ' + e.message))
    ee.emit('error', new Error('bad'))
    return { log, got, listeners: ee.listenerCount('x'), names: ee.eventNames().map(String), errs, defaultMax: EventEmitter.defaultMaxListeners }
  },
}
