// performance: the names tools time themselves with (no timings printed).
export default {
  description: 'performance',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const t0 = performance.now()
    performance.mark('start')
    await new Promise((r) => setTimeout(r, 5))
    performance.mark('end')
    const m = performance.measure('work', 'start', 'end')
    const t1 = performance.now()
    return {
      nowIsNumber: typeof t0 === 'number', monotonic: t1 >= t0, waited: t1 - t0 >= 4,
      timeOrigin: performance.timeOrigin > 1.6e12,
      measure: { name: m?.name, entryType: m?.entryType, positive: (m?.duration ?? 0) > 0 },
      marks: performance.getEntriesByType('mark').map((e) => e.name),
      toJSON: typeof performance.toJSON,
    }
  },
}
