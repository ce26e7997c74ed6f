// gen.js asks Bun's own Intl (ICU and CLDR) for the patterns, symbols and
// words of the locales below and writes them under data/ (writeData), which
// package intl embeds: x/text does not expose them. Run it by hand under
// Bun after changing the lists (go generate runs it too):
//
//	bun loader/jshost/intl/gen.js
//
// Every pattern is read back from formatToParts of sample values, so the
// Go formatter only substitutes numbers, names and signs into what ICU
// itself wrote.
import { writeFileSync, readFileSync, readdirSync, statSync, mkdirSync, rmSync } from 'node:fs'
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib'
import { join } from 'node:path'

const LOCALES = `en en-US en-GB en-AU en-CA en-IN en-IE en-NZ en-ZA en-SG en-PH en-001 en-150
de de-DE de-AT de-CH de-LU fr fr-FR fr-CA fr-CH fr-BE es es-ES es-MX es-419 es-AR es-CO es-CL es-US
it it-IT it-CH pt pt-BR pt-PT nl nl-NL nl-BE sv sv-SE da nb nn no fi is pl cs sk sl hr sr sr-Latn bs hu ro
bg ru uk be el tr tr-TR he ar ar-EG ar-AE fa hi bn ta te mr gu kn ml pa ur ja ja-JP zh zh-CN zh-TW zh-HK zh-Hans zh-Hant
ko ko-KR th vi id ms fil sw et lv lt ca eu gl af sq hy ka az kk uz mn km lo my ne si am zu cy ga mt lb mk`.split(/\s+/)

const CURRENCIES = `USD EUR JPY GBP CNY INR AUD CAD CHF HKD SGD SEK KRW NOK NZD MXN TWD ZAR BRL DKK PLN THB ILS IDR CZK
AED TRY HUF CLP SAR PHP MYR COP RUB RON EGP NGN PKR VND ARS UAH BGN ISK KES MAD QAR KWD BHD`.split(/\s+/)

// UNITS: ECMA-402's simple units and the compound ones tools use most.
const UNITS = Intl.supportedValuesOf('unit').concat(['kilometer-per-hour', 'mile-per-hour', 'meter-per-second', 'kilobyte-per-second',
  'megabyte-per-second', 'gigabyte-per-second', 'kilobit-per-second', 'megabit-per-second', 'gigabit-per-second', 'liter-per-kilometer', 'mile-per-gallon'])
const RTF_UNITS = ['year', 'quarter', 'month', 'week', 'day', 'hour', 'minute', 'second']
const SAMPLE = Date.UTC(2024, 0, 2, 9, 4, 5, 6) // a Tuesday; single-digit fields tell numeric from 2-digit

const numberParts = new Set(['integer', 'group', 'decimal', 'fraction'])

// template is formatToParts' parts with the number (integer, group,
// decimal, fraction) as one ["N"] part.
function template(parts, replace = {}) {
  const out = []
  for (const p of parts) {
    if (numberParts.has(p.type)) {
      if (!out.length || out[out.length - 1][0] !== 'N') out.push(['N'])
      continue
    }
    out.push([p.type, replace[p.type] ?? p.value])
  }
  return out
}

function numberValue(parts, digits) {
  const ascii = (s) => s.replace(/./gu, (c) => (digits.indexOf(c) >= 0 ? String(digits.indexOf(c)) : c))
  return Number(parts.filter((p) => numberParts.has(p.type) && p.type !== 'group').map((p) => (p.type === 'decimal' ? '.' : ascii(p.value))).join(''))
}

// grouping is [primary, secondary] group sizes of a formatter.
function grouping(f) {
  const ints = f.formatToParts(1234567890).filter((p) => p.type === 'integer').map((p) => p.value.length)
  const g1 = ints.length > 1 ? ints[ints.length - 1] : 0
  return [g1, ints.length > 2 ? ints[ints.length - 2] : g1]
}

// samples are a number of each plural category of the locale.
function samples(loc, digits = {}) {
  const pr = new Intl.PluralRules(loc, digits)
  const out = {}
  for (let i = 0; i <= 1000; i++) {
    const c = pr.select(i)
    if (!(c in out)) out[c] = i
  }
  for (let i = 0; i <= 100; i++) {
    const c = pr.select(i + 0.5)
    if (!(c in out)) out[c] = i + 0.5
  }
  for (const n of [0.01, 0.1, 0.21, 1.01, 1.1, 0.02, 0.03, 0.05, 0.2, 1.2, 1.21, 2.1, 0.11, 0.12]) { // f's own categories (hr 0.21 is "one")
    const c = pr.select(n)
    if (!(c in out)) out[c] = n
  }
  return out
}

