// The Bun global written in JS over the Go bindings (n): BunFile, write,
// Glob, sleep, deepEquals. Returns the Bun object; the host answers it as
// the global and as require("bun").
(function (g, n) {
  'use strict'

  const kPath = Symbol('path')
  // goja has no Symbol.asyncIterator; esbuild's lowered for-await looks
  // for this one then.
  const asyncIterator = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')

  // pathOf is a path argument: a string, a file: URL, or a BunFile.
  function pathOf(p) {
    if (p instanceof BunFile) return p[kPath]
    if (typeof p === 'string') return p
    if (p && typeof p === 'object' && typeof p.href === 'string') {
      if (p.protocol !== 'file:') throw new TypeError('Bun.file: only file: URLs are files, got ' + p.href)
      return decodeURIComponent(p.pathname)
    }
    if (typeof p === 'number') throw new TypeError('Bun.file(fd): file descriptors are not supported in beeuni; pass a path')
    throw new TypeError('Bun.file expects a path (string or file: URL)')
  }

  // settle runs f now and answers a promise of its result (a thrown error
  // rejects it), as Bun's async file methods do.
  function settle(f) {
    try { return Promise.resolve(f()) } catch (e) { return Promise.reject(e) }
  }

  class BunFile {
    constructor(path, start, end, type) {
      this[kPath] = path
      this._start = start || 0
      this._end = end // undefined: to the end of the file
      this._type = type
    }
    get name() { return this[kPath] }
    get size() {
      const s = n.size(this[kPath])
      const end = this._end === undefined ? s : Math.min(this._end, s)
      return Math.max(0, end - Math.min(this._start, s))
    }
    get type() { return this._type !== undefined ? this._type : n.mime(this[kPath]) }
    get lastModified() { return n.mtime(this[kPath]) }
    _read() { return settle(() => n.read(this[kPath], this._start, this._end === undefined ? -1 : this._end)) }
    bytes() { return this._read() }
    arrayBuffer() { return this._read().then((u) => u.buffer) }
    text() { return this._read().then((u) => n.utf8(u)) }
    json() { return this.text().then((s) => JSON.parse(s)) }
    exists() { return settle(() => n.exists(this[kPath])) }
    slice(a, b, type) {
      const base = this._start
      // A negative offset counts from the end: the file's size then.
      const open = this._end === undefined && ((a !== undefined && a < 0) || (b !== undefined && b < 0))
      const end = this._end === undefined ? (open ? base + this.size : undefined) : this._end
      const len = end === undefined ? Infinity : end - base
      const clamp = (x, d) => {
        if (x === undefined) return d
        x = Math.trunc(Number(x)) || 0
        if (x < 0) x = len === Infinity ? 0 : Math.max(len + x, 0)
        return Math.min(x, len)
      }
      const s = clamp(a, 0)
      const e = clamp(b, len)
      return new BunFile(this[kPath], base + s, e === Infinity ? undefined : base + Math.max(e, s), type !== undefined ? String(type) : this._type)
    }
    write(data) { return write(this, data) }
    stream() { throw new TypeError('BunFile.stream() is not supported in beeuni: use text(), bytes() or arrayBuffer()') }
    writer() { throw new TypeError('BunFile.writer() is not supported in beeuni: use Bun.write') }
    get [Symbol.toStringTag]() { return 'BunFile' }
  }

  function file(p, opts) {
    const type = opts && opts.type !== undefined ? String(opts.type) : undefined
    return new BunFile(pathOf(p), 0, undefined, type)
  }

  // toBytes is what Bun.write writes for data: a string, bytes, or a
  // promise of bytes (BunFile, Response, Blob).
  function toBytes(data) {
    if (typeof data === 'string') return data
    if (data instanceof BunFile) return data._read()
    if (data instanceof ArrayBuffer) return new Uint8Array(data)
    if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
    if (data && typeof data.arrayBuffer === 'function') return Promise.resolve(data.arrayBuffer()).then((b) => new Uint8Array(b))
    if (data === null || data === undefined) throw new TypeError('Bun.write: data must be a string, bytes, a Blob, a BunFile or a Response')
    return String(data)
  }

  function write(dest, data) {
    return settle(() => {
      const p = pathOf(dest)
      return Promise.resolve(toBytes(data)).then((b) => n.write(p, b))
    })
  }

  function sleep(ms) {
    if (ms instanceof Date) ms = ms.getTime() - Date.now()
    return new Promise((resolve) => n.timer(resolve, Number(ms) || 0))
  }

  class Glob {
    constructor(pattern) {
      if (typeof pattern !== 'string') throw new TypeError('Glob expects a pattern string')
      this._pattern = pattern
    }
    match(path) { return n.globMatch(this._pattern, String(path)) }
    _opts(o) {
      if (typeof o === 'string') o = { cwd: o }
      o = o || {}
      return { cwd: o.cwd === undefined ? '' : String(o.cwd), dot: !!o.dot, absolute: !!o.absolute, onlyFiles: o.onlyFiles === undefined ? true : !!o.onlyFiles }
    }
    scanSync(o) { return n.globScanSync(this._pattern, this._opts(o))[Symbol.iterator]() }
    scan(o) {
      let list = null
      let i = 0
      const start = () => settle(() => n.globScan(this._pattern, this._opts(o)))
      let pending = null
      const it = {
        next() {
          if (list) return Promise.resolve(i < list.length ? { value: list[i++], done: false } : { value: undefined, done: true })
          if (!pending) pending = start().then((l) => { list = l })
          return pending.then(() => it.next())
        },
        return(v) { list = []; return Promise.resolve({ value: v, done: true }) },
        [asyncIterator]() { return it },
      }
      return it
    }
  }

  function deepEquals(a, b, strict) {
    const seen = []
    function eq(x, y) {
      if (Object.is(x, y)) return true
      if (x === y) return true // +0 and -0
      if (typeof x !== 'object' || typeof y !== 'object' || x === null || y === null) return false
      if (Object.getPrototypeOf(x) !== Object.getPrototypeOf(y)) {
        if (strict || Array.isArray(x) !== Array.isArray(y)) return false
      }
      for (const [p, q] of seen) if (p === x && q === y) return true
      seen.push([x, y])
      if (x instanceof Date) return y instanceof Date && x.getTime() === y.getTime()
      if (x instanceof RegExp) return y instanceof RegExp && String(x) === String(y)
      if (ArrayBuffer.isView(x)) {
        if (!ArrayBuffer.isView(y) || x.byteLength !== y.byteLength) return false
        const u = new Uint8Array(x.buffer, x.byteOffset, x.byteLength)
        const v = new Uint8Array(y.buffer, y.byteOffset, y.byteLength)
        for (let k = 0; k < u.length; k++) if (u[k] !== v[k]) return false
        return true
      }
      if (x instanceof Map) {
        if (!(y instanceof Map) || x.size !== y.size) return false
        for (const [k, v] of x) if (!y.has(k) || !eq(v, y.get(k))) return false
        return true
      }
      if (x instanceof Set) {
        if (!(y instanceof Set) || x.size !== y.size) return false
        for (const k of x) if (!y.has(k)) return false
        return true
      }
      // Not strict: properties whose value is undefined count as absent.
      const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined)
      const kx = keys(x)
      const ky = keys(y)
      if (kx.length !== ky.length) return false
      if (Array.isArray(x) && x.length !== y.length) return false
      for (const k of kx) {
        if (!Object.prototype.hasOwnProperty.call(y, k)) return false
        if (!eq(x[k], y[k])) return false
      }
      return true
    }
    return eq(a, b)
  }

  const Bun = {
    version: n.version,
    revision: n.revision,
    get main() { return n.main },
    env: n.env,
    sleep,
    sleepSync: n.sleepSync,
    nanoseconds: n.nanoseconds,
    inspect: n.inspect,
    deepEquals,
    escapeHTML: n.escapeHTML,
    stringWidth: n.stringWidth,
    file,
    write,
    Glob,
    spawn: n.spawn,
    spawnSync: n.spawnSync,
    $: n.$,
  }
  Object.defineProperty(Bun, Symbol.toStringTag, { value: 'Bun' })
  return Bun
})
