// ms: durations both ways.
import ms from 'ms'

export default {
  description: 'Durations with ms',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return { parse: ['2 days', '1.5h', '10s', '100', '-3m', 'nope'].map((s) => ms(s as any) ?? null), format: [60000, 2 * 3600000, 1500, 365.25 * 864e5].map((n) => ms(n)), long: ms(90000, { long: true }) }
  },
}