// compactSamples are a number in [1, 10) of each plural category that
// has one: the shown number of a compact pattern.
function compactSamples(loc) {
  const pr = new Intl.PluralRules(loc)
  const out = {}
  // 1 last: CLDR may have a form for exactly 1 (fr "mille"), recorded apart.
  for (const n of [2, 3, 4, 5, 6, 7, 8, 9, 1.5, 2.5, 1.2, 1]) {
    const c = pr.select(n)
    if (!(c in out)) out[c] = n
  }
  return out
}

function numbers(loc) {
  const nf = new Intl.NumberFormat(loc, { maximumFractionDigits: 3 })
  const nu = nf.resolvedOptions().numberingSystem
  const parts = nf.formatToParts(-1234567890.125)
  const sym = (t, ps = parts) => ps.find((p) => p.type === t)?.value
  const ints = parts.filter((p) => p.type === 'integer').map((p) => p.value.length)
  const g1 = ints.length > 1 ? ints[ints.length - 1] : 0
  const g2 = ints.length > 2 ? ints[ints.length - 2] : g1
  const minGroup = nf.formatToParts(1234).some((p) => p.type === 'group') ? 1 : nf.formatToParts(12345).some((p) => p.type === 'group') ? 2 : 3
  const always = new Intl.NumberFormat(loc, { signDisplay: 'always' })
  const pct = new Intl.NumberFormat(loc, { style: 'percent' })
  const sci = new Intl.NumberFormat(loc, { notation: 'scientific' }).formatToParts(-1234)
  const styles = {}
  const tmpl3 = (o) => {
    const f = new Intl.NumberFormat(loc, o)
    const fa = new Intl.NumberFormat(loc, { ...o, signDisplay: 'always' })
    const rep = { currency: '¤' }
    // The pattern's own symbols: currency patterns may have others (de-AT
    // groups currency with ".", fr-CH's currency decimal is ".").
    const big = f.formatToParts(-1234567.5)
    return {
      pos: template(f.formatToParts(1234.5), rep), neg: template(f.formatToParts(-1234.5), rep), plus: template(fa.formatToParts(1234.5), rep), g: grouping(f),
      dec: big.find((p) => p.type === 'decimal')?.value, grp: big.find((p) => p.type === 'group')?.value,
    }
  }
  styles.decimal = tmpl3({})
  styles.percent = tmpl3({ style: 'percent' })
  // The currency pattern from a currency whose symbol is a symbol at both
  // ends, so the spacing ICU puts next to letters is not taken for the
  // pattern's.
  // XXX (no currency) shows ¤ in most locales: the plain pattern, not one
  // CLDR keeps for a currency (en-150 writes -€5.00 but -5.00 US$).
  const xxx = sym('currency', new Intl.NumberFormat(loc, { style: 'currency', currency: 'XXX' }).formatToParts(1))
  let sampleCur = xxx === '¤' ? 'XXX' : CURRENCIES.find((c) => {
    const v = sym('currency', new Intl.NumberFormat(loc, { style: 'currency', currency: c }).formatToParts(1))
    return /^\p{S}/u.test(v) && /\p{S}$/u.test(v)
  }) ?? 'USD'
  styles.currency = tmpl3({ style: 'currency', currency: sampleCur })
  styles.accounting = tmpl3({ style: 'currency', currency: sampleCur, currencySign: 'accounting' })
  // CLDR's alphaNextToNumber patterns: what a symbol with a letter next to
  // the number takes (en-150: -5.00 US$ but -€5.00), ICU's spacing in.
  styles.currencyAlpha = tmpl3({ style: 'currency', currency: 'XXX', currencyDisplay: 'code' })
  styles.accountingAlpha = tmpl3({ style: 'currency', currency: 'XXX', currencyDisplay: 'code', currencySign: 'accounting' })
  const cats = samples(loc)
  const cur = {}
  for (const c of CURRENCIES) {
    const one = (o) => sym('currency', new Intl.NumberFormat(loc, { style: 'currency', currency: c, ...o }).formatToParts(1))
    const names = {}, negNames = {}
    // The samples as the currency shows them (1.00 is not "one" in hr).
    const digits = new Intl.NumberFormat(loc, { style: 'currency', currency: c }).resolvedOptions().maximumFractionDigits
    for (const [cat, n] of Object.entries(samples(loc, { minimumFractionDigits: digits, maximumFractionDigits: digits }))) {
      const f = new Intl.NumberFormat(loc, { style: 'currency', currency: c, currencyDisplay: 'name' })
      names[cat] = template(f.formatToParts(n))
      negNames[cat] = template(f.formatToParts(-n))
    }
    cur[c] = { s: one({}), n: one({ currencyDisplay: 'narrowSymbol' }), names, negNames }
  }
  const compact = {}
  for (const style of ['short', 'long']) {
    compact[style] = {}
    for (let m = 3; m <= 15; m++) {
      const byCat = {}
      for (const [cat, n] of Object.entries(compactSamples(loc))) {
        const v = n * 10 ** m
        const ps = new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: style, maximumFractionDigits: 3 }).formatToParts(v)
        const shown = numberValue(ps, numberingSystems[nu])
        // The negative form too: where the sign goes is the pattern's (he
        // "‎-‏1.2 מיליון", sw "milioni -9.9").
        const neg = new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: style, maximumFractionDigits: 3 }).formatToParts(-v)
        byCat[cat] = [Math.round(Math.log10(v / shown)), template(ps), template(neg)]
      }
      const one = new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: style }).formatToParts(10 ** m)
      const t1 = template(one)
      if (!Object.values(byCat).some((e) => JSON.stringify(e[1]) === JSON.stringify(t1))) byCat['=1'] = [m - Math.round(Math.log10(numberValue(one, numberingSystems[nu]) || 1)), t1]
      compact[style][m] = byCat
    }
  }
  const units = {}
  for (const u of UNITS) {
    units[u] = {}
    for (const display of ['short', 'long', 'narrow']) {
      const byCat = {}
      for (const [cat, n] of Object.entries(cats)) {
        byCat[cat] = template(new Intl.NumberFormat(loc, { style: 'unit', unit: u, unitDisplay: display }).formatToParts(n))
      }
      units[u][display] = byCat
    }
  }
  return {
    nu, dec: sym('decimal'), grp: sym('group') ?? '', minus: sym('minusSign'), plus: sym('plusSign', always.formatToParts(1)),
    pct: sym('percentSign', pct.formatToParts(1)), exp: sym('exponentSeparator', sci), nan: new Intl.NumberFormat(loc).format(NaN), inf: new Intl.NumberFormat(loc).format(Infinity),
    g: [g1, g2], mg: minGroup, styles, cur, compact, units, cats: Object.keys(cats),
  }
}

