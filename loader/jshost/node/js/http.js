// node:http and node:https as clients, the part of Node 20's
// lib/_http_client.js and lib/_http_incoming.js tools and their packages
// (axios, follow-redirects, got) use: ClientRequest is a Writable that
// gathers the body and sends it at end(); IncomingMessage is a Readable
// over the response's bytes as the server sent them. Tools do not listen:
// servers throw. node:http2, node:net and node:tls are what packages read
// at import (constants, classes to extend); connecting throws.
(function (g, n) {
  'use strict'
  const { Readable, Writable } = n.stream
  const EventEmitter = n.events
  const Buffer = n.Buffer

  const METHODS = ['ACL', 'BIND', 'CHECKOUT', 'CONNECT', 'COPY', 'DELETE', 'GET', 'HEAD', 'LINK', 'LOCK',
    'M-SEARCH', 'MERGE', 'MKACTIVITY', 'MKCALENDAR', 'MKCOL', 'MOVE', 'NOTIFY', 'OPTIONS', 'PATCH', 'POST',
    'PROPFIND', 'PROPPATCH', 'PURGE', 'PUT', 'QUERY', 'REBIND', 'REPORT', 'SEARCH', 'SOURCE', 'SUBSCRIBE', 'TRACE',
    'UNBIND', 'UNLINK', 'UNLOCK', 'UNSUBSCRIBE']
  const STATUS_CODES = {
    100: 'Continue', 101: 'Switching Protocols', 102: 'Processing', 103: 'Early Hints',
    200: 'OK', 201: 'Created', 202: 'Accepted', 203: 'Non-Authoritative Information', 204: 'No Content',
    205: 'Reset Content', 206: 'Partial Content', 207: 'Multi-Status', 208: 'Already Reported', 226: 'IM Used',
    300: 'Multiple Choices', 301: 'Moved Permanently', 302: 'Found', 303: 'See Other', 304: 'Not Modified',
    305: 'Use Proxy', 307: 'Temporary Redirect', 308: 'Permanent Redirect',
    400: 'Bad Request', 401: 'Unauthorized', 402: 'Payment Required', 403: 'Forbidden', 404: 'Not Found',
    405: 'Method Not Allowed', 406: 'Not Acceptable', 407: 'Proxy Authentication Required', 408: 'Request Timeout',
    409: 'Conflict', 410: 'Gone', 411: 'Length Required', 412: 'Precondition Failed', 413: 'Payload Too Large',
    414: 'URI Too Long', 415: 'Unsupported Media Type', 416: 'Range Not Satisfiable', 417: 'Expectation Failed',
    418: "I'm a Teapot", 421: 'Misdirected Request', 422: 'Unprocessable Entity', 423: 'Locked', 424: 'Failed Dependency',
    425: 'Too Early', 426: 'Upgrade Required', 428: 'Precondition Required', 429: 'Too Many Requests',
    431: 'Request Header Fields Too Large', 451: 'Unavailable For Legal Reasons',
    500: 'Internal Server Error', 501: 'Not Implemented', 502: 'Bad Gateway', 503: 'Service Unavailable',
    504: 'Gateway Timeout', 505: 'HTTP Version Not Supported', 506: 'Variant Also Negotiates', 507: 'Insufficient Storage',
    508: 'Loop Detected', 509: 'Bandwidth Limit Exceeded', 510: 'Not Extended', 511: 'Network Authentication Required',
  }

  function nodeError(Ctor, code, message) {
    const e = new Ctor(message)
    e.code = code
    return e
  }
  const noServer = (what) => () => { throw new Error(what + ' is not available to tools: they cannot listen for connections') }

  // Headers Node keeps the first of when a response repeats them
  // (lib/_http_incoming.js matchKnownFields); set-cookie is a list,
  // cookie joins with '; ', the rest with ', '.
  const firstWins = new Set(['age', 'authorization', 'content-length', 'content-type', 'etag', 'expires', 'from',
    'host', 'if-modified-since', 'if-unmodified-since', 'last-modified', 'location', 'max-forwards',
    'proxy-authorization', 'referer', 'retry-after', 'server', 'user-agent'])
  function addHeader(h, key, value) {
    const k = key.toLowerCase()
    if (k === 'set-cookie') (h[k] ??= []).push(value)
    else if (!(k in h)) h[k] = value
    else if (firstWins.has(k)) return
    else h[k] += (k === 'cookie' ? '; ' : ', ') + value
  }

  class Agent extends EventEmitter {
    constructor(options) {
      super()
      this.options = { __proto__: null, ...options, path: null }
      this.defaultPort = this.options.defaultPort ?? 80
      this.protocol = this.options.protocol ?? 'http:'
      this.keepAlive = !!this.options.keepAlive
      this.keepAliveMsecs = this.options.keepAliveMsecs ?? 1000
      this.maxSockets = this.options.maxSockets ?? Infinity
      this.maxFreeSockets = this.options.maxFreeSockets ?? 256
      this.maxTotalSockets = this.options.maxTotalSockets ?? Infinity
      this.totalSocketCount = 0
      this.requests = { __proto__: null }
      this.sockets = { __proto__: null }
      this.freeSockets = { __proto__: null }
    }
    getName(options = {}) {
      let name = options.host || 'localhost'
      name += ':'
      if (options.port) name += options.port
      name += ':'
      if (options.localAddress) name += options.localAddress
      if (options.family === 4 || options.family === 6) name += ':' + options.family
      return name
    }
    destroy() {}
  }

  // Socket is what 'socket' listeners get: the host owns the connection,
  // so the socket is a handle with the methods packages call on it.
  class Socket extends EventEmitter {
    constructor(req) {
      super()
      this._req = req
      this.connecting = false
      this.destroyed = false
      this.encrypted = req.protocol === 'https:' || undefined
      this.remoteAddress = undefined
      this.remotePort = undefined
    }
    setKeepAlive() { return this }
    setNoDelay() { return this }
    setTimeout(ms, cb) { this._req.setTimeout(ms, cb); return this }
    ref() { return this }
    unref() { return this }
    address() { return {} }
    destroy(err) { this.destroyed = true; this._req.destroy(err); return this }
    end() { return this }
  }

  class IncomingMessage extends Readable {
    constructor(req, status, message, raw, version, body) {
      super()
      this.req = req
      this.socket = req.socket
      this.statusCode = status
      this.statusMessage = message
      this.httpVersion = version
      const [major, minor] = version.split('.').map(Number)
      this.httpVersionMajor = major
      this.httpVersionMinor = minor
      this.rawHeaders = raw
      this.headers = {}
      for (let i = 0; i + 1 < raw.length; i += 2) addHeader(this.headers, raw[i], raw[i + 1])
      this.headersDistinct = {}
      for (let i = 0; i + 1 < raw.length; i += 2) (this.headersDistinct[raw[i].toLowerCase()] ??= []).push(raw[i + 1])
      this.trailers = {}
      this.rawTrailers = []
      this.url = ''
      this.method = null
      this.complete = false
      this.aborted = false
      this._reader = body.getReader()
      this._pulling = false
    }
    _read() {
      if (this._pulling) return
      this._pulling = true
      this._reader.read().then(({ done, value }) => {
        this._pulling = false
        if (done) {
          this.complete = true
          this.push(null)
          return
        }
        this.req._touch()
        if (this.push(Buffer.from(value.buffer, value.byteOffset, value.byteLength))) this._read()
      }, (err) => {
        this._pulling = false
        if (this.complete) return
        this.aborted = true
        this.destroy(this.req._aborted ? nodeError(Error, 'ECONNRESET', 'aborted') : err)
      })
    }
    _destroy(err, cb) {
      if (!this.complete) this._reader.cancel().catch(() => {})
      cb(err)
    }
    setTimeout(ms, cb) { this.req.setTimeout(ms, cb); return this }
  }

  function headerPairs(headers) {
    const out = []
    for (const [k, v] of Object.entries(headers)) {
      if (v === undefined) continue
      if (Array.isArray(v)) for (const x of v) out.push(k, String(x))
      else out.push(k, String(v))
    }
    return out
  }

  const tokenRe = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/
  function validateHeaderName(name) {
    if (typeof name !== 'string' || !name || !tokenRe.test(name)) {
      const e = nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Header name must be a valid HTTP token ["${name}"]`)
      throw e
    }
  }
  function validateHeaderValue(name, value) {
    if (value === undefined) throw nodeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "${value}" for header "${name}"`)
    if (/[^\t\x20-\x7e\x80-\xff]/.test(String(value))) throw nodeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`)
  }

  class ClientRequest extends Writable {
    constructor(input, options, cb, defaults) {
      // No autoDestroy: the request lives on after its body is sent, until
      // its response has been read.
      super({ decodeStrings: true, autoDestroy: false })
      if (typeof input === 'string' || input instanceof URL) {
        const u = typeof input === 'string' ? new URL(input) : input
        const fromURL = { protocol: u.protocol, hostname: u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname, port: u.port, path: u.pathname + u.search }
        if (u.username || u.password) fromURL.auth = decodeURIComponent(u.username) + ':' + decodeURIComponent(u.password)
        if (typeof options === 'function') { cb = options; options = {} }
        options = { ...fromURL, ...options }
      } else {
        if (typeof options === 'function') cb = options
        options = { ...input }
      }
      const agent = options.agent === false ? new Agent() : (options.agent ?? defaults.agent)
      const protocol = options.protocol || (agent && agent.protocol) || defaults.protocol
      if (protocol !== defaults.protocol) {
        throw nodeError(TypeError, 'ERR_INVALID_PROTOCOL', `Protocol "${protocol}" not supported. Expected "${defaults.protocol}"`)
      }
      if (options.socketPath) throw new Error('http.request with socketPath is not available to tools: they may connect over TCP only')
      if (options.createConnection) throw new Error('http.request with createConnection is not available to tools: the host makes the connections')
      const method = (options.method || 'GET').toUpperCase()
      if (!tokenRe.test(method)) throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `Method must be a valid HTTP token ["${options.method}"]`)
      const host = options.hostname || (options.host ? String(options.host).replace(/:\d+$/, '') : 'localhost')
      const port = options.port || (agent && agent.defaultPort) || defaults.port
      let path = options.path || '/'
      if (/[\u0000-\u0020]/.test(path)) throw nodeError(TypeError, 'ERR_UNESCAPED_CHARACTERS', 'Request path contains unescaped characters')
      this.agent = agent
      this.method = method
      this.protocol = protocol
      this.host = host
      this.path = path
      this.aborted = false
      this.reusedSocket = false
      this.maxHeadersCount = null
      this.headersSent = false
      this.finished = false
      this._headers = new Map() // lower name -> [name, value]
      if (Array.isArray(options.headers)) {
        for (let i = 0; i + 1 < options.headers.length; i += 2) this.setHeader(options.headers[i], options.headers[i + 1])
      } else if (options.headers) {
        for (const [k, v] of Object.entries(options.headers)) if (v !== undefined) this.setHeader(k, v)
      }
      if (options.auth && !this.hasHeader('authorization')) this.setHeader('Authorization', 'Basic ' + Buffer.from(options.auth).toString('base64'))
      const bracket = host.includes(':') ? '[' + host + ']' : host
      const defaultPort = String(port) === String(defaults.port)
      this._url = protocol + '//' + bracket + (defaultPort ? '' : ':' + port) + (path.startsWith('/') ? path : '/' + path)
      this._hostHeader = options.setHost === false ? '' : undefined
      this._chunks = []
      this._handle = null
      this._timer = null
      this._timeoutMs = 0
      this._aborted = false
      this.socket = this.connection = new Socket(this)
      if (cb) this.once('response', cb)
      if (options.timeout) this.setTimeout(options.timeout)
      if (options.signal) {
        const signal = options.signal
        if (signal.aborted) queueMicrotask(() => this.destroy(abortError(signal)))
        else signal.addEventListener('abort', () => this.destroy(abortError(signal)), { once: true })
      }
      queueMicrotask(() => { if (!this.destroyed) this.emit('socket', this.socket) })
    }
    setHeader(name, value) {
      if (this.headersSent) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot set headers after they are sent to the client')
      validateHeaderName(name)
      validateHeaderValue(name, value)
      this._headers.set(name.toLowerCase(), [name, value])
      return this
    }
    getHeader(name) { return this._headers.get(String(name).toLowerCase())?.[1] }
    hasHeader(name) { return this._headers.has(String(name).toLowerCase()) }
    removeHeader(name) {
      if (this.headersSent) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot remove headers after they are sent to the client')
      this._headers.delete(String(name).toLowerCase())
    }
    getHeaders() {
      const o = { __proto__: null }
      for (const [k, [, v]] of this._headers) o[k] = v
      return o
    }
    getHeaderNames() { return [...this._headers.keys()] }
    getRawHeaderNames() { return [...this._headers.values()].map(([k]) => k) }
    flushHeaders() {}
    setNoDelay() {}
    setSocketKeepAlive() {}
    setTimeout(ms, cb) {
      if (cb) this.once('timeout', cb)
      this._timeoutMs = ms
      this._touch()
      return this
    }
    // _touch restarts the idle timer: Node's timeout is the socket's
    // inactivity, and it only emits 'timeout' (the listener destroys).
    _touch() {
      if (this._timer) clearTimeout(this._timer)
      this._timer = null
      if (this._timeoutMs > 0 && !this.destroyed) {
        this._timer = setTimeout(() => { this._timer = null; this.emit('timeout'); this.socket.emit('timeout') }, this._timeoutMs)
      }
    }
    abort() {
      if (this.aborted) return
      this.aborted = true
      queueMicrotask(() => this.emit('abort'))
      this.destroy()
    }
    _write(chunk, encoding, cb) {
      this._chunks.push(chunk)
      cb()
    }
    _final(cb) {
      this.headersSent = true
      this.finished = true
      const body = this._chunks.length ? Buffer.concat(this._chunks) : null
      this._chunks = []
      const pairs = []
      let host = ''
      for (const [k, [name, v]] of this._headers) {
        if (k === 'host') { host = String(v); continue }
        if (Array.isArray(v)) for (const x of v) pairs.push(name, String(x))
        else pairs.push(name, String(v))
      }
      this._touch()
      this._handle = n.request(this.method, this._url, pairs, body, host, (err, status, message, raw, version, stream) => {
        this._handle = null
        if (err) {
          if (!this.destroyed) this.destroy(err)
          return
        }
        if (this.destroyed) { stream.cancel().catch(() => {}); return }
        const res = new IncomingMessage(this, status, message, raw, version, stream)
        this.res = res
        res.once('end', () => { if (this._timer) clearTimeout(this._timer); queueMicrotask(() => this.emit('close')) })
        if (!this.emit('response', res)) res.resume()
      })
      cb()
    }
    _destroy(err, cb) {
      this._aborted = true
      if (this._timer) clearTimeout(this._timer)
      if (this._handle) this._handle.abort()
      if (this.res && !this.res.complete) this.res.destroy(nodeError(Error, 'ECONNRESET', 'aborted'))
      if (!err && !this.res && !this.aborted) err = nodeError(Error, 'ECONNRESET', 'socket hang up')
      cb(err)
    }
  }

  function abortError(signal) {
    const e = new Error('The operation was aborted')
    e.name = 'AbortError'
    e.code = 'ABORT_ERR'
    e.cause = signal.reason
    return e
  }

  function client(protocol, port) {
    const globalAgent = new Agent({ keepAlive: true, scheduling: 'lifo', timeout: 5000, defaultPort: port, protocol })
    const defaults = { protocol, port, agent: globalAgent }
    const request = (input, options, cb) => new ClientRequest(input, options, cb, defaults)
    const get = (input, options, cb) => {
      const req = request(input, options, cb)
      req.end()
      return req
    }
    class ModuleAgent extends Agent {
      constructor(options) { super({ defaultPort: port, protocol, ...options }) }
    }
    return { Agent: ModuleAgent, globalAgent, request, get }
  }

  const http = {
    METHODS, STATUS_CODES, ClientRequest, IncomingMessage, validateHeaderName, validateHeaderValue,
    maxHeaderSize: 16384, ...client('http:', 80),
    createServer: noServer('http.createServer'), Server: noServer('http.Server'), OutgoingMessage: Writable,
    ServerResponse: noServer('http.ServerResponse'), setMaxIdleHTTPParsers() {},
  }
  const https = {
    ...client('https:', 443),
    createServer: noServer('https.createServer'), Server: noServer('https.Server'),
  }

  // node:http2 as packages read it at import: constants and the classes'
  // names. Sessions are not offered (fetch speaks HTTP/2 for the tool).
  const noHTTP2 = (what) => () => { throw new Error(what + ' is not available to tools: use fetch, which speaks HTTP/2') }
  const h2headers = {
    HTTP2_HEADER_STATUS: ':status', HTTP2_HEADER_METHOD: ':method', HTTP2_HEADER_AUTHORITY: ':authority',
    HTTP2_HEADER_SCHEME: ':scheme', HTTP2_HEADER_PATH: ':path', HTTP2_HEADER_PROTOCOL: ':protocol',
    HTTP2_HEADER_CONTENT_TYPE: 'content-type', HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
    HTTP2_HEADER_ACCEPT: 'accept', HTTP2_HEADER_ACCEPT_ENCODING: 'accept-encoding', HTTP2_HEADER_AUTHORIZATION: 'authorization',
    HTTP2_HEADER_CONTENT_ENCODING: 'content-encoding', HTTP2_HEADER_COOKIE: 'cookie', HTTP2_HEADER_SET_COOKIE: 'set-cookie',
    HTTP2_HEADER_USER_AGENT: 'user-agent', HTTP2_HEADER_LOCATION: 'location', HTTP2_HEADER_HOST: 'host',
    HTTP2_METHOD_GET: 'GET', HTTP2_METHOD_POST: 'POST', HTTP2_METHOD_PUT: 'PUT', HTTP2_METHOD_DELETE: 'DELETE',
    HTTP2_METHOD_HEAD: 'HEAD', HTTP2_METHOD_PATCH: 'PATCH', HTTP2_METHOD_OPTIONS: 'OPTIONS', HTTP2_METHOD_CONNECT: 'CONNECT',
    NGHTTP2_CANCEL: 8, NGHTTP2_NO_ERROR: 0, NGHTTP2_REFUSED_STREAM: 7, NGHTTP2_INTERNAL_ERROR: 2,
  }
  for (const [code, text] of Object.entries(STATUS_CODES)) h2headers['HTTP_STATUS_' + text.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/_$/, '')] = Number(code)
  const http2 = {
    constants: h2headers, connect: noHTTP2('http2.connect'), createServer: noServer('http2.createServer'),
    createSecureServer: noServer('http2.createSecureServer'), getDefaultSettings: () => ({}), sensitiveHeaders: Symbol('nodejs.http2.sensitiveHeaders'),
    Http2ServerRequest: class Http2ServerRequest {}, Http2ServerResponse: class Http2ServerResponse {},
  }

  // node:net and node:tls: classes packages extend or test with
  // instanceof, and the pure helpers; a connection throws.
  const noSocket = (what) => () => { throw new Error(what + ' is not available to tools: they may use fetch or node:http(s), which the host connects') }
  const ipv4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/
  const isIPv4 = (s) => ipv4.test(String(s))
  const isIPv6 = (s) => {
    s = String(s)
    if (!s.includes(':') || !/^[0-9a-fA-F:.]+(%.+)?$/.test(s)) return false
    try { return new URL('http://[' + s.replace(/%.*$/, '') + ']/').hostname.length > 2 } catch { return false }
  }
  class NetSocket extends EventEmitter { constructor() { super(); noSocket('net.Socket')() } }
  const net = {
    Socket: NetSocket, Stream: NetSocket, Server: noServer('net.Server'), BlockList: class BlockList {},
    connect: noSocket('net.connect'), createConnection: noSocket('net.createConnection'), createServer: noServer('net.createServer'),
    isIP: (s) => (isIPv4(s) ? 4 : isIPv6(s) ? 6 : 0), isIPv4, isIPv6,
    getDefaultAutoSelectFamily: () => true, setDefaultAutoSelectFamily() {},
  }
  class TLSSocket extends NetSocket {}
  const tls = {
    TLSSocket, Server: noServer('tls.Server'), connect: noSocket('tls.connect'), createServer: noServer('tls.createServer'),
    createSecureContext: () => ({}), checkServerIdentity: () => undefined, rootCertificates: [],
    DEFAULT_MIN_VERSION: 'TLSv1.2', DEFAULT_MAX_VERSION: 'TLSv1.3', DEFAULT_ECDH_CURVE: 'auto', getCiphers: () => [],
  }
  return { http, https, http2, net, tls }
})
