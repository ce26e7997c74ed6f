// Web globals for tool modules: events, abort, fetch, structuredClone.
// Called once per runtime with the native bindings (n) written in Go; it
// returns get(name), the value of a global. Groups of classes are made on
// first use (the host installs most globals as accessors that call get),
// so a module that uses none pays for none.
(function (g, n) {
  'use strict'
  const def = (o, k, v) => Object.defineProperty(o, k, { value: v, writable: true, configurable: true, enumerable: false })
  const once = (make) => { let v; return () => v || (v = make()) }
  const BaseError = Error // as it was at set-up, even if a module replaces it before DOMException is made

  const events = once(() => {
    class Event {
      constructor(type, init) { this.type = String(type); this.defaultPrevented = false; this.cancelable = !!(init && init.cancelable); this.target = null; this.timeStamp = Date.now() }
      preventDefault() { if (this.cancelable) this.defaultPrevented = true }
      stopPropagation() {}
      stopImmediatePropagation() { this._stop = true }
    }
    class EventTarget {
      constructor() { def(this, '_listeners', new Map()) }
      addEventListener(type, fn, opts) {
        if (!fn) return
        if (!this._listeners) def(this, '_listeners', new Map())
        const once = typeof opts === 'object' && opts !== null && !!opts.once
        const list = this._listeners.get(type) || []
        if (list.some((l) => l.fn === fn)) return
        list.push({ fn, once })
        this._listeners.set(type, list)
        if (opts && opts.signal) opts.signal.addEventListener('abort', () => this.removeEventListener(type, fn))
      }
      removeEventListener(type, fn) {
        const list = this._listeners && this._listeners.get(type)
        if (list) this._listeners.set(type, list.filter((l) => l.fn !== fn))
      }
      dispatchEvent(ev) {
        if (ev.target === null) try { ev.target = this } catch (e) {}
        const handler = this['on' + ev.type]
        if (typeof handler === 'function') handler.call(this, ev)
        const list = (this._listeners && this._listeners.get(ev.type)) || []
        for (const l of list.slice()) {
          if (l.once) this.removeEventListener(ev.type, l.fn)
          if (typeof l.fn === 'function') l.fn.call(this, ev); else l.fn.handleEvent(ev)
          if (ev._stop) break
        }
        return !ev.defaultPrevented
      }
    }
    return { Event, EventTarget }
  })

  const domException = once(() => {
    class DOMException extends BaseError {
      constructor(message, name) { super(message); this.name = name || 'Error' }
      get code() { return { NotSupportedError: 9, SyntaxError: 12, InvalidAccessError: 15, TypeMismatchError: 17, AbortError: 20, QuotaExceededError: 22, TimeoutError: 23 }[this.name] || 0 }
    }
    return DOMException
  })

  const abort = once(() => {
    const { Event, EventTarget } = events()
    const DOMException = domException()
    class AbortSignal extends EventTarget {
      constructor(key) { if (key !== n) throw new TypeError('Illegal constructor'); super(); this.aborted = false; this.reason = undefined; this.onabort = null }
      throwIfAborted() { if (this.aborted) throw this.reason }
      static abort(reason) { const c = new AbortController(); c.abort(reason); return c.signal }
      static timeout(ms) {
        const c = new AbortController()
        g.setTimeout(() => c.abort(new DOMException('The operation was aborted due to timeout', 'TimeoutError')), ms)
        return c.signal
      }
      static any(signals) {
        const c = new AbortController()
        for (const s of signals) {
          if (s.aborted) { c.abort(s.reason); break }
          s.addEventListener('abort', () => c.abort(s.reason), { once: true })
        }
        return c.signal
      }
    }
    class AbortController {
      constructor() { this.signal = new AbortSignal(n) }
      abort(reason) {
        const s = this.signal
        if (s.aborted) return
        s.aborted = true
        s.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason
        s.dispatchEvent(new Event('abort'))
      }
    }
    return { AbortSignal, AbortController }
  })

  // bytes turns a body or buffer source into a Uint8Array (no copy when it is one).
  function bytes(v) {
    if (v instanceof Uint8Array) return v
    if (v instanceof ArrayBuffer) return new Uint8Array(v)
    if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer, v.byteOffset, v.byteLength)
    return n.encode(String(v))
  }

  function concat(list, total) {
    if (list.length === 1) return list[0]
    const out = new Uint8Array(total)
    let at = 0
    for (const b of list) { out.set(b, at); at += b.length }
    return out
  }

  // The streams (js/streams.js) and Blob, File and FormData (js/blob.js)
  // are made on first use: until then no body can be one of them.
  let streamsMod = null, blobsMod = null
  const streams = () => streamsMod || (streamsMod = makeStreams())
  const blobs = () => blobsMod || (blobsMod = n.blobs()(g, n, { def, bytes, concat, bytesStream }))
  const streamNames = new Set(['ReadableStream', 'ReadableStreamDefaultReader', 'ReadableStreamBYOBReader', 'ReadableStreamBYOBRequest',
    'ReadableByteStreamController', 'ReadableStreamDefaultController', 'TransformStream', 'TransformStreamDefaultController',
    'WritableStream', 'WritableStreamDefaultWriter', 'WritableStreamDefaultController', 'ByteLengthQueuingStrategy',
    'CountQueuingStrategy', 'TextEncoderStream', 'TextDecoderStream', 'readableFromSource'])

  function makeStreams() {
    const ws = n.streams()
    const { ReadableStream, TransformStream } = ws
    const { TextEncoder, TextDecoder } = text()
    class TextEncoderStream {
      constructor() {
        const enc = new TextEncoder()
        let lead = '' // a lead surrogate at the end of a chunk waits for the next
        def(this, '_t', new TransformStream({
          transform(chunk, c) {
            let s = lead + String(chunk)
            lead = ''
            const last = s.charCodeAt(s.length - 1)
            if (last >= 0xd800 && last < 0xdc00) { lead = s.slice(-1); s = s.slice(0, -1) }
            if (s !== '') c.enqueue(enc.encode(s))
          },
          flush(c) { if (lead !== '') c.enqueue(new Uint8Array([0xef, 0xbf, 0xbd])) },
        }))
      }
      get encoding() { return 'utf-8' }
      get readable() { return this._t.readable }
      get writable() { return this._t.writable }
      get [Symbol.toStringTag]() { return 'TextEncoderStream' }
    }
    class TextDecoderStream {
      constructor(label, options) {
        const dec = new TextDecoder(label, options)
        def(this, '_d', dec)
        def(this, '_t', new TransformStream({
          transform(chunk, c) {
            if (!(chunk instanceof ArrayBuffer || ArrayBuffer.isView(chunk))) throw new TypeError('The "input" argument must be an instance of ArrayBuffer or ArrayBufferView')
            const s = dec.decode(chunk, { stream: true })
            if (s !== '') c.enqueue(s)
          },
          flush(c) { const s = dec.decode(); if (s !== '') c.enqueue(s) },
        }))
      }
      get encoding() { return this._d.encoding }
      get fatal() { return this._d.fatal }
      get ignoreBOM() { return this._d.ignoreBOM }
      get readable() { return this._t.readable }
      get writable() { return this._t.writable }
      get [Symbol.toStringTag]() { return 'TextDecoderStream' }
    }
    // readableFromSource is the stream of a Go byte source (source.go):
    // each pull reads one chunk; fail makes the error of a failed read.
    function readableFromSource(src, fail) {
      return new ReadableStream({
        type: 'bytes',
        pull(c) {
          return new Promise((resolve, reject) => src.read(false, (err, buf) => {
            if (err) { reject(fail ? fail(err) : new TypeError(err)); return }
            if (buf === null) { c.close(); if (c.byobRequest) c.byobRequest.respond(0) } else c.enqueue(new Uint8Array(buf))
            resolve()
          }))
        },
        cancel() { src.cancel() },
      })
    }
    const out = { TextEncoderStream, TextDecoderStream, readableFromSource }
    for (const k of streamNames) if (!(k in out)) out[k] = ws[k]
    return out
  }

  // bytesStream is a stream of one chunk, a copy of b.
  function bytesStream(b) {
    return new (streams().ReadableStream)({ type: 'bytes', start(c) { if (b.length > 0) c.enqueue(b.slice()); c.close() } })
  }

  // drain reads a stream to its end: its chunks as one Uint8Array.
  function drain(stream) {
    const reader = stream.getReader(), list = []
    let total = 0
    const next = () => reader.read().then(({ done, value }) => {
      if (done) return list.length === 0 ? new Uint8Array(0) : concat(list, total)
      if (!(typeof value === 'string' || value instanceof ArrayBuffer || ArrayBuffer.isView(value))) throw new TypeError('Received non-Uint8Array chunk')
      const b = bytes(value)
      list.push(b)
      total += b.length
      return next()
    })
    return next()
  }

  class Headers {
    constructor(init) {
      def(this, '_m', new Map())
      if (init instanceof Headers) init.forEach((v, k) => this.append(k, v))
      else if (Array.isArray(init)) for (const [k, v] of init) this.append(k, v)
      else if (init && typeof init === 'object') for (const k of Object.keys(init)) this.append(k, init[k])
    }
    append(k, v) { k = String(k).toLowerCase(); v = String(v); const o = this._m.get(k); this._m.set(k, o === undefined ? v : o + ', ' + v) }
    set(k, v) { this._m.set(String(k).toLowerCase(), String(v)) }
    get(k) { const v = this._m.get(String(k).toLowerCase()); return v === undefined ? null : v }
    has(k) { return this._m.has(String(k).toLowerCase()) }
    delete(k) { this._m.delete(String(k).toLowerCase()) }
    forEach(fn, self) { for (const [k, v] of this.entries()) fn.call(self, v, k, this) }
    *entries() { yield* [...this._m.entries()].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) }
    *keys() { for (const [k] of this.entries()) yield k }
    *values() { for (const [, v] of this.entries()) yield v }
    [Symbol.iterator]() { return this.entries() }
    getSetCookie() { const v = this._m.get('set-cookie'); return v === undefined ? [] : v.split(', ') }
  }

  // Body holds bytes (_bytes, a Uint8Array), a stream (_stream), a
  // fetched body not yet read (_src, a Go byte source: text() reads it
  // whole in one go, body makes it a stream) or nothing; it reads once,
  // as fetch does. _fail makes the error of a failed read of _src.
  class Body {
    _init(body, headers) {
      def(this, '_used', false)
      def(this, '_stream', null)
      def(this, '_src', null)
      def(this, '_fail', null)
      def(this, '_bytes', null)
      if (body === undefined || body === null) return
      const type = (t) => { if (t && !headers.has('content-type')) headers.set('content-type', t) }
      if (typeof body === 'string') type('text/plain;charset=UTF-8')
      else if (body instanceof g.URLSearchParams) { type('application/x-www-form-urlencoded;charset=UTF-8'); body = body.toString() }
      else if (blobsMod && body instanceof blobsMod.Blob) { type(body.type); body = body._bytes }
      else if (blobsMod && body instanceof blobsMod.FormData) { const [b, t] = blobsMod.multipart(body); type(t); body = b }
      else if (typeof body === 'object' && typeof body.getReader === 'function') { this._stream = body; return }
      this._bytes = bytes(body)
    }
    get bodyUsed() { return this._used || (this._stream !== null && this._stream._disturbed === true) }
    get body() {
      if (this._stream === null) {
        if (this._src !== null) { this._stream = streams().readableFromSource(this._src, this._fail); this._src = null }
        else if (this._bytes !== null) this._stream = bytesStream(this._used ? new Uint8Array(0) : this._bytes)
      }
      return this._stream
    }
    _consume() {
      if (this.bodyUsed) return Promise.reject(new TypeError('Body is unusable: Body has already been read'))
      if (this._stream !== null && this._stream.locked) return Promise.reject(new TypeError('Body is unusable: its stream is locked to a reader'))
      this._used = true
      const src = this._src, fail = this._fail
      if (src !== null) {
        this._src = null
        return new Promise((resolve, reject) => src.read(true, (err, buf) => err ? reject(fail ? fail(err) : new TypeError(err)) : resolve(new Uint8Array(buf))))
      }
      if (this._stream !== null) return drain(this._stream)
      return Promise.resolve(this._bytes || new Uint8Array(0))
    }
    arrayBuffer() { return this._consume().then((b) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength)) }
    bytes() { return this._consume().then((b) => new Uint8Array(b)) }
    text() { return this._consume().then((b) => n.decode(b, false)) }
    json() { return this.text().then((t) => JSON.parse(t)) }
    blob() {
      return this._consume().then((b) => {
        const { Blob, blobType } = blobs()
        const x = new Blob([])
        x._bytes = b
        x._type = blobType(this.headers.get('content-type') || '')
        return x
      })
    }
    formData() { return this._consume().then((b) => blobs().parseForm(b, this.headers.get('content-type'))) }
    // _tee splits a streamed body in two: this keeps one, the other is answered.
    _tee() {
      if (this.bodyUsed) throw new TypeError('Body has already been consumed.')
      const [a, b] = this.body.tee()
      this._stream = a
      return b
    }
  }

  class Request extends Body {
    constructor(input, init) {
      super()
      init = init || {}
      const src = input instanceof Request ? input : null
      this.url = src ? src.url : String(new g.URL(String(input)))
      this.method = String(init.method || (src ? src.method : 'GET')).toUpperCase()
      this.headers = new Headers(init.headers || (src ? src.headers : undefined))
      this.signal = init.signal || (src ? src.signal : null) || new (abort().AbortController)().signal
      this.redirect = init.redirect || (src ? src.redirect : 'follow')
      this._init(init.body !== undefined ? init.body : (src ? src._stream || src._bytes : null), this.headers)
      if ((this._bytes || this._stream) && (this.method === 'GET' || this.method === 'HEAD')) throw new TypeError('Request with GET/HEAD method cannot have body.')
    }
    clone() { return new Request(this, this._stream !== null ? { body: this._tee() } : undefined) }
  }

  const response = once(() => {
    class Response extends Body {
      constructor(body, init) {
        super()
        init = init || {}
        this.status = init.status === undefined ? 200 : init.status
        this.statusText = init.statusText || ''
        this.headers = new Headers(init.headers)
        this.url = init.url || ''
        this.redirected = !!init.redirected
        this.type = 'default'
        this._init(body, this.headers)
      }
      get ok() { return this.status >= 200 && this.status < 300 }
      clone() {
        if (this._src !== null || this._stream !== null) return new Response(this._tee(), this)
        return new Response(this._bytes && new Uint8Array(this._bytes), this)
      }
      static json(data, init) { const h = new Headers(init && init.headers); h.set('content-type', 'application/json'); return new Response(JSON.stringify(data), Object.assign({}, init, { headers: h })) }
      static error() { const r = new Response(null, { status: 0 }); r.type = 'error'; return r }
      static redirect(url, status) { return new Response(null, { status: status || 302, headers: { location: String(url) } }) }
    }
    return Response
  })

  function fetch(input, init) {
    return new Promise((resolve, reject) => {
      const req = new Request(input, init)
      const signal = req.signal
      if (signal.aborted) { reject(signal.reason); return }
      const pairs = []
      req.headers.forEach((v, k) => pairs.push(k, v))
      let done = false, handle = null
      // The listener stays after the response's head: an abort then ends
      // the reading of its body, which rejects with the abort's reason.
      const onAbort = () => {
        if (handle !== null) handle.cancel()
        if (!done) { done = true; reject(signal.reason) }
      }
      const fail = (err) => signal.aborted ? signal.reason : new TypeError(err)
      const send = (body) => {
        if (done) return
        handle = n.http(req.method, req.url, pairs, body, req.redirect, (err, status, statusText, headers, src, url, redirected) => {
          if (done) return
          done = true
          if (err) { signal.removeEventListener('abort', onAbort); reject(new TypeError('fetch failed: ' + err)); return }
          const h = new Headers()
          for (let i = 0; i < headers.length; i += 2) h.append(headers[i], headers[i + 1])
          const res = new (response())(null, { status, statusText, headers: h, url, redirected })
          res._src = src
          res._fail = fail
          resolve(res)
        })
      }
      signal.addEventListener('abort', onAbort)
      // A streamed request body is read whole first: Go's request is sent
      // with its length.
      if (req._stream !== null) req._consume().then(send, (e) => { if (!done) { done = true; reject(e) } })
      else send(req._bytes)
    })
  }

  function structuredClone(value) {
    const seen = new Map()
    const clone = (v) => {
      if (typeof v === 'function' || typeof v === 'symbol') throw new (domException())(String(v) + ' could not be cloned.', 'DataCloneError')
      if (v === null || typeof v !== 'object') return v
      if (seen.has(v)) return seen.get(v)
      let out
      if (v instanceof Date) out = new Date(v.getTime())
      else if (v instanceof RegExp) out = new RegExp(v.source, v.flags)
      else if (v instanceof ArrayBuffer) out = v.slice(0)
      else if (ArrayBuffer.isView(v)) out = new v.constructor(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength))
      else if (v instanceof Map) { out = new Map(); seen.set(v, out); for (const [k, x] of v) out.set(clone(k), clone(x)); return out }
      else if (v instanceof Set) { out = new Set(); seen.set(v, out); for (const x of v) out.add(clone(x)); return out }
      else if (v instanceof Error) { out = new (g[v.name] || Error)(v.message); if (v.stack) out.stack = v.stack }
      else if (Array.isArray(v)) { out = []; seen.set(v, out); for (let i = 0; i < v.length; i++) out[i] = clone(v[i]); return out }
      else { out = {}; seen.set(v, out); for (const k of Object.keys(v)) out[k] = clone(v[k]); return out }
      seen.set(v, out)
      return out
    }
    return clone(value)
  }

  const text = once(() => {
    class TextEncoder {
      get encoding() { return 'utf-8' }
      encode(s) { return n.encode(s === undefined ? '' : String(s)) }
      // encodeInto writes whole characters only; read counts UTF-16 units.
      encodeInto(s, dest) {
        s = String(s)
        let read = 0, written = 0
        for (const ch of s) {
          const c = ch.codePointAt(0)
          const k = c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4
          if (written + k > dest.length) break
          written += k; read += ch.length
        }
        dest.set(n.encode(s.slice(0, read)).subarray(0, written))
        return { read, written }
      }
    }
    class TextDecoder {
      constructor(label, opts) {
        const enc = n.textLabel(String(label === undefined ? 'utf-8' : label))
        if (enc === '') { const e = new RangeError(`The "${label}" encoding is not supported`); e.code = 'ERR_ENCODING_NOT_SUPPORTED'; throw e }
        this.encoding = enc; this.fatal = !!(opts && opts.fatal); this.ignoreBOM = !!(opts && opts.ignoreBOM)
        def(this, '_pending', null)
        def(this, '_started', false)
      }
      decode(input, options) {
        const stream = !!(options && options.stream)
        let b = input === undefined ? new Uint8Array(0) : bytes(input)
        if (this._pending) { const j = new Uint8Array(this._pending.length + b.length); j.set(this._pending); j.set(b, this._pending.length); b = j }
        const [text, used] = n.textDecode(this.encoding, b, this.fatal, stream)
        this._pending = stream && used < b.length ? b.slice(used) : null
        let s = text
        // A BOM is dropped at the start of a stream (not in windows-1252).
        if (!this._started && s.length > 0) {
          this._started = true
          if (!this.ignoreBOM && this.encoding !== 'windows-1252' && s.charCodeAt(0) === 0xfeff) s = s.slice(1)
        }
        if (!stream) this._started = false
        return s
      }
    }

    return { TextEncoder, TextDecoder }
  })

  // messaging: MessageChannel's two ports and BroadcastChannel within the
  // runtime (a tool has no other thread). A message is a structured clone,
  // delivered as a 'message' event in a later task, as in Bun and Node.
  const messaging = once(() => {
    const { Event, EventTarget } = events()
    class MessageEvent extends Event {
      constructor(type, init = {}) { super(type, init); this.data = init.data; this.origin = init.origin ?? ''; this.lastEventId = init.lastEventId ?? ''; this.source = init.source ?? null; this.ports = init.ports ?? [] }
    }
    const deliver = (target, data) => setTimeout(() => target.dispatchEvent(new MessageEvent('message', { data })), 0)
    class MessagePort extends EventTarget {
      constructor(key) {
        if (key !== portKey) throw new TypeError('Illegal constructor')
        super()
        def(this, '_other', null)
        def(this, '_closed', false)
        def(this, '_queue', [])
        def(this, '_started', false)
      }
      postMessage(message) {
        const to = this._other
        if (this._closed || !to || to._closed) return
        const data = structuredClone(message)
        if (to._started) deliver(to, data); else to._queue.push(data)
      }
      start() {
        if (this._started) return
        this._started = true
        for (const d of this._queue.splice(0)) deliver(this, d)
      }
      close() { this._closed = true; if (this._other) this._other._closed = true }
      set onmessage(fn) { def(this, '_onmessage', fn); this.start() }
      get onmessage() { return this._onmessage ?? null }
      addEventListener(type, fn, opts) { super.addEventListener(type, fn, opts); if (type === 'message') this.start() }
      ref() { return this }
      unref() { return this }
    }
    const portKey = Symbol('port')
    class MessageChannel {
      constructor() {
        this.port1 = new MessagePort(portKey)
        this.port2 = new MessagePort(portKey)
        this.port1._other = this.port2
        this.port2._other = this.port1
      }
    }
    const channels = new Map()
    class BroadcastChannel extends EventTarget {
      constructor(name) {
        super()
        def(this, '_name', String(name))
        def(this, '_closed', false)
        if (!channels.has(this._name)) channels.set(this._name, new Set())
        channels.get(this._name).add(this)
      }
      get name() { return this._name }
      postMessage(message) {
        if (this._closed) throw new (domException())('BroadcastChannel is closed.', 'InvalidStateError')
        const data = structuredClone(message)
        for (const c of channels.get(this._name)) if (c !== this) deliver(c, data)
      }
      close() { this._closed = true; channels.get(this._name)?.delete(this) }
      ref() { return this }
      unref() { return this }
    }
    return { MessageEvent, MessagePort, MessageChannel, BroadcastChannel }
  })

  // Made now: core-js reads these through their property descriptors.
  const now = {
    Headers, Request, fetch, structuredClone,
    // What the callback throws is printed, as Node prints an uncaught
    // exception (it would stop the process): never dropped.
    queueMicrotask: (fn) => {
      if (typeof fn !== 'function') { const e = new TypeError('The "callback" argument must be of type function. Received ' + (fn === null ? 'null' : typeof fn)); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
      Promise.resolve().then(() => fn()).catch((e) => console.error('Uncaught', e))
    },
  }
  return (k) => {
    switch (k) {
      case 'Event': case 'EventTarget': return events()[k]
      case 'DOMException': return domException()
      case 'AbortController': case 'AbortSignal': return abort()[k]
      case 'Response': return response()
      case 'TextEncoder': case 'TextDecoder': return text()[k]
      case 'Blob': case 'File': case 'FormData': return blobs()[k]
      case 'MessageEvent': case 'MessagePort': case 'MessageChannel': case 'BroadcastChannel': return messaging()[k]
    }
    if (streamNames.has(k)) return streams()[k]
    return now[k]
  }
})