function relative(loc, cats) {
  const out = {}
  for (const style of ['long', 'short', 'narrow']) {
    out[style] = {}
    const always = new Intl.RelativeTimeFormat(loc, { style, numeric: 'always' })
    const auto = new Intl.RelativeTimeFormat(loc, { style, numeric: 'auto' })
    for (const unit of RTF_UNITS) {
      const u = { future: {}, past: {}, auto: {} }
      for (const [cat, n] of Object.entries(cats)) {
        u.future[cat] = template(always.formatToParts(n, unit))
        u.past[cat] = template(always.formatToParts(-n, unit))
      }
      for (const v of [-2, -1, 0, 1, 2]) {
        const a = auto.format(v, unit)
        if (a !== always.format(v, unit)) u.auto[v] = a
      }
      out[style][unit] = u
    }
  }
  return out
}

function lists(loc) {
  const out = {}
  for (const type of ['conjunction', 'disjunction', 'unit']) {
    out[type] = {}
    for (const style of ['long', 'short', 'narrow']) {
      const f = new Intl.ListFormat(loc, { type, style })
      const two = f.format(['\u0001', '\u0002']).replace('\u0001', '{0}').replace('\u0002', '{1}')
      const three = f.format(['\u0001', '\u0002', '\u0003'])
      const four = f.format(['\u0001', '\u0002', '\u0003', '\u0004'])
      const between = (s, a, b) => s.slice(s.indexOf(a) + 1, s.indexOf(b))
      // A pattern with words around the list (mn: "..., ... зэргийн аль
      // нэг") is left out: package intl refuses it.
      if (!three.startsWith('\u0001') || !three.endsWith('\u0003') || !four.startsWith('\u0001') || !four.endsWith('\u0004')) {
        process.stderr.write(`(list ${type} ${style} left out) `)
        continue
      }
      out[type][style] = [two, between(three, '\u0001', '\u0002'), between(four, '\u0002', '\u0003'), between(three, '\u0002', '\u0003')]
    }
  }
  return out
}

