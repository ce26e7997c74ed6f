// likebun.js records what Bun's Intl answers for the expressions below
// into likebun.json, the golden file of TestLikeBun (which does not need
// Bun). Run it by hand under Bun, in UTC:
//
//	TZ=UTC bun loader/jshost/intl/testdata/likebun.js
import { writeFileSync } from 'node:fs'

const exprs = []
const add = (e) => exprs.push(e)
const q = JSON.stringify

// Numbers.
const numLocales = ['en-US', 'en-GB', 'en-IN', 'de-DE', 'de-CH', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ja-JP', 'zh-CN', 'ko-KR', 'ru-RU', 'ar-EG', 'hi-IN', 'nl-NL', 'sv-SE', 'pl-PL', 'tr-TR', 'he', 'fr-CA', 'es-MX', 'en-AU', 'pt-PT', 'da', 'fi', 'cs', 'uk', 'id', 'vi']
const values = ['0', '-0', '1234.5', '-1234.5678', '1234567.891', '0.000123', '1e21', 'NaN', '-Infinity', '999999.5']
const numOptions = [
  {}, { style: 'currency', currency: 'USD' }, { style: 'currency', currency: 'EUR' }, { style: 'currency', currency: 'JPY' },
  { style: 'currency', currency: 'GBP', currencyDisplay: 'code' }, { style: 'currency', currency: 'USD', currencyDisplay: 'name' },
  { style: 'currency', currency: 'CHF' }, { style: 'currency', currency: 'INR', currencyDisplay: 'narrowSymbol' },
  { style: 'currency', currency: 'USD', currencySign: 'accounting' }, { style: 'percent' }, { style: 'percent', maximumFractionDigits: 2 },
  { notation: 'compact' }, { notation: 'compact', compactDisplay: 'long' }, { style: 'unit', unit: 'kilobyte' },
  { style: 'unit', unit: 'megabyte', unitDisplay: 'long' }, { style: 'unit', unit: 'celsius', unitDisplay: 'narrow' },
  { style: 'unit', unit: 'hour', unitDisplay: 'long' }, { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  { maximumSignificantDigits: 3 }, { minimumSignificantDigits: 5 }, { signDisplay: 'always' }, { signDisplay: 'exceptZero' },
  { signDisplay: 'never' }, { signDisplay: 'negative' }, { useGrouping: false }, { useGrouping: 'always' }, { useGrouping: 'min2' },
  { notation: 'scientific' }, { notation: 'engineering' }, { minimumIntegerDigits: 3 }, { maximumFractionDigits: 0, roundingMode: 'floor' },
  { maximumFractionDigits: 1, roundingMode: 'halfEven' }, { minimumFractionDigits: 2, trailingZeroDisplay: 'stripIfInteger' },
  { maximumFractionDigits: 2, roundingPriority: 'lessPrecision', maximumSignificantDigits: 3 },
]
for (const l of numLocales.slice(0, 12)) for (const o of numOptions) add(`new Intl.NumberFormat(${q(l)}, ${q(o)}).format(1234.5)`)
for (const l of numLocales) for (const v of values) add(`new Intl.NumberFormat(${q(l)}).format(${v})`)
for (const l of numLocales) for (const o of numOptions.slice(1, 14)) add(`new Intl.NumberFormat(${q(l)}, ${q(o)}).format(-1234567.891)`)
for (const v of values) for (const o of numOptions) add(`new Intl.NumberFormat('en-US', ${q(o)}).format(${v})`)
for (const n of ['1', '2', '0', '1.5', '5', '21', '1000', '1500', '2000000', '999', '999.95']) {
  add(`new Intl.NumberFormat('ru', { style: 'unit', unit: 'day', unitDisplay: 'long' }).format(${n})`)
  add(`new Intl.NumberFormat('fr', { notation: 'compact', compactDisplay: 'long' }).format(${n} * 1000)`)
  add(`new Intl.NumberFormat('de', { notation: 'compact' }).format(${n} * 1e6)`)
  add(`new Intl.NumberFormat('pl', { style: 'currency', currency: 'USD', currencyDisplay: 'name' }).format(${n})`)
  add(`new Intl.NumberFormat('ja', { notation: 'compact' }).format(${n} * 10000)`)
}
for (const o of numOptions) add(`new Intl.NumberFormat('de-DE', ${q(o)}).formatToParts(-1234.5)`)
for (const o of numOptions) add(`new Intl.NumberFormat('en-US', ${q(o)}).resolvedOptions()`)
add(`new Intl.NumberFormat('en-US').format(12345678901234567890n)`)
add(`(12345678901234567890n).toLocaleString('de-DE')`)
add(`new Intl.NumberFormat('en-US').format('1234567890.123456789')`)
add(`new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 }).format('0.1')`)
add(`(1.005).toLocaleString('en-US', { maximumFractionDigits: 2 })`)
add(`(1234.5).toLocaleString()`)
add(`(1234.5).toLocaleString(undefined, { style: 'currency', currency: 'EUR' })`)
add(`[1234.5, new Date(Date.UTC(2024, 0, 2))].toLocaleString('de-DE', { timeZone: 'UTC' })`)
add(`new Intl.NumberFormat('xx').resolvedOptions().locale`)
add(`new Intl.NumberFormat('en-ZZ').resolvedOptions().locale`)
add(`new Intl.NumberFormat(['xx', 'de-AT']).resolvedOptions().locale`)
add(`new Intl.NumberFormat('ar').format(-1234.5)`)
add(`new Intl.NumberFormat('en-u-nu-arab').format(1234.5)`)
add(`new Intl.NumberFormat('en', { numberingSystem: 'deva' }).format(1234.5)`)
add(`new Intl.NumberFormat('en', { style: 'currency', currency: 'XYZ' }).format(1)`)

for (const l of ['en-US', 'de', 'fr', 'ja', 'es']) for (const unit of ['kilometer-per-hour', 'mile-per-hour', 'megabit-per-second', 'liter-per-kilometer']) {
  for (const unitDisplay of ['short', 'long', 'narrow']) add(`new Intl.NumberFormat(${q(l)}, { style: 'unit', unit: ${q(unit)}, unitDisplay: ${q(unitDisplay)} }).format(${l === 'de' ? 1 : 42.5})`)
}
add(`Intl.supportedValuesOf('unit')`)
add(`Intl.supportedValuesOf('currency').length > 0`)
for (const z of ['America/New_York', 'Europe/Paris', 'Asia/Kolkata']) for (const l of ['en-US', 'en-GB', 'de-DE', 'fr-FR']) {
  add(`new Date(Date.UTC(2024, 2, 10, 12)).toLocaleString(${q(l)}, { timeZone: ${q(z)} })`)
  add(`new Date(Date.UTC(2024, 2, 10, 12)).toLocaleTimeString(${q(l)}, { timeZone: ${q(z)}, timeZoneName: 'short' })`)
}

// Dates.
const d1 = 'new Date(Date.UTC(2024, 0, 2, 15, 4, 5))'
const d2 = 'new Date(Date.UTC(2024, 6, 14, 9, 8, 7))'
const dateLocales = ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES', 'it-IT', 'pt-BR', 'ja-JP', 'zh-CN', 'zh-TW', 'ko-KR', 'ru-RU', 'nl-NL', 'sv-SE', 'pl-PL', 'tr-TR', 'en-IN', 'en-CA', 'fr-CA', 'de-CH', 'hi', 'ar-EG', 'he', 'uk', 'cs']
const dateOptions = [
  {}, { dateStyle: 'full' }, { dateStyle: 'long' }, { dateStyle: 'medium' }, { dateStyle: 'short' }, { timeStyle: 'short' }, { timeStyle: 'medium' },
  { timeStyle: 'long' }, { timeStyle: 'full' }, { dateStyle: 'medium', timeStyle: 'short' }, { dateStyle: 'full', timeStyle: 'long' },
  { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }, { month: 'short', day: 'numeric' }, { month: 'long' },
  { year: 'numeric', month: 'short' }, { hour: 'numeric', minute: '2-digit' }, { hour: '2-digit', minute: '2-digit', hour12: false },
  { hour: 'numeric', hour12: true }, { year: '2-digit', month: '2-digit', day: '2-digit' }, { weekday: 'short' },
  { weekday: 'short', hour: 'numeric', minute: 'numeric' }, { month: 'long', day: 'numeric', hour: 'numeric', minute: 'numeric' },
  { hour: 'numeric', minute: 'numeric', second: 'numeric', timeZoneName: 'short' }, { timeZoneName: 'long' },
  { year: 'numeric', era: 'short' }, { hourCycle: 'h23', hour: 'numeric', minute: 'numeric' }, { dateStyle: 'short', timeStyle: 'short', hour12: false },
]
for (const l of dateLocales) for (const o of dateOptions) add(`new Intl.DateTimeFormat(${q(l)}, ${q({ ...o, timeZone: 'UTC' })}).format(${d1})`)
const zones = ['America/New_York', 'America/Los_Angeles', 'Europe/Berlin', 'Europe/London', 'Asia/Tokyo', 'Asia/Kolkata', 'Australia/Sydney', 'America/Sao_Paulo', 'Africa/Cairo', 'UTC', 'Pacific/Auckland', 'Asia/Shanghai']
for (const z of zones) for (const l of ['en-US', 'en-GB', 'de-DE', 'fr-FR', 'ja-JP']) for (const tzn of ['short', 'long', 'shortOffset', 'longOffset']) {
  for (const d of [d1, d2]) add(`new Intl.DateTimeFormat(${q(l)}, { timeZone: ${q(z)}, hour: 'numeric', minute: 'numeric', timeZoneName: ${q(tzn)} }).format(${d})`)
}
for (const z of zones) add(`new Intl.DateTimeFormat('en-US', { timeZone: ${q(z)}, dateStyle: 'full', timeStyle: 'full' }).format(${d2})`)
for (const l of dateLocales) {
  add(`${d1}.toLocaleString(${q(l)}, { timeZone: 'UTC' })`)
  add(`${d1}.toLocaleDateString(${q(l)}, { timeZone: 'UTC' })`)
  add(`${d1}.toLocaleTimeString(${q(l)}, { timeZone: 'UTC' })`)
  add(`new Intl.DateTimeFormat(${q(l)}, { dateStyle: 'full', timeStyle: 'short', timeZone: 'UTC' }).formatToParts(${d2})`)
  add(`new Intl.DateTimeFormat(${q(l)}, { timeZone: 'UTC' }).resolvedOptions()`)
  add(`new Intl.DateTimeFormat(${q(l)}, { hour: 'numeric', minute: 'numeric', timeZone: 'UTC' }).resolvedOptions()`)
}
add(`${d1}.toLocaleDateString('en', { hour: 'numeric', timeZone: 'UTC' })`)
add(`new Intl.DateTimeFormat('en-US', { hour12: false, timeZone: 'America/New_York', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', era: 'short' }).formatToParts(${d1})`)
add(`new Intl.DateTimeFormat('en-US', { hourCycle: 'h23', timeZone: 'Europe/Berlin', year: 'numeric', month: 'numeric', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit' }).format(${d2})`)
add(`new Intl.DateTimeFormat('en-US', { timeZone: 'america/new_york' }).resolvedOptions().timeZone`)
add(`new Intl.DateTimeFormat('en-US', { timeZone: 'utc' }).resolvedOptions().timeZone`)
add(`new Intl.DateTimeFormat().resolvedOptions().timeZone`)
add(`new Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(-62198755200000)`)
add(`new Intl.DateTimeFormat('en', { timeZone: 'UTC', year: 'numeric', era: 'long' }).format(-1e14)`)
add(`new Intl.DateTimeFormat('en', { timeZone: 'UTC', hour: 'numeric' }).format(0)`)
add(`new Intl.DateTimeFormat('ja', { timeZone: 'UTC', hour: 'numeric', hour12: true }).format(0)`)
add(`new Intl.DateTimeFormat('zh-TW', { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).format(${d1})`)
add(`new Intl.DateTimeFormat('en-US', { timeZone: 'UTC', month: 'long', day: 'numeric' }).formatToParts(${d1})`)

// Plural rules.
for (const l of ['en', 'ru', 'ar', 'pl', 'fr', 'cs', 'ja', 'cy', 'he', 'lt']) for (const type of ['cardinal', 'ordinal']) {
  add(`[0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 101, 1.5, 0.1, 1000000].map((n) => new Intl.PluralRules(${q(l)}, { type: ${q(type)} }).select(n))`)
  add(`new Intl.PluralRules(${q(l)}, { type: ${q(type)} }).resolvedOptions().pluralCategories`)
}
add(`new Intl.PluralRules('en', { minimumFractionDigits: 1 }).select(1)`)
add(`new Intl.PluralRules('en').resolvedOptions()`)

// Collation.
const words = q(['z', 'ä', 'a', 'Z', 'é', 'e', 'Äpfel', 'apple', 'Apple', 'ö', 'o', 'å', 'item10', 'item2', 'résumé', 'resume', 'ß', 'ss'])
for (const l of ['en', 'de', 'sv', 'fr', 'es', 'da']) for (const o of [{}, { sensitivity: 'base' }, { numeric: true }, { sensitivity: 'accent' }]) {
  add(`${words}.slice().sort(new Intl.Collator(${q(l)}, ${q(o)}).compare)`)
}
add(`['a', 'A', 'á'].map((x) => new Intl.Collator('en', { sensitivity: 'base' }).compare(x, 'a'))`)
add(`['a', 'A', 'á'].map((x) => new Intl.Collator('en', { sensitivity: 'case' }).compare(x, 'a'))`)
add(`'a'.localeCompare('B')`)
add(`'ä'.localeCompare('z', 'sv')`)
add(`new Intl.Collator('de').resolvedOptions()`)

// Relative time, lists, names.
for (const l of ['en', 'de', 'es', 'fr', 'ja', 'ru', 'pt-BR', 'zh']) for (const style of ['long', 'short', 'narrow']) for (const numeric of ['always', 'auto']) {
  add(`[[-1, 'day'], [1, 'day'], [0, 'day'], [-2, 'day'], [3, 'hour'], [-5, 'minute'], [1, 'week'], [-1, 'month'], [2, 'quarter'], [-1, 'year'], [1.5, 'second'], [-0, 'second']].map(([v, u]) => new Intl.RelativeTimeFormat(${q(l)}, ${q({ style, numeric })}).format(v, u))`)
}
add(`new Intl.RelativeTimeFormat('en').formatToParts(-1234.5, 'days')`)
add(`new Intl.RelativeTimeFormat('en', { numeric: 'auto' }).formatToParts(-1, 'day')`)
add(`new Intl.RelativeTimeFormat('de').resolvedOptions()`)
for (const l of ['en', 'de', 'es', 'fr', 'ja', 'zh', 'ru', 'en-GB']) for (const type of ['conjunction', 'disjunction', 'unit']) for (const style of ['long', 'short', 'narrow']) {
  add(`[['a'], ['a', 'b'], ['a', 'b', 'c'], ['a', 'b', 'c', 'd']].map((x) => new Intl.ListFormat(${q(l)}, ${q({ type, style })}).format(x))`)
}
add(`new Intl.ListFormat('en').formatToParts(['a', 'b', 'c'])`)
for (const l of ['en', 'de', 'fr', 'ja', 'es']) {
  add(`['DE', 'US', 'GB', 'JP', 'CN', 'BR', 'IN', '419', 'ZZ'].map((c) => new Intl.DisplayNames(${q(l)}, { type: 'region' }).of(c))`)
  add(`['de', 'en', 'fr', 'ja', 'zh', 'es', 'pt'].map((c) => new Intl.DisplayNames(${q(l)}, { type: 'language' }).of(c))`)
  add(`['USD', 'EUR', 'JPY'].map((c) => new Intl.DisplayNames(${q(l)}, { type: 'currency' }).of(c))`)
}

// A sweep over more locales and option combinations.
const sweepLocales = ['nb', 'fi', 'da', 'cs', 'sk', 'hu', 'ro', 'bg', 'el', 'uk', 'hr', 'sr', 'sl', 'lt', 'lv', 'et', 'ca', 'eu', 'gl', 'vi',
  'id', 'ms', 'fil', 'sw', 'bn', 'ta', 'te', 'mr', 'ur', 'fa', 'zh-HK', 'zh-Hant', 'ko', 'ka', 'hy', 'az', 'kk', 'uz', 'af', 'is', 'ga', 'cy', 'mk', 'sq', 'ne', 'si', 'km', 'am', 'zu', 'es-419', 'pt-PT', 'en-AU', 'en-150', 'de-AT', 'it-CH', 'fr-CH', 'nl-BE']
const sweepDates = [
  { weekday: 'long', day: 'numeric', month: 'long' }, { year: 'numeric', month: 'long', day: 'numeric' }, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' },
  { weekday: 'short', year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' }, { hour: 'numeric', minute: 'numeric', hour12: true },
  { hour: 'numeric', minute: 'numeric', second: 'numeric', hour12: false }, { year: 'numeric', month: '2-digit' }, { month: 'narrow' }, { weekday: 'narrow' },
  { dateStyle: 'long', timeStyle: 'medium' }, { dateStyle: 'full' }, { timeStyle: 'full' }, { era: 'long', year: 'numeric', month: 'long', day: 'numeric' },
  { year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', timeZoneName: 'short' },
]
for (const l of sweepLocales) {
  for (const o of sweepDates) add(`new Intl.DateTimeFormat(${q(l)}, ${q({ ...o, timeZone: 'Europe/Paris' })}).format(${d2})`)
  for (const o of numOptions.slice(0, 24)) add(`new Intl.NumberFormat(${q(l)}, ${q(o)}).format(-9876543.21)`)
  add(`[[-3, 'day'], [2, 'week'], [1, 'month'], [-1, 'year']].map(([v, u]) => new Intl.RelativeTimeFormat(${q(l)}, { numeric: 'auto' }).format(v, u))`)
  add(`new Intl.ListFormat(${q(l)}).format(['a', 'b', 'c'])`)
  add(`[0, 1, 2, 5, 11, 1.5].map((n) => new Intl.PluralRules(${q(l)}).select(n))`)
}

// Unicode extensions.
for (const l of ['en-US-u-hc-h23', 'en-GB-u-hc-h12', 'ar-EG-u-nu-latn', 'de-u-nu-latn', 'en-u-ca-iso8601', 'en-US-u-nu-deva', 'hi-u-nu-deva', 'fr-u-hc-h11']) {
  add(`new Intl.DateTimeFormat(${q(l)}, { timeZone: 'UTC', dateStyle: 'medium', timeStyle: 'short' }).format(${d1})`)
  add(`new Intl.DateTimeFormat(${q(l)}, { timeZone: 'UTC', hour: 'numeric', minute: 'numeric' }).resolvedOptions()`)
  add(`new Intl.NumberFormat(${q(l)}).format(-1234.5)`)
  add(`new Intl.NumberFormat(${q(l)}).resolvedOptions().locale`)
}

// Segmenter.
const texts = ['Hello, world! How are you?', 'e\u0301le\u0300ve 👩‍👩‍👧‍👦 🇩🇪 x', "Don't stop. Mr. Smith's 3.14 cats! Ok?", 'Ça va? Très bien.\nNext line', '']
for (const t of texts) for (const granularity of ['grapheme', 'word', 'sentence']) {
  add(`[...new Intl.Segmenter('en', { granularity: ${q(granularity)} }).segment(${q(t)})]`)
}
add(`new Intl.Segmenter('en', { granularity: 'word' }).segment('Hello big world').containing(7)`)
add(`new Intl.Segmenter('en').segment('abc').containing(5)`)
add(`new Intl.Segmenter('de', { granularity: 'word' }).resolvedOptions()`)
add(`[...new Intl.Segmenter().segment('👍🏽!')].length`)

// Locales and errors.
add(`Intl.getCanonicalLocales(['EN-us', 'de-de', 'zh-hant-tw', 'en-US'])`)
add(`Intl.getCanonicalLocales('sr-latn-rs')`)
add(`Intl.NumberFormat.supportedLocalesOf(['en-US', 'xx', 'de'])`)
add(`typeof Intl`)
add(`Object.prototype.toString.call(Intl)`)
add(`Object.prototype.toString.call(new Intl.NumberFormat())`)
add(`new Intl.Locale('en-Latn-US').baseName`)
add(`[new Intl.Locale('de-DE').language, new Intl.Locale('de-DE').region, String(new Intl.Locale('en', { region: 'GB', hourCycle: 'h23' }))]`)
add(`new Intl.Locale('en').maximize().toString()`)
add(`Intl.NumberFormat('en').format(1)`)
add(`Intl.DateTimeFormat('en', { timeZone: 'UTC' }).format(0)`)
for (const e of [
  `new Intl.NumberFormat('en', { style: 'bad' })`, `new Intl.NumberFormat('en', { style: 'currency' })`, `new Intl.NumberFormat('en', { style: 'currency', currency: 'US' })`,
  `new Intl.NumberFormat('en', { style: 'unit' })`, `new Intl.NumberFormat('en', { style: 'unit', unit: 'foo' })`, `new Intl.NumberFormat('en', { maximumFractionDigits: 200 })`,
  `new Intl.NumberFormat('en', { minimumFractionDigits: 3, maximumFractionDigits: 1 })`, `new Intl.NumberFormat('en', { useGrouping: 'bad' })`, `new Intl.NumberFormat('en_US')`,
  `Intl.getCanonicalLocales(['en', 5])`, `new Intl.DateTimeFormat('en', { dateStyle: 'full', hour: 'numeric' })`, `new Intl.DateTimeFormat('en', { timeZone: 'Mars/Base' })`,
  `new Intl.DateTimeFormat('en').format(NaN)`, `new Intl.DateTimeFormat('en', { hour: 'bad' })`, `new Intl.PluralRules('en', { type: 'bad' })`,
  `new Intl.RelativeTimeFormat('en').format(1, 'bad')`, `new Intl.RelativeTimeFormat('en').format(NaN, 'day')`, `Intl.NumberFormat.prototype.format.call({}, 1)`,
  `new Intl.ListFormat('en').format([1, 2])`, `Intl.PluralRules('en')`, `new Date(NaN).toLocaleString()`,
]) add(e)

const out = []
for (const e of exprs) {
  let r
  try {
    r = JSON.stringify((0, eval)(e))
  } catch (err) {
    r = `throws ${err?.constructor?.name}: ${err?.message}`
  }
  out.push([e, r])
}
writeFileSync(new URL('./likebun.json', import.meta.url), JSON.stringify(out, null, 1) + '\n')
console.log(`${out.length} expressions recorded`)
