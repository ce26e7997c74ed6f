// ES2024 built-ins goja lacks, as the spec defines them; run once in
// every runtime before any module.
(function () {
  'use strict'
  const define = (o, name, value) => { if (!(name in o)) Object.defineProperty(o, name, { value, writable: true, configurable: true, enumerable: false }) }
  const group = (items, cb, key) => {
    if (items === null || items === undefined) throw new TypeError('groupBy called on null or undefined')
    if (typeof cb !== 'function') throw new TypeError(String(cb) + ' is not a function')
    const groups = new Map()
    let i = 0
    for (const v of items) {
      const k = key(cb(v, i++))
      const list = groups.get(k)
      if (list) list.push(v); else groups.set(k, [v])
    }
    return groups
  }
  define(Object, 'groupBy', function groupBy(items, cb) {
    const out = Object.create(null)
    for (const [k, v] of group(items, cb, (k) => (typeof k === 'symbol' ? k : String(k)))) out[k] = v
    return out
  })
  define(Map, 'groupBy', function groupBy(items, cb) {
    return group(items, cb, (k) => (Object.is(k, -0) ? 0 : k))
  })
  define(Promise, 'withResolvers', function withResolvers() {
    let resolve, reject
    const promise = new this((res, rej) => { resolve = res; reject = rej })
    return { promise, resolve, reject }
  })
})