// Dates. A date key is weekday (- l s n), year (- y), month (- n N l s r: N is 2-digit),
// day (- d) and era (- l s n, only with a year); a time key is hour (- 1 for 12-hour, 2 for 23-hour, j
// for the locale's own: ICU's patterns differ, bg "11:08 ч." and "11:08"),
// minute (- m M: M is 2-digit), second (- s) and zone name (- s l).
const W = { '-': undefined, l: 'long', s: 'short', n: 'narrow' }
const Mo = { '-': undefined, n: 'numeric', N: '2-digit', l: 'long', s: 'short', r: 'narrow' }
const Z = { '-': undefined, s: 'short', l: 'long' }

function dateOptions(key) {
  const o = {}
  if (W[key[0]]) o.weekday = W[key[0]]
  if (key[1] === 'y') o.year = 'numeric'
  if (Mo[key[2]]) o.month = Mo[key[2]]
  if (key[3] === 'd') o.day = 'numeric'
  if (W[key[4]]) o.era = W[key[4]]
  return o
}

function timeOptions(key) {
  const o = {}
  if (key[0] !== '-') o.hour = 'numeric'
  if (key[0] === '1' || key[0] === '2') o.hour12 = key[0] === '1'
  if (key[1] === 'm') o.minute = 'numeric'
  if (key[1] === 'M') o.minute = '2-digit' // bg: "0:00", but "00:00 ч." for numeric
  if (key[2] === 's') o.second = 'numeric'
  if (Z[key[3]]) o.timeZoneName = Z[key[3]]
  return o
}

const dateKeys = []
for (const w of '-lsn') for (const y of '-y') for (const m of '-nNlsr') for (const d of '-d') for (const g of y === 'y' ? '-lsn' : '-') if (w + y + m + d !== '----') dateKeys.push(w + y + m + d + g)
const timeKeys = []
for (const h of '-12j') for (const m of '-mM') for (const s of '-s') for (const z of '-sl') if (h + m + s + z !== '----') timeKeys.push(h + m + s + z)

