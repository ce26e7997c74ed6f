// Dates, plurals, relative times and collation with Intl, at a fixed time.
export default {
  description: 'Intl dates and text',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5))
    return {
      dateUS: d.toLocaleDateString('en-US', { timeZone: 'UTC' }),
      dateDE: d.toLocaleDateString('de-DE', { timeZone: 'UTC' }),
      long: new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).format(d),
      tokyo: new Intl.DateTimeFormat('en-US', { timeZone: 'Asia/Tokyo', hour: 'numeric', minute: '2-digit', timeZoneName: 'short' }).format(d),
      ja: d.toLocaleString('ja-JP', { timeZone: 'UTC' }),
      toLocaleString: d.toLocaleString('en-US', { timeZone: 'UTC' }),
      parts: new Intl.DateTimeFormat('en-US', { month: 'long', day: 'numeric', timeZone: 'UTC' }).formatToParts(d).map((p) => `${p.type}:${p.value}`),
      relative: [new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).format(-1, 'day'), new Intl.RelativeTimeFormat('es').format(3, 'hour')],
      plural: [0, 1, 2, 5].map((n) => new Intl.PluralRules('en-US').select(n)).concat([new Intl.PluralRules('en-US', { type: 'ordinal' }).select(2)]),
      pluralRu: [1, 2, 5].map((n) => new Intl.PluralRules('ru').select(n)),
      collator: ['z', 'ä', 'a', 'Z', 'é', 'e'].sort(new Intl.Collator('de').compare),
      numericSort: ['item10', 'item2', 'item1'].sort(new Intl.Collator('en', { numeric: true }).compare),
      list: typeof Intl.ListFormat === 'function' ? new Intl.ListFormat('en', { type: 'conjunction' }).format(['a', 'b', 'c']) : 'no ListFormat',
      displayNames: typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }).of('DE') : 'no DisplayNames',
      timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      iso: d.toISOString(),
      dateString: d.toString(),
    }
  },
}
