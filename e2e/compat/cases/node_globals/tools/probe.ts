// The globals every runtime has: global, timers, microtasks, base64.
export default {
  description: 'globals',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const order: string[] = []
    await new Promise<void>((resolve) => {
      setTimeout(() => order.push('t2'), 2)
      setTimeout(() => order.push('t0'), 0)
      const i = setInterval(() => { order.push('i'); if (order.filter((x) => x === 'i').length === 2) { clearInterval(i); setTimeout(resolve, 5) } }, 1)
      queueMicrotask(() => order.push('micro'))
    })
    const t = setTimeout(() => {}, 1000)
    clearTimeout(t)
    return {
      global: (globalThis as any).global === globalThis,
      self: typeof (globalThis as any).self,
      window: typeof (globalThis as any).window,
      order: order.filter((x) => x !== 'i').concat(['intervals:' + order.filter((x) => x === 'i').length]),
      timerHasRef: typeof (t as any).ref === 'function' || typeof t === 'number',
      atob: atob('aGVsbG8='), btoa: btoa('hello'),
      btoaError: (() => { try { btoa('✓'); return 'encoded' } catch (e) { return (e as Error).name } })(),
      setImmediate: typeof (globalThis as any).setImmediate,
      abortAny: typeof (AbortSignal as any).any,
      domException: new DOMException('m', 'AbortError').name,
      eventTarget: (() => { const et = new EventTarget(); let n = 0; et.addEventListener('x', () => n++); et.dispatchEvent(new Event('x')); return n })(),
      navigator: typeof (globalThis as any).navigator,
      reportError: typeof (globalThis as any).reportError,
      jsonSorted: JSON.stringify(Object.fromEntries(Object.entries({ b: 1, a: 2 }).sort())),
      arrayAt: [1, 2, 3].at(-1), findLast: [1, 2, 3].findLast((x) => x < 3), hasOwn: Object.hasOwn({ a: 1 }, 'a'),
      toSorted: typeof (Array.prototype as any).toSorted,
      groupBy: typeof (Object as any).groupBy,
      promiseWithResolvers: typeof (Promise as any).withResolvers,
      setMethods: typeof (Set.prototype as any).union,
    }
  },
}