function dates(loc, num) {
  const base = new Intl.DateTimeFormat(loc, { timeZone: 'UTC' }).resolvedOptions()
  const nu = base.numberingSystem
  const digits = numberingSystems[nu]
  const ascii = (s) => s.replace(/./gu, (c) => (digits.indexOf(c) >= 0 ? String(digits.indexOf(c)) : c))
  const lists = []
  const listIndex = new Map()
  const list = (vals) => {
    const k = JSON.stringify(vals)
    if (!listIndex.has(k)) { listIndex.set(k, lists.length); lists.push(vals) }
    return listIndex.get(k)
  }
  const pattern = (opts) => {
    const f = new Intl.DateTimeFormat(loc, { ...opts, timeZone: 'UTC' })
    const part = (t, type) => f.formatToParts(t).find((p) => p.type === type)?.value
    return f.formatToParts(SAMPLE).map((p) => {
      const a = ascii(p.value)
      switch (p.type) {
        case 'unknown': // ICU's name for a pattern character it does not map
        case 'literal':
          if (/[{}]/.test(p.value)) throw new Error(`${loc} ${JSON.stringify(opts)}: a brace in ${p.value}`)
          return p.value
        case 'year': return a.length === 2 ? '{yy}' : '{y}'
        case 'day': return a === '02' ? '{dd}' : '{d}'
        case 'hour': return a === '09' ? '{hh}' : '{h}'
        case 'minute': return a === '04' ? '{mm}' : '{m}'
        case 'second': return a === '05' ? '{ss}' : '{s}'
        case 'month':
          if (a === '1') return '{M}'
          if (a === '01') return '{MM}'
          return '{M:' + list(Array.from({ length: 12 }, (_, i) => part(Date.UTC(2024, i, 2, 9), 'month'))) + '}'
        case 'weekday': return '{E:' + list(Array.from({ length: 7 }, (_, i) => part(Date.UTC(2024, 0, 7 + i, 9), 'weekday'))) + '}'
        case 'dayPeriod': return '{a:' + list(Array.from({ length: 24 }, (_, i) => part(Date.UTC(2024, 0, 2, i, 4), 'dayPeriod'))) + '}'
        case 'timeZoneName': return '{z}'
        case 'era': return '{G:' + list([part(Date.UTC(-100, 0, 2, 9), 'era'), part(SAMPLE, 'era')]) + '}'
        default: throw new Error(`${loc} ${JSON.stringify(opts)}: part ${p.type}`)
      }
    }).join('')
  }
  // fast is pattern with the sample's text in place of the name lists:
  // enough to tell whether a combination is what composing makes.
  const fast = (opts) => new Intl.DateTimeFormat(loc, { ...opts, timeZone: 'UTC' }).formatToParts(SAMPLE).map((p) => (p.type === 'literal' ? p.value : `{${p.type}=${p.value}}`)).join('')
  const d = {}
  for (const k of dateKeys) d[k] = pattern(dateOptions(k))
  const t = {}
  // A zone name alone gets the default date fields (ECMA-402
  // ToDateTimeOptions); with a date it is ICU's "z" skeleton.
  for (const k of timeKeys) t[k] = k.startsWith('---') ? '{z}' : pattern(timeOptions(k))
  // glue: how a date pattern and a time pattern are joined, by date key
  // (the most common join; the combinations ICU writes otherwise, such
  // as en's "Tue 9:04 AM", are in both).
  const glue = {}
  const both = {}
  const fd = {}, ft = {}
  for (const k of dateKeys) fd[k] = fast(dateOptions(k))
  for (const k of timeKeys) ft[k] = k.startsWith('---') ? `{timeZoneName=${fast({ timeZoneName: Z[k[3]] }).match(/\{timeZoneName=[^}]*\}/)[0].slice(14)}` : fast(timeOptions(k))
  for (const dk of dateKeys) {
    const full = {}
    const count = new Map()
    for (const tk of timeKeys) {
      const f = fast({ ...dateOptions(dk), ...timeOptions(tk) })
      full[tk] = f
      const dp = fd[dk], tp = ft[tk]
      let g
      if (f.startsWith(dp) && f.endsWith(tp) && f.length >= dp.length + tp.length) g = 'd' + f.slice(dp.length, f.length - tp.length)
      else if (f.startsWith(tp) && f.endsWith(dp) && f.length >= dp.length + tp.length) g = 't' + f.slice(tp.length, f.length - dp.length)
      if (g !== undefined) count.set(g, (count.get(g) ?? 0) + 1)
    }
    const g = [...count].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'd, '
    glue[dk] = g
    for (const tk of timeKeys) {
      const composed = g[0] === 'd' ? fd[dk] + g.slice(1) + ft[tk] : ft[tk] + g.slice(1) + fd[dk]
      if (full[tk] !== composed) both[dk + '/' + tk] = pattern({ ...dateOptions(dk), ...timeOptions(tk) })
    }
  }
  const styles = {}
  for (const ds of ['-', 'full', 'long', 'medium', 'short']) {
    for (const ts of ['-', 'full', 'long', 'medium', 'short']) {
      if (ds === '-' && ts === '-') continue
      const o = {}
      if (ds !== '-') o.dateStyle = ds
      if (ts !== '-') o.timeStyle = ts
      styles[ds + '/' + ts] = pattern(o)
      if (ts !== '-') styles[ds + '/' + ts + '/12'] = pattern({ ...o, hour12: true })
      if (ts !== '-') styles[ds + '/' + ts + '/23'] = pattern({ ...o, hour12: false })
    }
  }
  const hc = new Intl.DateTimeFormat(loc, { hour: 'numeric' }).resolvedOptions().hourCycle
  const hc12 = new Intl.DateTimeFormat(loc, { hour: 'numeric', hour12: true }).resolvedOptions().hourCycle
  return { calendar: base.calendar, nu, hc, hc12, d, t, glue, both, styles, lists, zones: zones(loc) }
}

const JAN = Date.UTC(2024, 0, 15, 12), JUL = Date.UTC(2024, 6, 15, 12)

function zoneName(loc, tz, style, t) {
  return new Intl.DateTimeFormat(loc, { timeZone: tz, timeZoneName: style }).formatToParts(t).find((p) => p.type === 'timeZoneName').value
}

