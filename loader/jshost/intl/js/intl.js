// The Intl classes over package intl's Go bindings (native): each
// instance holds one Go formatter in slots. Returns Intl and the
// helpers of the builtins' locale methods.
(function (native) {
  'use strict'
  const slots = new WeakMap()

  function slot(o, cls, method) {
    const s = o !== null && typeof o === 'object' ? slots.get(o) : undefined
    if (s === undefined || s.cls !== cls) throw new TypeError(`${method} called on value that's not a${/^[AEIOU]/.test(cls) ? 'n' : ''} ${cls}`)
    return s.h
  }

  function define(o, props) {
    for (const k of Reflect.ownKeys(props)) {
      const d = Object.getOwnPropertyDescriptor(props, k)
      d.enumerable = false
      if ('value' in d) d.writable = true
      Object.defineProperty(o, k, d)
    }
  }

  // makeClass is an Intl constructor: callable without new (as the
  // legacy NumberFormat and DateTimeFormat are) when callable is set.
  function makeClass(name, make, proto, callable) {
    const C = {
      [name]: function (locales, options) {
        if (new.target === undefined && !callable) throw new TypeError(`calling ${name} constructor without new is invalid`)
        const self = new.target === undefined ? Object.create(C.prototype) : this
        slots.set(self, { cls: name, h: make(locales, options) })
        return self
      },
    }[name]
    define(C.prototype, proto)
    Object.defineProperty(C.prototype, Symbol.toStringTag, { value: 'Intl.' + name, configurable: true })
    define(C, {
      supportedLocalesOf(locales, options) { return native.supportedLocalesOf(locales, options) },
    })
    Object.defineProperty(C, 'prototype', { writable: false, enumerable: false, configurable: false })
    return C
  }

  // bound is a getter answering one function bound to the instance (as
  // format and compare are), made on first read.
  function bound(cls, name, call) {
    const cache = new WeakMap()
    return {
      get() {
        const h = slot(this, cls, `Intl.${cls}.prototype.${name}`)
        let f = cache.get(this)
        if (f === undefined) {
          f = { [name]: (...args) => call(h, ...args) }[name]
          Object.defineProperty(f, 'name', { value: '' })
          cache.set(this, f)
        }
        return f
      },
      enumerable: false,
      configurable: true,
    }
  }

  function unsupported(what) {
    return function () { throw new RangeError(`${what} is not supported by beeuni's Intl`) }
  }

  const NumberFormat = makeClass('NumberFormat', native.numberFormat, {
    formatToParts(v) { return slot(this, 'NumberFormat', 'Intl.NumberFormat.prototype.formatToParts').parts(v) },
    resolvedOptions() { return slot(this, 'NumberFormat', 'Intl.NumberFormat.prototype.resolvedOptions').resolved() },
    formatRange: unsupported('Intl.NumberFormat.prototype.formatRange'),
    formatRangeToParts: unsupported('Intl.NumberFormat.prototype.formatRangeToParts'),
  }, true)
  Object.defineProperty(NumberFormat.prototype, 'format', bound('NumberFormat', 'format', (h, v) => h.format(v)))

  const DateTimeFormat = makeClass('DateTimeFormat', (l, o) => native.dateTimeFormat(l, o, 'any', 'date'), {
    formatToParts(d) { return slot(this, 'DateTimeFormat', 'Intl.DateTimeFormat.prototype.formatToParts').parts(d) },
    resolvedOptions() { return slot(this, 'DateTimeFormat', 'Intl.DateTimeFormat.prototype.resolvedOptions').resolved() },
    formatRange: unsupported('Intl.DateTimeFormat.prototype.formatRange'),
    formatRangeToParts: unsupported('Intl.DateTimeFormat.prototype.formatRangeToParts'),
  }, true)
  Object.defineProperty(DateTimeFormat.prototype, 'format', bound('DateTimeFormat', 'format', (h, d) => h.format(d)))

  const PluralRules = makeClass('PluralRules', native.pluralRules, {
    select(n) { return slot(this, 'PluralRules', 'Intl.PluralRules.prototype.select').select(n) },
    resolvedOptions() { return slot(this, 'PluralRules', 'Intl.PluralRules.prototype.resolvedOptions').resolved() },
    selectRange: unsupported('Intl.PluralRules.prototype.selectRange'),
  })

  const Collator = makeClass('Collator', native.collator, {
    resolvedOptions() { return slot(this, 'Collator', 'Intl.Collator.prototype.resolvedOptions').resolved() },
  }, true)
  Object.defineProperty(Collator.prototype, 'compare', bound('Collator', 'compare', (h, a, b) => h.compare(String(a), String(b))))

  const RelativeTimeFormat = makeClass('RelativeTimeFormat', native.relativeTimeFormat, {
    format(v, unit) { return slot(this, 'RelativeTimeFormat', 'Intl.RelativeTimeFormat.prototype.format').format(v, unit) },
    formatToParts(v, unit) { return slot(this, 'RelativeTimeFormat', 'Intl.RelativeTimeFormat.prototype.formatToParts').parts(v, unit) },
    resolvedOptions() { return slot(this, 'RelativeTimeFormat', 'Intl.RelativeTimeFormat.prototype.resolvedOptions').resolved() },
  })

  function strings(list) {
    const out = []
    if (list === undefined) return out
    for (const x of list) {
      if (typeof x !== 'string') throw new TypeError('Iterable passed to ListFormat includes non String')
      out.push(x)
    }
    return out
  }

  const ListFormat = makeClass('ListFormat', native.listFormat, {
    format(list) { return slot(this, 'ListFormat', 'Intl.ListFormat.prototype.format').format(strings(list)) },
    formatToParts(list) { return slot(this, 'ListFormat', 'Intl.ListFormat.prototype.formatToParts').parts(strings(list)) },
    resolvedOptions() { return slot(this, 'ListFormat', 'Intl.ListFormat.prototype.resolvedOptions').resolved() },
  })

  const DisplayNames = makeClass('DisplayNames', native.displayNames, {
    of(code) { return slot(this, 'DisplayNames', 'Intl.DisplayNames.prototype.of').of(code) },
    resolvedOptions() { return slot(this, 'DisplayNames', 'Intl.DisplayNames.prototype.resolvedOptions').resolved() },
  })

  // Segments: what Segmenter#segment answers, over the segment starts
  // the Go binding found (UTF-16 indices; the text is sliced here, so
  // lone surrogates stay as they were).
  function segmentData(input, found, i) {
    const { starts, wordLike } = found
    const o = { segment: input.slice(starts[i], starts[i + 1]), index: starts[i], input }
    if (wordLike !== undefined) o.isWordLike = wordLike[i]
    return o
  }
  const segmentsProto = {
    containing(index) {
      const { input, found } = slot(this, 'Segments', 'Segments.prototype.containing')
      let n = Math.trunc(Number(index)) || 0
      if (n < 0 || n >= input.length) return undefined
      let lo = 0, hi = found.starts.length - 2
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1
        if (found.starts[mid] <= n) lo = mid
        else hi = mid - 1
      }
      return segmentData(input, found, lo)
    },
    [Symbol.iterator]() {
      const { input, found } = slot(this, 'Segments', 'Segments.prototype[Symbol.iterator]')
      let i = 0
      return {
        next() {
          if (i >= found.starts.length - 1) return { value: undefined, done: true }
          return { value: segmentData(input, found, i++), done: false }
        },
        [Symbol.iterator]() { return this },
      }
    },
  }
  Object.defineProperty(segmentsProto, 'containing', { enumerable: false })
  const Segmenter = makeClass('Segmenter', native.segmenter, {
    segment(s) {
      const h = slot(this, 'Segmenter', 'Intl.Segmenter.prototype.segment')
      const input = String(s)
      const segs = Object.create(segmentsProto)
      slots.set(segs, { cls: 'Segments', h: { input, found: h.segment(input) } })
      return segs
    },
    resolvedOptions() { return slot(this, 'Segmenter', 'Intl.Segmenter.prototype.resolvedOptions').resolved() },
  })

  const localeGetters = {}
  for (const k of ['baseName', 'calendar', 'caseFirst', 'collation', 'hourCycle', 'numeric', 'numberingSystem', 'language', 'script', 'region']) {
    localeGetters[k] = { get() { return slot(this, 'Locale', `Intl.Locale.prototype.${k}`).get(k) }, enumerable: false, configurable: true }
  }
  const Locale = makeClass('Locale', (tag, options) => {
    if (typeof tag !== 'string' && (tag === null || typeof tag !== 'object')) throw new TypeError('First argument to Intl.Locale constructor can\'t be empty or missing')
    return native.locale(String(tag), options)
  }, {
    toString() { return slot(this, 'Locale', 'Intl.Locale.prototype.toString').get('toString') },
    maximize() { return new Locale(slot(this, 'Locale', 'Intl.Locale.prototype.maximize').get('maximize')) },
    minimize() { return new Locale(slot(this, 'Locale', 'Intl.Locale.prototype.minimize').get('minimize')) },
  })
  delete Locale.supportedLocalesOf
  Object.defineProperties(Locale.prototype, localeGetters)

  const Intl = {}
  define(Intl, {
    getCanonicalLocales(locales) { return native.getCanonicalLocales(locales) },
    supportedValuesOf(key) { return native.supportedValuesOf(String(key)) },
    Collator, DateTimeFormat, DisplayNames, ListFormat, Locale, NumberFormat, PluralRules, RelativeTimeFormat, Segmenter,
  })
  Object.defineProperty(Intl, Symbol.toStringTag, { value: 'Intl', configurable: true })

  function thisNumber(v, method) {
    if (typeof v === 'number') return v
    if (v instanceof Number) return Number.prototype.valueOf.call(v)
    throw new TypeError(`${method} requires that |this| be a Number`)
  }
  function thisDate(v, method) {
    if (!(v instanceof Date)) throw new TypeError(`${method} called on incompatible receiver`)
    return v
  }
  // cached keeps the formatters of the builtins' methods called without
  // options (sorting with localeCompare makes one collator, not one a
  // comparison).
  const cache = new Map()
  function cached(kind, locales, options, make) {
    if (options !== undefined || (locales !== undefined && typeof locales !== 'string')) return make()
    const k = kind + '\0' + (locales ?? '')
    let v = cache.get(k)
    if (v === undefined) {
      if (cache.size >= 64) cache.clear()
      v = make()
      cache.set(k, v)
    }
    return v
  }
  function dateString(d, locales, options, required, defaults) {
    const t = Date.prototype.getTime.call(d)
    if (t !== t) return 'Invalid Date'
    return cached(required + defaults, locales, options, () => native.dateTimeFormat(locales, options, required, defaults)).format(t)
  }
  return {
    Intl,
    numberToLocaleString(locales, options) {
      const n = thisNumber(this, 'Number.prototype.toLocaleString')
      return cached('n', locales, options, () => native.numberFormat(locales, options)).format(n)
    },
    bigintToLocaleString(locales, options) {
      if (typeof this !== 'bigint' && !(this instanceof BigInt)) throw new TypeError('BigInt.prototype.toLocaleString requires that |this| be a BigInt')
      const n = BigInt.prototype.valueOf.call(this)
      return cached('n', locales, options, () => native.numberFormat(locales, options)).format(n)
    },
    dateToLocaleString(locales, options) { return dateString(thisDate(this, 'Date.prototype.toLocaleString'), locales, options, 'any', 'all') },
    dateToLocaleDateString(locales, options) { return dateString(thisDate(this, 'Date.prototype.toLocaleDateString'), locales, options, 'date', 'date') },
    dateToLocaleTimeString(locales, options) { return dateString(thisDate(this, 'Date.prototype.toLocaleTimeString'), locales, options, 'time', 'time') },
    localeCompare(that, locales, options) {
      if (this === null || this === undefined) throw new TypeError('String.prototype.localeCompare requires that |this| not be null or undefined')
      const s = String(this)
      return cached('c', locales, options, () => native.collator(locales, options)).compare(s, String(that))
    },
    arrayToLocaleString(locales, options) {
      const a = Object(this)
      const n = Math.min(Math.max(Math.trunc(Number(a.length)) || 0, 0), Number.MAX_SAFE_INTEGER)
      let out = ''
      for (let i = 0; i < n; i++) {
        if (i > 0) out += ','
        const e = a[i]
        if (e !== undefined && e !== null) out += String(e.toLocaleString(locales, options))
      }
      return out
    },
  }
})
