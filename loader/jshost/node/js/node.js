// node: modules written in JS over the Go bindings (n). Returns a map from
// module name to a factory; the host calls a factory on first require.
(function (g, n) {
  'use strict'

  function events() {
    class EventEmitter {
      constructor() { this._events = new Map(); this._max = 10 }
      _list(name) { if (!this._events) this._events = new Map(); let l = this._events.get(name); if (!l) { l = []; this._events.set(name, l) } return l }
      on(name, fn) { this.emit('newListener', name, fn); this._list(name).push({ fn, once: false }); return this }
      addListener(name, fn) { return this.on(name, fn) }
      prependListener(name, fn) { this._list(name).unshift({ fn, once: false }); return this }
      once(name, fn) { this._list(name).push({ fn, once: true }); return this }
      prependOnceListener(name, fn) { this._list(name).unshift({ fn, once: true }); return this }
      off(name, fn) {
        const l = this._list(name)
        const i = l.findIndex((x) => x.fn === fn)
        if (i >= 0) { l.splice(i, 1); this.emit('removeListener', name, fn) }
        return this
      }
      removeListener(name, fn) { return this.off(name, fn) }
      removeAllListeners(name) { if (name === undefined) this._events = new Map(); else this._events.delete(name); return this }
      emit(name, ...args) {
        const l = this._events && this._events.get(name)
        if (!l || l.length === 0) {
          if (name === 'error') throw args[0] instanceof Error ? args[0] : new Error('Unhandled error. (' + String(args[0]) + ')')
          return false
        }
        for (const x of l.slice()) {
          if (x.once) { const i = l.indexOf(x); if (i >= 0) l.splice(i, 1) }
          x.fn.apply(this, args)
        }
        return true
      }
      listeners(name) { return this._list(name).map((x) => x.fn) }
      rawListeners(name) { return this.listeners(name) }
      listenerCount(name) { return this._list(name).length }
      eventNames() { return [...(this._events || new Map()).keys()].filter((k) => this._events.get(k).length > 0) }
      setMaxListeners(k) { this._max = k; return this }
      getMaxListeners() { return this._max }
    }
    EventEmitter.defaultMaxListeners = 10
    EventEmitter.EventEmitter = EventEmitter
    EventEmitter.once = (emitter, name) => new Promise((resolve, reject) => {
      const onErr = (e) => { emitter.off(name, ok); reject(e) }
      const ok = (...a) => { if (name !== 'error') emitter.off('error', onErr); resolve(a) }
      emitter.once(name, ok)
      if (name !== 'error') emitter.once('error', onErr)
    })
    EventEmitter.on = undefined
    EventEmitter.default = EventEmitter
    return EventEmitter
  }

  function util() {
    const inspect = (v, opts) => n.inspect(v, !!(opts && opts.depth === null))
    const promisify = (fn) => {
      if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function')
      return function (...args) {
        return new Promise((resolve, reject) => fn.call(this, ...args, (err, ...vals) => (err ? reject(err) : resolve(vals.length > 1 ? vals : vals[0]))))
      }
    }
    const callbackify = (fn) => function (...args) {
      const cb = args.pop()
      fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e))
    }
    const isDeepStrictEqual = (a, b) => {
      if (Object.is(a, b)) return true
      if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
      if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
      const ka = Object.keys(a), kb = Object.keys(b)
      return ka.length === kb.length && ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && isDeepStrictEqual(a[k], b[k]))
    }
    const types = {
      isDate: (v) => v instanceof Date, isRegExp: (v) => v instanceof RegExp, isPromise: (v) => v instanceof Promise,
      isMap: (v) => v instanceof Map, isSet: (v) => v instanceof Set, isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
      isUint8Array: (v) => v instanceof Uint8Array, isArrayBuffer: (v) => v instanceof ArrayBuffer, isNativeError: (v) => v instanceof Error,
    }
    const inherits = (ctor, superCtor) => { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); ctor.super_ = superCtor }
    const deprecate = (fn) => fn
    const m = { format: n.format, inspect, promisify, callbackify, isDeepStrictEqual, types, inherits, deprecate,
      TextEncoder: g.TextEncoder, TextDecoder: g.TextDecoder, isArray: Array.isArray }
    m.default = m
    return m
  }

  // fs/promises runs the synchronous Go calls and settles a promise with
  // the result, so errors arrive as rejections as in Node.
  function fsPromises(fs) {
    const p = {}
    for (const k of ['readFile', 'writeFile', 'appendFile', 'mkdir', 'readdir', 'stat', 'lstat', 'rm', 'rmdir', 'rename', 'unlink', 'copyFile', 'access', 'realpath', 'mkdtemp', 'utimes', 'chmod', 'truncate', 'symlink', 'readlink']) {
      const f = fs[k + 'Sync']
      p[k] = (...a) => new Promise((resolve) => resolve(f(...a)))
    }
    p.constants = fs.constants
    p.default = p
    return p
  }

  function fsCallbacks(fs) {
    for (const k of Object.keys(fs)) {
      if (!k.endsWith('Sync')) continue
      const f = fs[k], name = k.slice(0, -4)
      fs[name] = (...a) => {
        const cb = typeof a[a.length - 1] === 'function' ? a.pop() : null
        let r, e = null
        try { r = f(...a) } catch (err) { e = err }
        if (cb) Promise.resolve().then(() => (name === 'exists' ? cb(!e && r) : cb(e, r)))
      }
    }
    fs.default = fs
    return fs
  }

  return { events, util, fsPromises, fsCallbacks }
})