function zones(loc) {
  const nu = new Intl.DateTimeFormat(loc).resolvedOptions().numberingSystem
  const digits = numberingSystems[nu]
  const loc9 = (s) => s.replace(/[0-9]/g, (c) => digits[c])
  const sub = (s, pairs) => { for (const [a, b] of pairs) s = s.replace(loc9(a), b); return s }
  const gmt = {
    zero: zoneName(loc, 'UTC', 'shortOffset', JAN),
    short: sub(zoneName(loc, 'Asia/Tokyo', 'shortOffset', JAN), [['9', '{H}']]),
    shortM: sub(zoneName(loc, 'Asia/Kolkata', 'shortOffset', JAN), [['5', '{H}'], ['30', '{mm}']]),
    shortNeg: sub(zoneName(loc, 'America/Sao_Paulo', 'shortOffset', JAN), [['3', '{H}']]),
    shortNegM: sub(zoneName(loc, 'America/St_Johns', 'shortOffset', JAN), [['3', '{H}'], ['30', '{mm}']]),
    longZero: zoneName(loc, 'UTC', 'longOffset', JAN),
    long: sub(zoneName(loc, 'Asia/Tokyo', 'longOffset', JAN), [['09', '{HH}'], ['00', '{mm}']]),
    longNeg: sub(zoneName(loc, 'America/Sao_Paulo', 'longOffset', JAN), [['03', '{HH}'], ['00', '{mm}']]),
  }
  // short: the zones whose short name is not the GMT form, as [winter,
  // summer] (the smaller offset first), or [name] for both. long: the
  // same by zone group (ZONE_GROUPS: the zones en names alike), with the
  // zones that differ from their group's first in longZones.
  const short = {}
  const names = (tz, style, generic) => {
    const v = seasons(tz).map((t) => zoneName(loc, tz, style, t))
    const g = seasons(tz).map((t) => zoneName(loc, tz, generic, t))
    if (v[0] === g[0] && v[1] === g[1]) return null
    return v[0] === v[1] ? [v[0]] : v
  }
  for (const tz of ZONES) {
    const v = names(tz, 'short', 'shortOffset')
    if (v) short[tz] = v
  }
  const long = [], longZones = {}
  for (const g of ZONE_GROUPS) {
    const first = names(g[0], 'long', 'longOffset')
    long.push(first)
    for (const tz of g.slice(1)) {
      const v = names(tz, 'long', 'longOffset')
      if (JSON.stringify(v) !== JSON.stringify(first)) longZones[tz] = v
    }
  }
  return { gmt, short, long, longZones }
}

const seasonsOf = new Map()
function seasons(tz) {
  if (!seasonsOf.has(tz)) seasonsOf.set(tz, offsetMinutes(tz, JAN) <= offsetMinutes(tz, JUL) ? [JAN, JUL] : [JUL, JAN])
  return seasonsOf.get(tz)
}

function offsetMinutes(tz, t) {
  const s = zoneName('en-US', tz, 'longOffset', t) // GMT, GMT+09:00, GMT-03:30
  const m = /GMT([+-])(\d\d):(\d\d)/.exec(s)
  return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : 0
}

const numberingSystems = {}
for (const nu of Intl.supportedValuesOf('numberingSystem')) {
  const f = new Intl.NumberFormat('en-u-nu-' + nu, { useGrouping: false })
  if (f.resolvedOptions().numberingSystem !== nu) continue
  const ds = Array.from({ length: 10 }, (_, i) => f.format(i))
  if (ds.every((x) => [...x].length === 1)) numberingSystems[nu] = ds.join('')
}

// ZONES: every zone Bun knows plus the names in the system's tzdata (the
// aliases), for case-insensitive lookup and their names.
const ZONES = [...new Set(Intl.supportedValuesOf('timeZone').concat(['UTC']))]
const allZones = new Set(ZONES)
function walk(dir, prefix) {
  for (const f of readdirSync(dir)) {
    if (!/^[A-Z]/.test(f)) continue // posix/, right/, zone.tab and the like
    const p = join(dir, f)
    if (statSync(p).isDirectory()) walk(p, prefix + f + '/')
    else {
      try { allZones.add(new Intl.DateTimeFormat('en', { timeZone: prefix + f }).resolvedOptions().timeZone) } catch {}
    }
  }
}
walk('/usr/share/zoneinfo', '')

// ZONE_GROUPS: the zones of ZONES by their long names in en.
const ZONE_GROUPS = (() => {
  const by = new Map()
  for (const tz of ZONES) {
    const k = JSON.stringify(seasons(tz).map((t) => zoneName('en', tz, 'long', t)))
    if (!by.has(k)) by.set(k, [])
    by.get(k).push(tz)
  }
  return [...by.values()]
})()

