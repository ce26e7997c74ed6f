// Intl.NumberFormat and Number#toLocaleString, as report tools format money.
export default {
  description: 'Intl number formatting',
  parameters: { type: 'object', properties: { amount: { type: 'number' } } },
  async execute(args: { amount?: number }) {
    const n = args.amount ?? 1234567.891
    return {
      usd: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(n),
      eurDE: new Intl.NumberFormat('de-DE', { style: 'currency', currency: 'EUR' }).format(n),
      jpy: new Intl.NumberFormat('ja-JP', { style: 'currency', currency: 'JPY' }).format(n),
      inr: n.toLocaleString('en-IN'),
      grouping: [n.toLocaleString('en-US'), n.toLocaleString('fr-FR'), n.toLocaleString('de-CH')],
      toLocaleCurrency: (1234.5).toLocaleString('en-US', { style: 'currency', currency: 'USD' }),
      percent: new Intl.NumberFormat('en-US', { style: 'percent', maximumFractionDigits: 1 }).format(0.4567),
      compact: [new Intl.NumberFormat('en', { notation: 'compact' }).format(1234567), new Intl.NumberFormat('en', { notation: 'compact', compactDisplay: 'long' }).format(2500)],
      unit: new Intl.NumberFormat('en-US', { style: 'unit', unit: 'kilobyte', unitDisplay: 'short' }).format(512),
      digits: new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(3.14159),
      parts: new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).formatToParts(-1.5).map((p) => p.type),
      resolved: new Intl.NumberFormat('de-DE').resolvedOptions().locale,
      plain: (1234.5).toLocaleString(),
      bigint: (12345678901234567890n).toLocaleString('en-US'),
    }
  },
}
