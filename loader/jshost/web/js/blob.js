// Blob, File and FormData, and the multipart/form-data body of a FormData
// (both ways). Run once per runtime, when a module first uses one of them,
// with the native bindings (n) and js/web.js's helpers (h); it returns the
// classes and the body functions js/web.js's Body uses.
(function (g, n, h) {
  'use strict'
  const { def, bytes, concat } = h

  // blobType is a Blob's type as Bun makes it: the few types Bun knows
  // get their canonical form (text/plain;charset=utf-8), anything else is
  // lowercased, and a type with a character outside U+0020-U+007E is ''.
  const canonical = {
    'text/plain': 'text/plain;charset=utf-8', 'text/html': 'text/html;charset=utf-8', 'text/css': 'text/css;charset=utf-8',
    'text/javascript': 'text/javascript;charset=utf-8', 'application/javascript': 'text/javascript;charset=utf-8',
    'application/json': 'application/json;charset=utf-8',
    'application/x-www-form-urlencoded': 'application/x-www-form-urlencoded;charset=UTF-8',
  }
  function blobType(t) {
    if (t === undefined) return ''
    t = String(t)
    if (Object.prototype.hasOwnProperty.call(canonical, t)) return canonical[t]
    return /^[\x20-\x7e]*$/.test(t) ? t.toLowerCase() : ''
  }

  class Blob {
    constructor(parts, options) {
      if (parts === undefined) parts = []
      if (parts === null || typeof parts !== 'object' || typeof parts[Symbol.iterator] !== 'function') {
        throw new TypeError("Failed to construct 'Blob': The provided value cannot be converted to a sequence.")
      }
      const list = []
      let total = 0
      for (const p of parts) {
        // Bytes are copied: the Blob must not change with the buffer it was made of.
        const b = p instanceof Blob ? p._bytes : (p instanceof ArrayBuffer || ArrayBuffer.isView(p)) ? bytes(p).slice() : n.encode(String(p))
        list.push(b)
        total += b.length
      }
      def(this, '_bytes', list.length === 0 ? new Uint8Array(0) : concat(list, total))
      def(this, '_type', blobType(options && options.type))
    }
    get size() { return this._bytes.length }
    get type() { return this._type }
    slice(start, end, type) {
      const size = this._bytes.length
      const rel = (v, d) => { if (v === undefined) return d; v = Math.trunc(Number(v)) || 0; return v < 0 ? Math.max(size + v, 0) : Math.min(v, size) }
      const from = rel(start, 0), to = rel(end, size)
      const b = new Blob([], { type })
      b._bytes = this._bytes.subarray(from, Math.max(from, to)) // shared: a Blob's bytes never change
      return b
    }
    text() { return Promise.resolve(n.decode(this._bytes, false)) }
    arrayBuffer() { return Promise.resolve(this._bytes.slice().buffer) }
    bytes() { return Promise.resolve(this._bytes.slice()) }
    stream() { return h.bytesStream(this._bytes) }
    get [Symbol.toStringTag]() { return 'Blob' }
  }

  class File extends Blob {
    constructor(bits, name, options) {
      if (arguments.length < 2) throw new TypeError("Failed to construct 'File': 2 arguments required, but only " + arguments.length + ' present.')
      super(bits, options)
      def(this, '_name', String(name))
      const lm = options && options.lastModified
      def(this, '_lastModified', lm === undefined ? Date.now() : Math.trunc(Number(lm)) || 0)
    }
    get name() { return this._name }
    get lastModified() { return this._lastModified }
    get webkitRelativePath() { return '' }
    get [Symbol.toStringTag]() { return 'File' }
  }

  // entry is a FormData entry's value: a string, or a File (a Blob becomes
  // one named 'blob', or filename).
  function entry(value, filename) {
    if (!(value instanceof Blob)) return String(value)
    if (value instanceof File && filename === undefined) return value
    const name = filename !== undefined ? String(filename) : value instanceof File ? value.name : 'blob'
    const f = new File([], name, { type: value.type, lastModified: value instanceof File ? value.lastModified : undefined })
    f._bytes = value._bytes
    return f
  }

  class FormData {
    constructor(form) {
      if (form !== undefined) throw new TypeError("Failed to construct 'FormData': a form element is not supported here (there is no DOM): append the fields instead")
      def(this, '_list', [])
    }
    append(name, value, filename) { this._list.push([String(name), entry(value, filename)]) }
    set(name, value, filename) {
      name = String(name)
      const e = [name, entry(value, filename)]
      const i = this._list.findIndex((x) => x[0] === name)
      if (i < 0) { this._list.push(e); return }
      this._list[i] = e
      for (let j = this._list.length - 1; j > i; j--) if (this._list[j][0] === name) this._list.splice(j, 1)
    }
    get(name) { name = String(name); const e = this._list.find((x) => x[0] === name); return e ? e[1] : null }
    getAll(name) { name = String(name); return this._list.filter((x) => x[0] === name).map((x) => x[1]) }
    has(name) { name = String(name); return this._list.some((x) => x[0] === name) }
    delete(name) { name = String(name); this._list = this._list.filter((x) => x[0] !== name) }
    forEach(fn, self) { for (const [k, v] of this._list.slice()) fn.call(self, v, k, this) }
    *entries() { for (const e of this._list.slice()) yield [e[0], e[1]] }
    *keys() { for (const e of this._list.slice()) yield e[0] }
    *values() { for (const e of this._list.slice()) yield e[1] }
    [Symbol.iterator]() { return this.entries() }
    get [Symbol.toStringTag]() { return 'FormData' }
  }

  // multipart is the multipart/form-data body of fd as Bun sends it: its
  // bytes and its content type, with a WebKit-style boundary.
  function multipart(fd) {
    let boundary = '----WebKitFormBoundary'
    for (let i = 0; i < 32; i++) boundary += '0123456789abcdef'[Math.floor(Math.random() * 16)]
    const esc = (s) => s.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22')
    const list = []
    let total = 0
    const push = (b) => { list.push(b); total += b.length }
    for (const [name, value] of fd._list) {
      let head = '--' + boundary + '\r\nContent-Disposition: form-data; name="' + esc(name) + '"'
      if (value instanceof File) {
        head += '; filename="' + esc(value.name) + '"\r\nContent-Type: ' + (value.type || 'application/octet-stream') + '\r\n\r\n'
        push(n.encode(head)); push(value._bytes); push(n.encode('\r\n'))
      } else {
        push(n.encode(head + '\r\n\r\n' + value + '\r\n'))
      }
    }
    push(n.encode('--' + boundary + '--\r\n'))
    return [concat(list, total), 'multipart/form-data; boundary=' + boundary]
  }

  // parseForm is Body.formData(): a urlencoded or multipart/form-data body.
  function parseForm(b, contentType) {
    const fd = new FormData()
    const type = String(contentType || '').split(';')[0].trim().toLowerCase()
    if (type === 'application/x-www-form-urlencoded') {
      for (const [k, v] of new g.URLSearchParams(n.decode(b, false))) fd.append(k, v)
      return fd
    }
    if (type === 'multipart/form-data') {
      for (const [name, value, filename, ftype] of n.multipart(b, String(contentType))) {
        if (filename === null) fd.append(name, value)
        else fd.append(name, new File([value], filename, { type: ftype }))
      }
      return fd
    }
    throw new TypeError('Could not parse content as FormData: the content type is ' + (type ? "'" + type + "'" : 'missing') + ', not multipart/form-data or application/x-www-form-urlencoded')
  }

  return { Blob, File, FormData, blobType, multipart, parseForm }
})