const REGIONS = []
{
  const cands = []
  for (let a = 65; a < 91; a++) for (let b = 65; b < 91; b++) cands.push(String.fromCharCode(a, b))
  for (let n = 1; n < 1000; n++) cands.push(String(n).padStart(3, '0'))
  for (const c of cands) if (new Intl.DisplayNames('en', { type: 'region', fallback: 'none' }).of(c)) REGIONS.push(c)
}
const LANGUAGES = [...new Set(LOCALES.map((x) => x.split('-')[0]).concat(LOCALES))]
const SCRIPTS = 'Latn Cyrl Arab Hans Hant Jpan Kore Grek Hebr Deva Thai Beng Taml'.split(' ')

// displayNames: the names of REGIONS, LANGUAGES, CURRENCIES and SCRIPTS,
// in their order (null: ICU has none).
function displayNames(loc) {
  const of = (type, codes) => {
    const dn = new Intl.DisplayNames(loc, { type, fallback: 'none' })
    return codes.map((c) => dn.of(c) ?? null)
  }
  return { region: of('region', REGIONS), language: of('language', LANGUAGES), currency: of('currency', CURRENCIES), script: of('script', SCRIPTS) }
}

// GEN_UPDATE=1 keeps the recorded locales, records those of GEN_LOCALES
// (none if unset) and redoes the aliases.
const dir = new URL('./data/', import.meta.url).pathname
const update = Boolean(process.env.GEN_UPDATE)
const out = update
  ? readData()
  : { version: Bun.version, numberingSystems, zones: [...allZones].sort(), zoneGroups: ZONE_GROUPS, currencies: CURRENCIES, regions: REGIONS, languages: LANGUAGES, scripts: SCRIPTS, locales: {} }
for (const loc of process.env.GEN_LOCALES ? process.env.GEN_LOCALES.split(' ') : update ? [] : LOCALES) {
  const resolved = new Intl.NumberFormat(loc).resolvedOptions().locale
  if (resolved !== loc) throw new Error(`${loc} resolves to ${resolved}`)
  const num = numbers(loc)
  const cats = samples(loc)
  const ord = new Intl.PluralRules(loc, { type: 'ordinal' }).resolvedOptions().pluralCategories
  // A part gen.js cannot read for this locale is left out (logged):
  // package intl refuses what it has no data for.
  const part = (name, f) => {
    try {
      return f()
    } catch (e) {
      process.stderr.write(`(${name} left out: ${e.message}) `)
      return undefined
    }
  }
  out.locales[loc] = {
    num, plural: new Intl.PluralRules(loc).resolvedOptions().pluralCategories, ordinal: ord,
    rtf: part('rtf', () => relative(loc, cats)), list: part('list', () => lists(loc)), dtf: part('dtf', () => dates(loc, num)), names: part('names', () => displayNames(loc)),
  }
  process.stderr.write(loc + ' ')
}
// aliases: the locales ICU has beyond LOCALES (ru-RU, fr-LU...) that
// format as one of LOCALES does, by that one's name: package intl names
// them as Bun does and formats with the data they alias.
const fingerprint = (loc) => JSON.stringify([
  new Intl.NumberFormat(loc).format(-1234567.891), new Intl.NumberFormat(loc, { style: 'currency', currency: 'EUR' }).format(-1234.5),
  new Intl.NumberFormat(loc, { style: 'currency', currency: 'USD', currencySign: 'accounting' }).format(-1234567.891),
  new Intl.NumberFormat(loc, { style: 'currency', currency: 'USD', currencyDisplay: 'name' }).format(-1234567.891),
  new Intl.NumberFormat(loc, { style: 'currency', currency: 'JPY', currencyDisplay: 'code' }).format(1234.5),
  new Intl.NumberFormat(loc, { notation: 'compact', compactDisplay: 'long' }).format(-2500), new Intl.NumberFormat(loc, { style: 'percent', signDisplay: 'always' }).format(0.5),
  new Intl.NumberFormat(loc, { style: 'unit', unit: 'hour', unitDisplay: 'long' }).format(1.5), new Intl.NumberFormat(loc, { notation: 'scientific' }).format(-1234),
  new Intl.NumberFormat(loc, { style: 'currency', currency: 'USD' }).format(1234.5), new Intl.NumberFormat(loc, { style: 'percent' }).format(0.5),
  new Intl.NumberFormat(loc, { notation: 'compact' }).format(1234567), new Intl.NumberFormat(loc, { style: 'unit', unit: 'kilobyte' }).format(2),
  new Intl.DateTimeFormat(loc, { dateStyle: 'full', timeStyle: 'full', timeZone: 'America/New_York' }).format(SAMPLE),
  new Intl.DateTimeFormat(loc, { timeZone: 'UTC' }).format(SAMPLE), new Intl.DateTimeFormat(loc, { hour: 'numeric', minute: 'numeric', timeZone: 'UTC' }).format(SAMPLE),
  new Intl.DateTimeFormat(loc, { month: 'short', day: 'numeric', weekday: 'short', timeZone: 'UTC' }).format(SAMPLE),
  new Date(SAMPLE).toLocaleString(loc, { timeZone: 'Europe/Berlin', timeZoneName: 'short' }),
  new Intl.RelativeTimeFormat(loc, { numeric: 'auto' }).format(-1, 'day'), new Intl.ListFormat(loc).format(['a', 'b', 'c']),
  new Intl.PluralRules(loc).resolvedOptions().pluralCategories, new Intl.DisplayNames(loc, { type: 'region' }).of('DE'),
])
const done = new Set(Object.keys(out.locales))
const prints = new Map()
for (const l of done) prints.set(l, fingerprint(l))
out.aliases = {}
for (const lang of new Set([...done].map((l) => l.split('-')[0]))) {
  for (const r of REGIONS) {
    const cand = lang + '-' + r
    if (done.has(cand)) continue
    let resolved
    try { resolved = new Intl.NumberFormat(cand).resolvedOptions().locale } catch { continue }
    if (resolved !== cand) continue
    const fp = fingerprint(cand)
    const same = [...done].filter((l) => l.split('-')[0] === lang && prints.get(l) === fp).sort((a, b) => a.length - b.length)[0]
    if (same) out.aliases[cand] = same
  }
}
process.stderr.write(`\n${Object.keys(out.aliases).length} aliases\n`)
writeData(out)

