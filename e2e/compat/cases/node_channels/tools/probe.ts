// The small Node modules packages read at import (undici, got, pino):
// diagnostics_channel, async_hooks, net/dns helpers, worker_threads,
// util.debuglog and util/types, and the web messaging classes.
import dc from 'node:diagnostics_channel'
import { AsyncResource } from 'node:async_hooks'
import net from 'node:net'
import { isMainThread } from 'node:worker_threads'
import timers from 'node:timers'
import { isUint8Array } from 'node:util/types'
import util from 'node:util'
import http2 from 'node:http2'

export default {
  description: 'small node modules and web messaging',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const seen: string[] = []
    const ch = dc.channel('beeuni:probe')
    const before = ch.hasSubscribers
    const sub = (msg: any, name: string | symbol) => seen.push(`${String(name)}=${msg.n}`)
    ch.subscribe(sub)
    ch.publish({ n: 1 })
    const removed = ch.unsubscribe(sub)
    ch.publish({ n: 2 })
    const tc = dc.tracingChannel('beeuni:trace')
    tc.subscribe({ start: () => seen.push('start'), end: () => seen.push('end'), asyncStart: () => seen.push('asyncStart'), asyncEnd: () => seen.push('asyncEnd'), error: () => seen.push('error') })
    const traced = tc.traceSync((a: number, b: number) => a + b, {}, null, 2, 3)
    await tc.tracePromise(async () => 'p', {})
    const res = new AsyncResource('probe').runInAsyncScope((x: number) => x * 2, null, 21)

    const { port1, port2 } = new MessageChannel()
    const got = await new Promise((resolve) => { port2.onmessage = (e: MessageEvent) => resolve(e.data); port1.postMessage({ deep: [1, { two: 2 }], when: new Date(0) }) })
    port1.close()
    const bc1 = new BroadcastChannel('probe'), bc2 = new BroadcastChannel('probe')
    const bcGot = await new Promise((resolve) => { bc2.onmessage = (e: MessageEvent) => resolve(e.data); bc1.postMessage('hello') })
    bc1.close(); bc2.close()

    const log = util.debuglog('beeuni-probe')
    return {
      seen, before, removed, after: ch.hasSubscribers, traced, res, got, bcGot,
      isIP: [net.isIP('127.0.0.1'), net.isIP('::1'), net.isIP('fe80::1%eth0'), net.isIP('1.2.3'), net.isIP('x')],
      isIPv6: net.isIPv6('2001:db8::8a2e:370:7334'),
      mainThread: isMainThread, timers: timers.setTimeout === setTimeout, u8: [isUint8Array(new Uint8Array(1)), isUint8Array([])],
      debug: typeof log,
      h2: [http2.constants.HTTP2_HEADER_STATUS, http2.constants.HTTP2_HEADER_PATH, http2.constants.HTTP_STATUS_NOT_FOUND],
    }
  },
}
