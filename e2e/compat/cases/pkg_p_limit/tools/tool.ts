// p-limit: bounded concurrency, order of results kept.
import pLimit from 'p-limit'

export default {
  description: 'Concurrency with p-limit',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const limit = pLimit(2)
    let running = 0, peak = 0
    const jobs = [30, 10, 20, 5, 1].map((ms, i) => limit(async () => { running++; peak = Math.max(peak, running); await new Promise((r) => setTimeout(r, ms)); running--; return `job${i}` }))
    const results = await Promise.all(jobs)
    return { results, peak, activeAfter: limit.activeCount, pendingAfter: limit.pendingCount }
  },
}