// The data is one file of what all locales share (common.json.br: the
// lists, the aliases, and each regional locale's base) and one a locale
// (locales/<name>.json.br), each brotli'd on its own so that a runtime
// decodes only the locales it uses. A regional locale (de-AT) is a JSON
// merge patch (RFC 7386) on its language's (de).
function writeData(out) {
  const pack = (v) => {
    const json = JSON.stringify(v)
    return brotliCompressSync(json, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: json.length } })
  }
  const { locales, ...common } = out
  common.bases = {}
  let total = 0
  const files = {}
  for (const [name, l] of Object.entries(locales)) {
    const base = name.split('-')[0]
    const patch = base !== name && locales[base] ? diff(locales[base], l) : undefined
    if (patch !== undefined) common.bases[name] = base
    files[`locales/${name}.json.br`] = pack(patch ?? l)
    total += files[`locales/${name}.json.br`].length
  }
  const c = pack(common)
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir + 'locales', { recursive: true })
  for (const [f, b] of Object.entries(files)) writeFileSync(dir + f, b)
  writeFileSync(dir + 'common.json.br', c)
  console.log(`\n${dir}: ${Object.keys(locales).length} locales, ${total + c.length} bytes compressed`)
}

function readData() {
  const read = (f) => JSON.parse(brotliDecompressSync(readFileSync(dir + f)))
  const common = read('common.json.br')
  const locales = {}
  for (const f of readdirSync(dir + 'locales')) locales[f.replace(/\.json\.br$/, '')] = read('locales/' + f)
  for (const [name, base] of Object.entries(common.bases)) locales[name] = apply(locales[base], locales[name])
  delete common.bases
  return { ...common, locales }
}

function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v) }

// diff is the merge patch that makes b of a (null deletes a key).
function diff(a, b) {
  if (!isObject(a) || !isObject(b)) return JSON.stringify(a) === JSON.stringify(b) ? undefined : b
  const out = {}
  for (const k of Object.keys(a)) if (b[k] === undefined) out[k] = null
  for (const [k, v] of Object.entries(b)) {
    if (v === undefined) continue
    const d = k in a ? diff(a[k], v) : v
    if (d !== undefined) out[k] = d
  }
  return Object.keys(out).length ? out : undefined
}

function apply(a, patch) {
  if (!isObject(patch)) return patch
  const out = isObject(a) ? { ...a } : {}
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k]
    else out[k] = apply(out[k], v)
  }
  return out
}
