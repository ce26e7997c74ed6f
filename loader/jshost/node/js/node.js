// node: modules written in JS over the Go bindings (n). Returns a map from
// module name to a factory; the host calls a factory on first require.
(function (g, n) {
  'use strict'

  function events() {
    const errorMonitor = Symbol('events.errorMonitor')
    class AbortError extends Error {
      constructor(message = 'The operation was aborted', options = undefined) {
        super(message, options)
        this.code = 'ABORT_ERR'
        this.name = 'AbortError'
      }
    }
    // A function, as Node's is: old packages (readable-stream, and the many
    // written before classes) construct their base with EventEmitter.call(this).
    function EventEmitter(opts) { EventEmitter.init.call(this, opts) }
    EventEmitter.init = function () {
      if (!(this._events instanceof Map)) this._events = new Map()
    }
    class EventEmitterMethods {
      _list(name) { if (!this._events) this._events = new Map(); let l = this._events.get(name); if (!l) { l = []; this._events.set(name, l) } return l }
      _add(name, fn, once, prepend) {
        if (typeof fn !== 'function') { const e = new TypeError('The "listener" argument must be of type function. Received ' + (fn === null ? 'null' : typeof fn)); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
        if (this._events && this._events.has('newListener')) this.emit('newListener', name, fn)
        const l = this._list(name)
        if (prepend) l.unshift({ fn, once }); else l.push({ fn, once })
        return this
      }
      addListener(name, fn) { return this._add(name, fn, false, false) }
      prependListener(name, fn) { return this._add(name, fn, false, true) }
      once(name, fn) { return this._add(name, fn, true, false) }
      prependOnceListener(name, fn) { return this._add(name, fn, true, true) }
      removeListener(name, fn) {
        const l = this._events && this._events.get(name)
        if (!l) return this
        let i = -1
        for (let k = l.length - 1; k >= 0; k--) if (l[k].fn === fn) { i = k; break }
        if (i >= 0) {
          l.splice(i, 1)
          if (l.length === 0) this._events.delete(name)
          if (this._events.has('removeListener')) this.emit('removeListener', name, fn)
        }
        return this
      }
      removeAllListeners(name) { if (name === undefined) this._events = new Map(); else if (this._events) this._events.delete(name); return this }
      emit(name, ...args) {
        if (name === 'error' && this._events && this._events.has(errorMonitor)) this.emit(errorMonitor, ...args)
        const l = this._events && this._events.get(name)
        if (!l || l.length === 0) {
          if (name === 'error') {
            const er = args[0]
            if (er instanceof Error) throw er
            const e = new Error('Unhandled error. (' + (typeof er === 'string' ? "'" + er + "'" : String(er)) + ')')
            e.code = 'ERR_UNHANDLED_ERROR'; e.context = er
            throw e
          }
          return false
        }
        for (const x of l.slice()) {
          if (x.once) this.removeListener(name, x.fn)
          x.fn.apply(this, args)
        }
        return true
      }
      listeners(name) { const l = this._events && this._events.get(name); return l ? l.map((x) => x.fn) : [] }
      rawListeners(name) { return this.listeners(name) }
      listenerCount(name) { const l = this._events && this._events.get(name); return l ? l.length : 0 }
      // Node keeps listeners in an object: names first, symbols after.
      eventNames() {
        const keys = [...(this._events || new Map()).keys()]
        return keys.filter((k) => typeof k !== 'symbol').concat(keys.filter((k) => typeof k === 'symbol'))
      }
      setMaxListeners(k) { this._max = k; return this }
      getMaxListeners() { return this._max === undefined ? EventEmitter.defaultMaxListeners : this._max }
    }
    for (const k of Object.getOwnPropertyNames(EventEmitterMethods.prototype)) {
      if (k !== 'constructor') EventEmitter.prototype[k] = EventEmitterMethods.prototype[k] // enumerable, as Node's
    }
    // One function each, as Node's: a subclass overriding removeListener
    // (streams do) and calling the base's must not come back through off.
    EventEmitter.prototype.on = EventEmitter.prototype.addListener
    EventEmitter.prototype.off = EventEmitter.prototype.removeListener
    EventEmitter.defaultMaxListeners = 10
    EventEmitter.errorMonitor = errorMonitor
    EventEmitter.captureRejections = false
    EventEmitter.EventEmitter = EventEmitter
    EventEmitter.AbortError = AbortError
    EventEmitter.listenerCount = (emitter, name) => emitter.listenerCount(name)
    EventEmitter.getEventListeners = (emitter, name) => (typeof emitter.listeners === 'function' ? emitter.listeners(name) : [])
    EventEmitter.setMaxListeners = () => {}
    const signalOf = (options) => {
      const signal = options == null ? undefined : options.signal
      if (signal !== undefined && (signal === null || typeof signal !== 'object' || !('aborted' in signal))) {
        const e = new TypeError('The "options.signal" property must be an instance of AbortSignal.'); e.code = 'ERR_INVALID_ARG_TYPE'; throw e
      }
      return signal
    }
    const listen = (emitter, name, fn, once) => {
      if (typeof emitter.on === 'function') { if (once) emitter.once(name, fn); else emitter.on(name, fn) }
      else if (typeof emitter.addEventListener === 'function') emitter.addEventListener(name, fn, { once })
      else { const e = new TypeError('The "emitter" argument must be an instance of EventEmitter or EventTarget.'); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
    }
    const unlisten = (emitter, name, fn) => {
      if (typeof emitter.removeListener === 'function') emitter.removeListener(name, fn)
      else if (typeof emitter.removeEventListener === 'function') emitter.removeEventListener(name, fn)
    }
    // once is events.once: the arguments of the next name event; an
    // 'error' event or the signal rejects.
    EventEmitter.once = (emitter, name, options) => {
      let signal
      try { signal = signalOf(options) } catch (e) { return Promise.reject(e) }
      if (signal && signal.aborted) return Promise.reject(new AbortError(undefined, { cause: signal.reason }))
      return new Promise((resolve, reject) => {
        const isTarget = typeof emitter.on !== 'function'
        const onAbort = () => { unlisten(emitter, name, ok); unlisten(emitter, 'error', onErr); reject(new AbortError(undefined, { cause: signal.reason })) }
        const onErr = (e) => { unlisten(emitter, name, ok); if (signal) signal.removeEventListener('abort', onAbort); reject(e) }
        const ok = (...a) => { if (!isTarget) unlisten(emitter, 'error', onErr); if (signal) signal.removeEventListener('abort', onAbort); resolve(isTarget ? [a[0]] : a) }
        listen(emitter, name, ok, true)
        if (name !== 'error' && !isTarget) emitter.once('error', onErr)
        if (signal) signal.addEventListener('abort', onAbort, { once: true })
      })
    }
    // on is events.on: an async iterator of the arguments of every name
    // event until an 'error' event or the signal (AbortError) ends it.
    EventEmitter.on = (emitter, name, options) => {
      const signal = signalOf(options)
      if (signal && signal.aborted) throw new AbortError(undefined, { cause: signal.reason })
      const events = [], waiting = []
      let error = null, finished = false
      const done = () => ({ value: undefined, done: true })
      const close = () => {
        unlisten(emitter, name, onEvent)
        if (typeof emitter.on === 'function') unlisten(emitter, 'error', onError)
        if (signal) signal.removeEventListener('abort', onAbort)
        finished = true
        for (const p of waiting.splice(0)) p.resolve(done())
        return Promise.resolve(done())
      }
      const onEvent = (...args) => {
        const p = waiting.shift()
        if (p) p.resolve({ value: args, done: false }); else events.push(args)
      }
      const onError = (err) => {
        const p = waiting.shift()
        if (p) p.reject(err); else error = err
        close()
      }
      const onAbort = () => onError(new AbortError(undefined, { cause: signal.reason }))
      const it = {
        next() {
          if (events.length > 0) return Promise.resolve({ value: events.shift(), done: false })
          if (error) { const p = Promise.reject(error); error = null; return p }
          if (finished) return close()
          return new Promise((resolve, reject) => waiting.push({ resolve, reject }))
        },
        return() { return close() },
        throw(err) {
          if (!err || !(err instanceof Error)) { const e = new TypeError('The "EventEmitter.AsyncIterator" property must be an instance of Error.'); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
          onError(err)
          return Promise.reject(err)
        },
        // goja has no Symbol.asyncIterator; esbuild's lowered for await
        // looks under Symbol.for('Symbol.asyncIterator') then.
        [Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')]() { return this },
      }
      listen(emitter, name, onEvent, false)
      if (name !== 'error' && typeof emitter.on === 'function') emitter.on('error', onError)
      if (signal) signal.addEventListener('abort', onAbort, { once: true })
      return it
    }
    EventEmitter.default = EventEmitter
    return EventEmitter
  }

  // parseArgs is Node 20's util.parseArgs (lib/internal/util/parse_args).
  function parseArgs(config = {}) {
    const nodeError = (Ctor, code, msg) => { const e = new Ctor(msg); e.code = code; return e }
    if (config === null || typeof config !== 'object') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "config" argument must be of type object.')
    const args = config.args !== undefined ? config.args : ((g.process && g.process.argv) || []).slice(2)
    const strict = config.strict !== undefined ? config.strict : true
    const allowPositionals = config.allowPositionals !== undefined ? config.allowPositionals : !strict
    const returnTokens = config.tokens !== undefined ? config.tokens : false
    const options = config.options !== undefined ? config.options : {}
    if (!Array.isArray(args)) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "args" property must be an instance of Array.')
    for (const k of ['strict', 'allowPositionals', 'tokens']) {
      if (config[k] !== undefined && typeof config[k] !== 'boolean') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "${k}" property must be of type boolean.`)
    }
    const own = (o, k) => Object.prototype.hasOwnProperty.call(o, k)
    const get = (name, key) => (own(options, name) && options[name] !== null && typeof options[name] === 'object' && own(options[name], key) ? options[name][key] : undefined)
    for (const name of Object.keys(options)) {
      const o = options[name]
      if (o === null || typeof o !== 'object') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.${name}" property must be of type object.`)
      if (o.type !== 'string' && o.type !== 'boolean') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The property 'options.${name}.type' must be one of: 'string', 'boolean'. Received ${JSON.stringify(o.type)}`)
      if (own(o, 'short') && (typeof o.short !== 'string' || o.short.length !== 1)) throw nodeError(TypeError, 'ERR_INVALID_ARG_VALUE', `The property 'options.${name}.short' must be a single character. Received ${JSON.stringify(o.short)}`)
      if (own(o, 'multiple') && typeof o.multiple !== 'boolean') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.${name}.multiple" property must be of type boolean.`)
      if (own(o, 'default')) {
        const d = o.default, want = o.type
        const ok = o.multiple ? Array.isArray(d) && d.every((x) => typeof x === want) : typeof d === want
        if (!ok) throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "options.${name}.default" property must be ${o.multiple ? 'an instance of Array' : 'of type ' + want}.`)
      }
    }
    const longFor = (short) => Object.keys(options).find((k) => get(k, 'short') === short) || short
    const isString = (name) => get(name, 'type') === 'string'

    // argsToTokens
    const tokens = []
    const rest = args.slice()
    let index = -1, groupCount = 0
    while (rest.length > 0) {
      const arg = rest.shift()
      const next = rest[0]
      if (groupCount > 0) groupCount--; else index++
      if (arg === '--') {
        tokens.push({ kind: 'option-terminator', index })
        for (const p of rest) tokens.push({ kind: 'positional', index: ++index, value: p })
        break
      }
      if (arg.length === 2 && arg[0] === '-' && arg[1] !== '-') {
        const name = longFor(arg[1])
        let value, inlineValue
        if (isString(name) && next !== undefined && next !== null) { value = rest.shift(); inlineValue = false }
        tokens.push({ kind: 'option', name, rawName: arg, index, value, inlineValue })
        if (value !== undefined) ++index
        continue
      }
      if (arg.length > 2 && arg[0] === '-' && arg[1] !== '-') {
        if (!isString(longFor(arg[1]))) { // a group of short options
          const expanded = []
          for (let i = 1; i < arg.length; i++) {
            const short = arg[i]
            if (!isString(longFor(short)) || i === arg.length - 1) expanded.push('-' + short)
            else { expanded.push('-' + arg.slice(i)); break }
          }
          rest.unshift(...expanded)
          groupCount = expanded.length
          continue
        }
        const name = longFor(arg[1])
        tokens.push({ kind: 'option', name, rawName: '-' + arg[1], index, value: arg.slice(2), inlineValue: true })
        continue
      }
      if (arg.length > 2 && arg.startsWith('--') && !arg.includes('=')) {
        const name = arg.slice(2)
        let value, inlineValue
        if (isString(name) && next !== undefined && next !== null) { value = rest.shift(); inlineValue = false }
        tokens.push({ kind: 'option', name, rawName: arg, index, value, inlineValue })
        if (value !== undefined) ++index
        continue
      }
      if (arg.length > 2 && arg.startsWith('--')) {
        const eq = arg.indexOf('=')
        const name = arg.slice(2, eq)
        tokens.push({ kind: 'option', name, rawName: '--' + name, index, value: arg.slice(eq + 1), inlineValue: true })
        continue
      }
      tokens.push({ kind: 'positional', index, value: arg })
    }

    const values = { __proto__: null }
    const positionals = []
    for (const t of tokens) {
      if (t.kind === 'option') {
        if (strict) {
          if (!own(options, t.name)) {
            const dd = allowPositionals ? `. To specify a positional argument starting with a '-', place it at the end of the command after '--', as in '-- ${JSON.stringify(t.rawName)}` : ''
            throw nodeError(TypeError, 'ERR_PARSE_ARGS_UNKNOWN_OPTION', `Unknown option '${t.rawName}'${dd}`)
          }
          const short = get(t.name, 'short')
          const both = `${short ? `-${short}, ` : ''}--${t.name}`
          const type = get(t.name, 'type')
          if (type === 'string' && typeof t.value !== 'string') throw nodeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${both} <value>' argument missing`)
          if (type === 'boolean' && t.value != null) throw nodeError(TypeError, 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE', `Option '${both}' does not take an argument`)
        }
        if (t.name === '__proto__') continue
        const v = t.value === undefined ? true : t.value
        if (get(t.name, 'multiple')) { if (values[t.name] === undefined) values[t.name] = []; values[t.name].push(v) } else values[t.name] = v
      } else if (t.kind === 'positional') {
        if (!allowPositionals) throw nodeError(TypeError, 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL', `Unexpected argument '${t.value}'. This command does not take positional arguments`)
        positionals.push(t.value)
      }
    }
    for (const name of Object.keys(options)) {
      const d = get(name, 'default')
      if (d !== undefined && values[name] === undefined) values[name] = d
    }
    const result = { values, positionals }
    if (returnTokens) result.tokens = tokens
    return result
  }

  function util() {
    const inspect = n.util.inspect
    const custom = Symbol.for('nodejs.util.promisify.custom')
    const promisify = (fn) => {
      if (typeof fn !== 'function') throw new TypeError('The "original" argument must be of type function')
      if (typeof fn[custom] === 'function') return fn[custom]
      return function (...args) {
        return new Promise((resolve, reject) => fn.call(this, ...args, (err, ...vals) => (err ? reject(err) : resolve(vals.length > 1 ? vals : vals[0]))))
      }
    }
    promisify.custom = custom
    const callbackify = (fn) => function (...args) {
      const cb = args.pop()
      fn.apply(this, args).then((v) => cb(null, v), (e) => cb(e))
    }
    const isDeepStrictEqual = (a, b) => deepEqual(a, b, true)
    const types = {
      isDate: (v) => v instanceof Date, isRegExp: (v) => v instanceof RegExp, isPromise: (v) => v instanceof Promise,
      isMap: (v) => v instanceof Map, isSet: (v) => v instanceof Set, isTypedArray: (v) => ArrayBuffer.isView(v) && !(v instanceof DataView),
      isUint8Array: (v) => v instanceof Uint8Array, isArrayBuffer: (v) => v instanceof ArrayBuffer, isNativeError: (v) => v instanceof Error,
    }
    const inherits = (ctor, superCtor) => { Object.setPrototypeOf(ctor.prototype, superCtor.prototype); Object.setPrototypeOf(ctor, superCtor); ctor.super_ = superCtor }
    const deprecate = (fn) => fn
    const tag = (v) => Object.prototype.toString.call(v).slice(8, -1)
    Object.assign(types, {
      isAsyncFunction: (v) => typeof v === 'function' && (tag(v) === 'AsyncFunction' || tag(v) === 'AsyncGeneratorFunction'),
      isGeneratorFunction: (v) => typeof v === 'function' && (tag(v) === 'GeneratorFunction' || tag(v) === 'AsyncGeneratorFunction'),
      isGeneratorObject: (v) => tag(v) === 'Generator', isWeakMap: (v) => v instanceof WeakMap, isWeakSet: (v) => v instanceof WeakSet,
      isDataView: (v) => v instanceof DataView, isAnyArrayBuffer: (v) => v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer),
      isArrayBufferView: (v) => ArrayBuffer.isView(v), isSetIterator: (v) => tag(v) === 'Set Iterator', isMapIterator: (v) => tag(v) === 'Map Iterator',
    })
    // The pattern of Node 20's stripVTControlCharacters.
    const ansi = new RegExp('[\\u001B\\u009B][[\\]()#;?]*' +
      '(?:(?:(?:(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]+)*' +
      '|[a-zA-Z\\d]+(?:;[-a-zA-Z\\d\\/#&.:=?%@~_]*)*)?\\u0007)' +
      '|(?:(?:\\d{1,4}(?:;\\d{0,4})*)?[\\dA-PR-TZcf-ntqry=><~]))', 'g')
    const stripVTControlCharacters = (str) => {
      if (typeof str !== 'string') { const e = new TypeError('The "str" argument must be of type string. Received ' + typeof str); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
      return str.replace(ansi, '')
    }
    // debuglog writes to stderr when NODE_DEBUG names the section, as
    // Node's does (read at the first call or .enabled).
    const debuglog = (section, cb) => {
      let on
      const enabled = () => {
        if (on === undefined) {
          const want = String(g.process.env.NODE_DEBUG || '').split(/[\s,]+/).filter(Boolean)
          on = want.some((w) => new RegExp('^' + w.replace(/[|\\{}()[\]^$+?.]/g, '\\$&').replace(/\*/g, '.*') + '$', 'i').test(section))
          if (cb) cb(log)
        }
        return on
      }
      const log = (...a) => { if (enabled()) console.error('%s %d: %s', section.toUpperCase(), g.process.pid, n.util.format(...a)) }
      Object.defineProperty(log, 'enabled', { get: enabled, enumerable: true })
      return log
    }
    const m = { format: n.util.format, inspect, formatWithOptions: (opts, ...a) => n.util.format(...a), promisify, callbackify, isDeepStrictEqual, types, inherits, deprecate,
      parseArgs, stripVTControlCharacters, debuglog, debug: debuglog,
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
    // FileHandle is fs/promises' open file, over the descriptor calls.
    class FileHandle {
      #fd
      constructor(fd) { this.#fd = fd }
      get fd() { return this.#fd }
      #call(f, ...a) { return new Promise((resolve) => resolve(f(this.#fd, ...a))) }
      close() { return this.#call(fs.closeSync).then(() => { this.#fd = -1 }) }
      stat() { return this.#call(fs.fstatSync) }
      sync() { return this.#call(fs.fsyncSync) }
      datasync() { return this.#call(fs.fdatasyncSync) }
      truncate(len) { return this.#call(fs.ftruncateSync, len) }
      read(buffer, offset, length, position) {
        if (buffer === undefined || (buffer && !ArrayBuffer.isView(buffer) && typeof buffer === 'object')) {
          const o = buffer || {}
          buffer = o.buffer || Buffer.alloc(16384)
          offset = o.offset; length = o.length; position = o.position
        }
        return this.#call(fs.readSync, buffer, offset, length, position).then((bytesRead) => ({ bytesRead, buffer }))
      }
      write(data, a, b, c) {
        return this.#call(fs.writeSync, data, a, b, c).then((bytesWritten) => ({ bytesWritten, buffer: data }))
      }
      readFile(options) {
        const encoding = typeof options === 'string' ? options : options?.encoding
        return new Promise((resolve) => {
          const chunks = []
          for (;;) {
            const b = Buffer.alloc(65536)
            const n = fs.readSync(this.#fd, b, 0, b.length, null)
            if (n === 0) break
            chunks.push(b.subarray(0, n))
          }
          const all = Buffer.concat(chunks)
          resolve(encoding ? all.toString(encoding) : all)
        })
      }
      writeFile(data, options) {
        const encoding = (typeof options === 'string' ? options : options?.encoding) || 'utf8'
        return new Promise((resolve) => {
          const b = typeof data === 'string' ? Buffer.from(data, encoding) : data
          for (let off = 0; off < b.length;) off += fs.writeSync(this.#fd, b, off, b.length - off, null)
          resolve()
        })
      }
      appendFile(data, options) { return this.writeFile(data, options) }
      [Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose')]() { return this.#fd === -1 ? Promise.resolve() : this.close() }
    }
    p.open = (path, flags, mode) => new Promise((resolve) => resolve(new FileHandle(fs.openSync(path, flags, mode))))
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


  // buffer completes goja_nodejs's Buffer (B) as Node has it: the
  // encodings (nb, Go), the statics, and the methods that Uint8Array has
  // with other meanings (slice copies, indexOf takes a number, fill
  // takes no string).
  function buffer(B, nb) {
    const from0 = B.from, alloc0 = B.alloc, proto = B.prototype
    const U8 = Object.getPrototypeOf(proto).constructor
    const sub = (b, s, e) => U8.prototype.subarray.call(b, s, e)
    const wrap = (ab) => from0(ab) // a Buffer over ab, no copy
    const isU8 = (v) => v instanceof U8
    const typeName = (v) => (v === null ? 'null' : typeof v === 'object' ? 'an instance of ' + ((v.constructor && v.constructor.name) || 'Object') : 'type ' + typeof v + ' (' + String(v) + ')')
    const argType = (name, want, v) => {
      const e = new TypeError(`The "${name}" argument must be ${want}. Received ${typeName(v)}`)
      e.code = 'ERR_INVALID_ARG_TYPE'
      return e
    }
    const outOfRange = (name, v) => {
      const e = new RangeError(`The value of "${name}" is out of range. Received ${v}`)
      e.code = 'ERR_OUT_OF_RANGE'
      return e
    }
    // Buffer(n) and new Buffer(n) refuse in goja_nodejs; TypedArray
    // methods that make a new array (map, filter, subarray) call the
    // species with a length or with a buffer and range.
    function BufferSpecies(a, off, len) { return typeof a === 'number' ? alloc0(a) : from0(a, off, len) }
    BufferSpecies.prototype = proto
    Object.defineProperty(B, Symbol.species, { get() { return BufferSpecies }, configurable: true })

    B.from = function from(v, a, b) {
      if (typeof v === 'string') return wrap(nb.decode(v, a))
      // goja_nodejs exports the view; an empty one at the end of its
      // buffer makes goja point past it (fatal under checkptr).
      if (ArrayBuffer.isView(v) && v.byteLength === 0) return alloc0(0)
      return from0(v, a, b)
    }
    B.of = function of(...items) { return from0(items) }
    B.alloc = function alloc(size, fill, enc) {
      if (typeof size !== 'number') throw argType('size', 'of type number', size)
      if (!(size >= 0 && size <= 2 ** 32)) throw outOfRange('size', size)
      const b = alloc0(size)
      if (fill !== undefined && fill !== 0 && b.length > 0) b.fill(fill, enc)
      return b
    }
    // Buffer.alloc as the tool sees it (guarded for memory), not B's.
    B.allocUnsafe = function allocUnsafe(size) { return Buffer.alloc(size) }
    B.allocUnsafeSlow = function allocUnsafeSlow(size) { return Buffer.alloc(size) }
    B.isBuffer = function isBuffer(v) { return v instanceof B }
    B.isEncoding = function isEncoding(e) { return typeof e === 'string' && e.length !== 0 && nb.encoding(e) !== '' }
    B.byteLength = function byteLength(v, enc) {
      if (typeof v === 'string') return nb.byteLength(v, nb.encoding(String(enc === undefined ? 'utf8' : enc)) || 'utf8')
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && v instanceof SharedArrayBuffer)) return v.byteLength
      throw argType('string', 'of type string or an instance of Buffer or ArrayBuffer', v)
    }
    B.compare = function compare(a, b) {
      if (!isU8(a)) throw argType('buf1', 'an instance of Buffer or Uint8Array', a)
      if (!isU8(b)) throw argType('buf2', 'an instance of Buffer or Uint8Array', b)
      return nb.compare(a, b)
    }

    proto.compare = function compare(target, ts, te, ss, se) {
      if (!isU8(target)) throw argType('target', 'an instance of Buffer or Uint8Array', target)
      ts = ts === undefined ? 0 : ts; te = te === undefined ? target.length : te
      ss = ss === undefined ? 0 : ss; se = se === undefined ? this.length : se
      if (ts < 0 || ts > target.length) throw outOfRange('targetStart', ts)
      if (te < 0 || te > target.length) throw outOfRange('targetEnd', te)
      if (ss < 0 || ss > this.length) throw outOfRange('sourceStart', ss)
      if (se < 0 || se > this.length) throw outOfRange('sourceEnd', se)
      if (ss >= se) return ts >= te ? 0 : -1
      if (ts >= te) return 1
      return nb.compare(sub(this, ss, se), sub(target, ts, te))
    }
    // Node's slice is subarray: it shares memory with the buffer.
    proto.slice = function slice(s, e) { return sub(this, s, e) }
    proto.toJSON = function toJSON() { return { type: 'Buffer', data: Array.from(this) } }
    proto.toLocaleString = proto.toString

    // search is Node's bidirectionalIndexOf.
    const search = (buf, v, off, enc, forward) => {
      if (typeof off === 'string') { enc = off; off = undefined }
      else if (off > 0x7fffffff) off = 0x7fffffff
      else if (off < -0x80000000) off = -0x80000000
      off = +off
      if (Number.isNaN(off)) off = forward ? 0 : buf.length
      off = Math.trunc(off)
      let needle
      if (typeof v === 'number') needle = from0([(v >>> 0) & 255])
      else if (typeof v === 'string') needle = wrap(nb.decode(v, enc))
      else if (isU8(v)) needle = v
      else throw argType('value', 'one of type number or string or an instance of Buffer or Uint8Array', v)
      return nb.indexOf(buf, needle, off, forward)
    }
    proto.indexOf = function indexOf(v, off, enc) { return search(this, v, off, enc, true) }
    proto.lastIndexOf = function lastIndexOf(v, off, enc) { return search(this, v, off, enc, false) }
    proto.includes = function includes(v, off, enc) { return search(this, v, off, enc, true) !== -1 }

    proto.fill = function fill(v, off, end, enc) {
      if (typeof off === 'string') { enc = off; off = undefined; end = undefined } else if (typeof end === 'string') { enc = end; end = undefined }
      off = off === undefined ? 0 : off; end = end === undefined ? this.length : end
      if (off < 0 || off > this.length) throw outOfRange('offset', off)
      if (end < 0 || end > this.length) throw outOfRange('end', end)
      if (end <= off) return this
      let bytes
      if (typeof v === 'string') {
        bytes = v.length === 0 ? from0([0]) : wrap(nb.decode(v, enc))
        if (bytes.length === 0) { const e = new TypeError(`The argument 'value' is invalid. Received '${v}'`); e.code = 'ERR_INVALID_ARG_VALUE'; throw e }
      } else if (isU8(v)) {
        bytes = v
      } else {
        U8.prototype.fill.call(this, (typeof v === 'boolean' ? Number(v) : v) & 255, off, end)
        return this
      }
      nb.fill(this, bytes, off, end)
      return this
    }

    proto.write = function write(s, off, len, enc) {
      if (typeof s !== 'string') throw argType('argument', 'of type string', s)
      if (typeof off === 'string') { enc = off; off = 0; len = undefined } else if (typeof len === 'string') { enc = len; len = undefined }
      off = off === undefined ? 0 : off >>> 0
      if (off > this.length) throw outOfRange('offset', off)
      const room = this.length - off
      len = len === undefined ? room : Math.min(room, len >>> 0)
      enc = nb.encoding(String(enc === undefined ? 'utf8' : enc))
      if (enc === '') throw new TypeError('Unknown encoding: ' + arguments[3])
      const bytes = wrap(nb.decode(s, enc))
      let k = Math.min(bytes.length, len)
      // Node writes no part of a character that does not fit.
      if (k < bytes.length) {
        if (enc === 'utf8') { while (k > 0 && (bytes[k] & 0xc0) === 0x80) k-- }
        else if (enc === 'utf16le') k -= k % 2
      }
      this.set(sub(bytes, 0, k), off)
      return k
    }

    proto.copy = function copy(target, ts, ss, se) {
      if (!isU8(target)) throw argType('target', 'an instance of Buffer or Uint8Array', target)
      ts = ts === undefined ? 0 : Math.trunc(ts) || 0
      ss = ss === undefined ? 0 : Math.trunc(ss) || 0
      se = se === undefined ? this.length : Math.min(Math.trunc(se) || 0, this.length)
      if (ts < 0) throw outOfRange('targetStart', ts)
      if (ss < 0 || ss > this.length) throw outOfRange('sourceStart', ss)
      if (ts >= target.length || ss >= se) return 0
      const k = Math.min(se - ss, target.length - ts)
      target.set(sub(this, ss, ss + k), ts)
      return k
    }

    // Buffer itself: goja_nodejs's constructor refuses a size (Buffer(n)
    // and new Buffer(n), deprecated in Node but still answered there), so
    // the Buffer tools see is this function over the same prototype and
    // statics (its hidden ones too: goja_nodejs finds itself through them).
    function Buffer(arg, encodingOrOffset, length) {
      if (typeof arg === 'number') {
        if (typeof encodingOrOffset === 'string') throw argType('string', 'of type string', arg)
        return Buffer.alloc(arg)
      }
      return Buffer.from(arg, encodingOrOffset, length)
    }
    Object.setPrototypeOf(Buffer, U8)
    for (const k of Reflect.ownKeys(B)) {
      if (k !== 'length' && k !== 'name' && k !== 'prototype') Object.defineProperty(Buffer, k, Object.getOwnPropertyDescriptor(B, k))
    }
    Object.defineProperty(Buffer, 'prototype', { value: proto, writable: false, enumerable: false, configurable: false })
    Object.defineProperty(proto, 'constructor', { value: Buffer, writable: true, enumerable: false, configurable: true })
    return Buffer
  }

  // weakRefs: goja has neither WeakRef nor FinalizationRegistry. This
  // WeakRef keeps its target for as long as the WeakRef lives (deref
  // always answers it, which the spec allows: a target may never be
  // collected), and the registry never calls back (also allowed).
  function weakRefs() {
    const targets = new WeakMap()
    const canBeHeldWeakly = (v) => (typeof v === 'object' && v !== null) || typeof v === 'function' || (typeof v === 'symbol' && Symbol.keyFor(v) === undefined)
    class WeakRef {
      constructor(target) {
        if (!canBeHeldWeakly(target)) throw new TypeError('WeakRef: target must be an object')
        targets.set(this, target)
      }
      deref() {
        if (!targets.has(this)) throw new TypeError("WeakRef.prototype.deref: 'this' is not a WeakRef")
        return targets.get(this)
      }
    }
    Object.defineProperty(WeakRef.prototype, Symbol.toStringTag, { value: 'WeakRef', configurable: true })

    // Counts of live registrations by unregister token, held weakly.
    const tokens = new WeakMap()
    class FinalizationRegistry {
      constructor(cleanup) {
        if (typeof cleanup !== 'function') throw new TypeError('FinalizationRegistry: cleanup must be callable')
        tokens.set(this, new WeakMap())
      }
      register(target, held, token) {
        const own = tokens.get(this)
        if (!own) throw new TypeError("FinalizationRegistry.prototype.register: 'this' is not a FinalizationRegistry")
        if (!canBeHeldWeakly(target)) throw new TypeError('FinalizationRegistry.prototype.register: invalid target')
        if (target === held) throw new TypeError('FinalizationRegistry.prototype.register: target and holdings must not be same')
        if (token !== undefined) {
          if (!canBeHeldWeakly(token)) throw new TypeError('FinalizationRegistry.prototype.register: invalid unregister token')
          own.set(token, (own.get(token) || 0) + 1)
        }
      }
      unregister(token) {
        const own = tokens.get(this)
        if (!own) throw new TypeError("FinalizationRegistry.prototype.unregister: 'this' is not a FinalizationRegistry")
        if (!canBeHeldWeakly(token)) throw new TypeError('Invalid unregisterToken')
        const had = own.has(token)
        own.delete(token)
        return had
      }
    }
    Object.defineProperty(FinalizationRegistry.prototype, Symbol.toStringTag, { value: 'FinalizationRegistry', configurable: true })
    return { WeakRef, FinalizationRegistry }
  }

  // performance is the User Timing part of Node's perf_hooks: now and
  // timeOrigin (Go), marks and measures.
  function performance() {
    const entries = []
    const now = () => n.now()
    class PerformanceEntry {
      constructor(name, entryType, startTime, duration, detail) {
        this.name = name; this.entryType = entryType; this.startTime = startTime; this.duration = duration; this.detail = detail
      }
      toJSON() { return { name: this.name, entryType: this.entryType, startTime: this.startTime, duration: this.duration, detail: this.detail } }
    }
    class PerformanceMark extends PerformanceEntry {}
    class PerformanceMeasure extends PerformanceEntry {}
    const domError = (msg, name) => { const D = g.DOMException; return D ? new D(msg, name) : new SyntaxError(msg) }
    const markTime = (name) => {
      if (typeof name === 'number') return name
      for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && entries[i].name === name) return entries[i].startTime
      throw domError(`The "${name}" performance mark has not been set`, 'SyntaxError')
    }
    const perf = {
      now,
      get timeOrigin() { return n.timeOrigin },
      mark(name, options) {
        if (name === undefined) throw new TypeError('The "name" argument must be specified')
        const startTime = options && options.startTime !== undefined ? options.startTime : now()
        if (typeof startTime !== 'number' || startTime < 0) throw new TypeError('The "options.startTime" property must be a non-negative number')
        const m = new PerformanceMark(String(name), 'mark', startTime, 0, options && options.detail !== undefined ? options.detail : null)
        entries.push(m)
        return m
      },
      measure(name, start, end) {
        let detail = null, s, e
        if (start !== null && typeof start === 'object') {
          const o = start
          detail = o.detail !== undefined ? o.detail : null
          if (o.duration !== undefined && o.start !== undefined && o.end !== undefined) throw new TypeError('The options "start", "end" and "duration" cannot all be set')
          s = o.start !== undefined ? markTime(o.start) : undefined
          e = o.end !== undefined ? markTime(o.end) : undefined
          if (o.duration !== undefined) { if (s === undefined) s = (e === undefined ? now() : e) - o.duration; else e = s + o.duration }
          if (s === undefined) s = 0
          if (e === undefined) e = now()
        } else {
          s = start === undefined ? 0 : markTime(start)
          e = end === undefined ? now() : markTime(end)
        }
        const m = new PerformanceMeasure(String(name), 'measure', s, e - s, detail)
        entries.push(m)
        return m
      },
      getEntries() { return entries.slice().sort((a, b) => a.startTime - b.startTime) },
      getEntriesByName(name, type) { return perf.getEntries().filter((x) => x.name === name && (type === undefined || x.entryType === type)) },
      getEntriesByType(type) { return perf.getEntries().filter((x) => x.entryType === type) },
      clearMarks(name) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'mark' && (name === undefined || entries[i].name === name)) entries.splice(i, 1) },
      clearMeasures(name) { for (let i = entries.length - 1; i >= 0; i--) if (entries[i].entryType === 'measure' && (name === undefined || entries[i].name === name)) entries.splice(i, 1) },
      toJSON() { return { timeOrigin: n.timeOrigin } },
    }
    Object.defineProperty(perf, Symbol.toStringTag, { value: 'Performance', configurable: true })
    return { performance: perf, PerformanceEntry, PerformanceMark, PerformanceMeasure }
  }

  // stringDecoder is node:string_decoder: bytes in, text out, a character
  // split between writes kept until its end arrives.
  function stringDecoder() {
    const Buf = g.Buffer
    const norm = (enc) => {
      const e = String(enc === undefined || enc === null ? 'utf8' : enc).toLowerCase()
      const m = { 'utf8': 'utf8', 'utf-8': 'utf8', 'ucs2': 'utf16le', 'ucs-2': 'utf16le', 'utf16le': 'utf16le', 'utf-16le': 'utf16le', 'latin1': 'latin1', 'binary': 'latin1', 'base64': 'base64', 'base64url': 'base64url', 'hex': 'hex', 'ascii': 'ascii' }[e]
      if (!m) { const err = new TypeError('Unknown encoding: ' + enc); err.code = 'ERR_UNKNOWN_ENCODING'; throw err }
      return m
    }
    // incomplete is how many bytes at the end of b start a character
    // that is not complete.
    const incomplete = (b, enc) => {
      if (enc === 'utf8') {
        for (let k = 1; k <= Math.min(3, b.length); k++) {
          const c = b[b.length - k]
          if ((c & 0xc0) === 0x80) continue
          const need = c >= 0xf0 && c <= 0xf4 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 1
          return need > k && c >= 0xc2 ? k : 0
        }
        return 0
      }
      if (enc === 'utf16le') {
        let k = b.length % 2
        if (b.length - k >= 2) { const hi = b[b.length - k - 1]; if (hi >= 0xd8 && hi <= 0xdb) k += 2 }
        return k
      }
      if (enc === 'base64' || enc === 'base64url') return b.length % 3
      return 0
    }
    class StringDecoder {
      constructor(encoding) { this.encoding = norm(encoding); Object.defineProperty(this, '_rest', { value: Buf.alloc(0), writable: true }) }
      write(buf) {
        if (typeof buf === 'string') return buf
        if (!ArrayBuffer.isView(buf)) { const e = new TypeError('The "buf" argument must be an instance of Buffer, TypedArray, or DataView.'); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
        const b = this._rest.length ? Buf.concat([this._rest, Buf.from(buf.buffer, buf.byteOffset, buf.byteLength)]) : Buf.from(buf.buffer, buf.byteOffset, buf.byteLength)
        const k = incomplete(b, this.encoding)
        this._rest = k > 0 ? Buf.from(b.subarray(b.length - k)) : Buf.alloc(0)
        return b.toString(this.encoding, 0, b.length - k)
      }
      end(buf) {
        let s = buf === undefined ? '' : this.write(buf)
        if (this._rest.length) {
          s += this.encoding === 'utf8' ? '\ufffd' : this._rest.toString(this.encoding)
          this._rest = Buf.alloc(0)
        }
        return s
      }
      text(buf, offset) { return this.write(buf.subarray(offset)) }
    }
    return { StringDecoder, default: { StringDecoder } }
  }

  // timersPromises is node:timers/promises.
  function timersPromises() {
    const abortError = (signal) => {
      const e = new Error('The operation was aborted'); e.name = 'AbortError'; e.code = 'ABORT_ERR'; e.cause = signal.reason
      return e
    }
    const later = (schedule, clear) => (value, options) => new Promise((resolve, reject) => {
      const signal = options && options.signal
      if (signal && signal.aborted) { reject(abortError(signal)); return }
      const onAbort = () => { clear(id); reject(abortError(signal)) }
      const id = schedule(() => { if (signal) signal.removeEventListener('abort', onAbort); resolve(value) })
      if (signal) signal.addEventListener('abort', onAbort, { once: true })
    })
    const setTimeout = (ms, value, options) => later((f) => g.setTimeout(f, ms), g.clearTimeout)(value, options)
    const setImmediate = (value, options) => later((f) => g.setTimeout(f, 0), g.clearTimeout)(value, options)
    const m = { setTimeout, setImmediate, scheduler: { wait: (ms, options) => setTimeout(ms, undefined, options), yield: () => setImmediate() } }
    m.default = m
    return m
  }

  // querystring is node:querystring.
  function querystring() {
    const escape = (s) => encodeURIComponent(String(s))
    // unescape decodes what it can: a malformed escape stays as it is, a
    // bad UTF-8 sequence becomes U+FFFD (Node's unescapeBuffer).
    const unescape = (s) => {
      try { return decodeURIComponent(s) } catch (e) { /* decoded byte by byte below */ }
      const bytes = []
      s.split(/(%[0-9a-fA-F]{2})/).forEach((part, i) => {
        if (i % 2 === 1) bytes.push(parseInt(part.slice(1), 16))
        else for (const b of g.Buffer.from(part)) bytes.push(b)
      })
      return g.Buffer.from(bytes).toString()
    }
    const prim = (v) => (typeof v === 'string' ? v : typeof v === 'number' && isFinite(v) ? '' + v : typeof v === 'bigint' ? '' + v : typeof v === 'boolean' ? (v ? 'true' : 'false') : '')
    function stringify(obj, sep, eq, options) {
      sep = sep || '&'; eq = eq || '='
      const enc = (options && typeof options.encodeURIComponent === 'function') ? options.encodeURIComponent : m.escape
      if (obj === null || typeof obj !== 'object') return ''
      const out = []
      for (const k of Object.keys(obj)) {
        const v = obj[k], ks = enc(prim(k)) + eq
        if (Array.isArray(v)) for (const x of v) out.push(ks + enc(prim(x)))
        else out.push(ks + enc(prim(v)))
      }
      return out.join(sep)
    }
    function parse(str, sep, eq, options) {
      sep = sep || '&'; eq = eq || '='
      const obj = { __proto__: null }
      if (typeof str !== 'string' || str.length === 0) return obj
      const dec = (options && typeof options.decodeURIComponent === 'function') ? options.decodeURIComponent : m.unescape
      let max = options && typeof options.maxKeys === 'number' ? options.maxKeys : 1000
      let parts = str.split(sep)
      if (max > 0 && parts.length > max) parts = parts.slice(0, max)
      for (const p of parts) {
        if (p.length === 0) continue
        const i = p.indexOf(eq)
        const k = dec((i >= 0 ? p.slice(0, i) : p).replace(/\+/g, ' '))
        const v = i >= 0 ? dec(p.slice(i + eq.length).replace(/\+/g, ' ')) : ''
        if (!(k in obj)) obj[k] = v
        else if (Array.isArray(obj[k])) obj[k].push(v)
        else obj[k] = [obj[k], v]
      }
      return obj
    }
    const m = { escape, unescape, stringify, parse, encode: stringify, decode: parse }
    m.default = m
    return m
  }

  // tty is node:tty: tools have no terminal.
  function tty() {
    class ReadStream { constructor() { throw new Error('node:tty streams are not available to tools: they have no terminal') } }
    class WriteStream { constructor() { throw new Error('node:tty streams are not available to tools: they have no terminal') } }
    const m = { isatty: () => false, ReadStream, WriteStream }
    m.default = m
    return m
  }

  // diagnosticsChannel is node:diagnostics_channel (lib/diagnostics_channel.js
  // without stores): named channels whose publish calls the subscribers.
  function diagnosticsChannel() {
    const channels = new Map()
    class Channel {
      constructor(name) { this.name = name; this._subscribers = [] }
      get hasSubscribers() { return this._subscribers.length > 0 }
      subscribe(fn) {
        if (typeof fn !== 'function') { const e = new TypeError('The "subscription" argument must be of type function. Received ' + (fn === null ? 'null' : typeof fn)); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
        this._subscribers = [...this._subscribers, fn]
      }
      unsubscribe(fn) {
        const i = this._subscribers.indexOf(fn)
        if (i < 0) return false
        this._subscribers = this._subscribers.filter((_, j) => j !== i)
        return true
      }
      publish(data) {
        for (const fn of this._subscribers) {
          try { fn(data, this.name) } catch (e) { queueMicrotask(() => { throw e }) }
        }
      }
      runStores(data, fn, thisArg, ...args) { this.publish(data); return fn.apply(thisArg, args) }
      bindStore() { throw new Error('diagnostics_channel stores are not available to tools: they have no async context') }
      unbindStore() { return false }
    }
    const channel = (name) => {
      let c = channels.get(name)
      if (!c) { c = new Channel(name); channels.set(name, c) }
      return c
    }
    class TracingChannel {
      constructor(name) {
        for (const k of ['start', 'end', 'asyncStart', 'asyncEnd', 'error']) this[k] = typeof name === 'string' ? channel(`tracing:${name}:${k}`) : name[k]
      }
      get hasSubscribers() { return ['start', 'end', 'asyncStart', 'asyncEnd', 'error'].some((k) => this[k].hasSubscribers) }
      subscribe(h) { for (const k in h) this[k]?.subscribe(h[k]) }
      unsubscribe(h) { let ok = true; for (const k in h) ok = this[k]?.unsubscribe(h[k]) && ok; return ok }
      traceSync(fn, ctx = {}, thisArg, ...args) {
        this.start.publish(ctx)
        try { ctx.result = fn.apply(thisArg, args); return ctx.result } catch (e) { ctx.error = e; this.error.publish(ctx); throw e } finally { this.end.publish(ctx) }
      }
      tracePromise(fn, ctx = {}, thisArg, ...args) {
        this.start.publish(ctx)
        try {
          return Promise.resolve(fn.apply(thisArg, args)).then((r) => { ctx.result = r; this.asyncStart.publish(ctx); this.asyncEnd.publish(ctx); return r },
            (e) => { ctx.error = e; this.error.publish(ctx); this.asyncStart.publish(ctx); this.asyncEnd.publish(ctx); throw e })
        } catch (e) { ctx.error = e; this.error.publish(ctx); throw e } finally { this.end.publish(ctx) }
      }
      traceCallback(fn, position = -1, ctx = {}, thisArg, ...args) {
        const i = position < 0 ? args.length + position : position
        const cb = args[i]
        args[i] = (err, res) => {
          if (err) { ctx.error = err; this.error.publish(ctx) } else ctx.result = res
          this.asyncStart.publish(ctx)
          try { return cb.call(thisArg, err, res) } finally { this.asyncEnd.publish(ctx) }
        }
        return this.traceSync(fn, ctx, thisArg, ...args)
      }
    }
    const m = {
      channel, Channel, hasSubscribers: (name) => channels.get(name)?.hasSubscribers ?? false,
      subscribe: (name, fn) => channel(name).subscribe(fn), unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
      tracingChannel: (name) => new TracingChannel(name),
    }
    m.default = m
    return m
  }

  // asyncHooks is node:async_hooks as far as it holds without async
  // context (goja has no promise hooks): AsyncResource runs functions as
  // they are; AsyncLocalStorage, whose store would be lost at the first
  // await (a silent wrong answer), is refused.
  function asyncHooks() {
    class AsyncResource {
      constructor(type) { this.type = type }
      runInAsyncScope(fn, thisArg, ...args) { return fn.apply(thisArg, args) }
      bind(fn, thisArg) { return thisArg === undefined ? fn : fn.bind(thisArg) }
      static bind(fn, type, thisArg) { return new AsyncResource(type).bind(fn, thisArg) }
      emitDestroy() { return this }
      asyncId() { return 1 }
      triggerAsyncId() { return 0 }
    }
    class AsyncLocalStorage {
      constructor() { throw new Error('AsyncLocalStorage is not available to tools: the host keeps no async context, so its store would be lost at the first await') }
    }
    const m = { AsyncResource, AsyncLocalStorage, executionAsyncId: () => 1, triggerAsyncId: () => 0, executionAsyncResource: () => ({}),
      createHook: () => ({ enable() { return this }, disable() { return this } }) }
    m.default = m
    return m
  }

  // timers is node:timers: the global timers, and promises.
  function timers(promises) {
    const m = { setTimeout, clearTimeout, setInterval, clearInterval, setImmediate: g.setImmediate, clearImmediate: g.clearImmediate, promises }
    m.default = m
    return m
  }

  // dns is node:dns as packages read it at import; a lookup throws: the
  // host resolves names itself when a tool fetches.
  function dns() {
    const refuse = (what) => () => { throw new Error(`dns.${what} is not available to tools: fetch and node:http(s) resolve names themselves`) }
    const names = ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveNs', 'resolveTxt', 'resolveSrv', 'reverse']
    const m = {}
    for (const k of names) m[k] = refuse(k)
    m.promises = {}
    for (const k of names) m.promises[k] = refuse(k)
    Object.assign(m, { ADDRCONFIG: 1024, V4MAPPED: 2048, ALL: 256, NOTFOUND: 'ENOTFOUND', getDefaultResultOrder: () => 'ipv4first', setDefaultResultOrder() {}, getServers: () => [], setServers() {} })
    m.default = m
    return m
  }

  // workerThreads is node:worker_threads for a tool, always the main
  // thread; starting a worker throws.
  function workerThreads() {
    class Worker { constructor() { throw new Error('worker_threads Workers are not available to tools: a tool runs on one thread') } }
    const m = { isMainThread: true, parentPort: null, workerData: null, threadId: 0, resourceLimits: {}, Worker,
      markAsUncloneable() {}, markAsUntransferable() {}, isMarkedAsUntransferable: () => false,
      MessageChannel: g.MessageChannel, MessagePort: g.MessagePort, BroadcastChannel: g.BroadcastChannel,
      getEnvironmentData() {}, setEnvironmentData() {} }
    m.default = m
    return m
  }

  // deepEqual is Node's isDeepStrictEqual (strict) and assert.deepEqual's
  // loose comparison: prototypes and tags (strict), Date, RegExp, boxed
  // primitives, errors, typed arrays and buffers, Map, Set, own enumerable
  // keys (and symbols, strict), cycles.
  function deepEqual(a, b, strict, memo) {
    if (strict ? Object.is(a, b) : (a == b || (a !== a && b !== b))) return true // eslint-disable-line eqeqeq
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
      return !strict && (typeof a !== 'object' || a === null) && (typeof b !== 'object' || b === null) ? a == b : false // eslint-disable-line eqeqeq
    }
    const tag = Object.prototype.toString.call(a)
    if (tag !== Object.prototype.toString.call(b)) return false
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false
    if (Array.isArray(a) !== Array.isArray(b)) return false
    if (!memo) memo = new Map()
    let seen = memo.get(a)
    if (seen && seen.has(b)) return true
    if (!seen) { seen = new Set(); memo.set(a, seen) }
    seen.add(b)
    if (a instanceof Date) { if (a.getTime() !== b.getTime()) return false }
    else if (a instanceof RegExp) { if (a.source !== b.source || a.flags !== b.flags || a.lastIndex !== b.lastIndex) return false }
    else if (a instanceof Error) { if (a.message !== b.message || a.name !== b.name) return false }
    else if (['[object Number]', '[object String]', '[object Boolean]', '[object BigInt]', '[object Symbol]'].includes(tag)) { if (!Object.is(a.valueOf(), b.valueOf())) return false }
    if (ArrayBuffer.isView(a) || a instanceof ArrayBuffer) {
      const x = a instanceof ArrayBuffer ? new Uint8Array(a) : new Uint8Array(a.buffer, a.byteOffset, a.byteLength)
      const y = b instanceof ArrayBuffer ? new Uint8Array(b) : new Uint8Array(b.buffer, b.byteOffset, b.byteLength)
      if (x.length !== y.length) return false
      if (!strict && !(a instanceof ArrayBuffer) && !(a instanceof Uint8Array) && !(a instanceof DataView)) {
        if (a.length !== b.length) return false
        for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i], false, memo)) return false
      } else {
        for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false
      }
    }
    if (a instanceof Map) {
      if (a.size !== b.size) return false
      const pending = []
      for (const [k, v] of a) {
        if ((typeof k !== 'object' || k === null) && b.has(k)) { if (!deepEqual(v, b.get(k), strict, memo)) return false } else pending.push([k, v])
      }
      const rest = [...b].filter(([k]) => (typeof k === 'object' && k !== null) || !a.has(k))
      for (const [k, v] of pending) {
        const i = rest.findIndex(([k2, v2]) => deepEqual(k, k2, strict, memo) && deepEqual(v, v2, strict, memo))
        if (i < 0) return false
        rest.splice(i, 1)
      }
    } else if (a instanceof Set) {
      if (a.size !== b.size) return false
      const pending = []
      for (const v of a) if (!((typeof v !== 'object' || v === null) && b.has(v))) pending.push(v)
      const rest = [...b].filter((v) => (typeof v === 'object' && v !== null) || !a.has(v))
      for (const v of pending) {
        const i = rest.findIndex((w) => deepEqual(v, w, strict, memo))
        if (i < 0) return false
        rest.splice(i, 1)
      }
    }
    const keys = (o) => {
      let k = Object.keys(o)
      if (ArrayBuffer.isView(o)) k = k.filter((x) => !/^(0|[1-9][0-9]*)$/.test(x))
      if (strict) k = k.concat(Object.getOwnPropertySymbols(o).filter((sym) => Object.prototype.propertyIsEnumerable.call(o, sym)))
      return k
    }
    if (Array.isArray(a) && a.length !== b.length) return false
    const ka = keys(a), kb = keys(b)
    if (ka.length !== kb.length) return false
    for (const k of ka) {
      if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false
      if (!deepEqual(a[k], b[k], strict, memo)) return false
    }
    return true
  }

  // assert is node:assert (and node:assert/strict).
  function assert(strictMode) {
    const inspect = (v) => n.util.inspect(v)
    class AssertionError extends Error {
      constructor(options) {
        super(options.message)
        this.name = 'AssertionError'
        this.code = 'ERR_ASSERTION'
        this.actual = options.actual
        this.expected = options.expected
        this.operator = options.operator
        this.generatedMessage = !options.userMessage
      }
    }
    const fail = (actual, expected, message, operator, generated) => {
      if (message instanceof Error) throw message
      throw new AssertionError({ message: message !== undefined ? String(message) : generated(), actual, expected, operator, userMessage: message !== undefined })
    }
    const ok = (...args) => {
      if (args.length === 0) fail(undefined, true, undefined, '==', () => 'No value argument passed to `assert.ok()`')
      if (!args[0]) fail(args[0], true, args[1], '==', () => `The expression evaluated to a falsy value:\n\n  assert.ok(${inspect(args[0])})\n`)
    }
    const m = function assert(...args) { ok(...args) }
    m.ok = ok
    m.AssertionError = AssertionError
    m.fail = (message = 'Failed') => { if (message instanceof Error) throw message; throw new AssertionError({ message, operator: 'fail', userMessage: true }) }
    m.strictEqual = (a, b, message) => {
      if (Object.is(a, b)) return
      const x = inspect(a), y = inspect(b)
      // Node adds the comparison to a message of the caller's too when it
      // is one line each.
      const also = !x.includes('\n') && !y.includes('\n') && typeof message === 'string' ? `\n\n${x} !== ${y}\n` : ''
      fail(a, b, message === undefined || also === '' ? message : message + also, 'strictEqual', () => `Expected values to be strictly equal:\n\n${x} !== ${y}\n`)
    }
    m.notStrictEqual = (a, b, message) => { if (Object.is(a, b)) fail(a, b, message, 'notStrictEqual', () => `Expected "actual" to be strictly unequal to: ${inspect(b)}`) }
    m.deepStrictEqual = (a, b, message) => { if (!deepEqual(a, b, true)) fail(a, b, message, 'deepStrictEqual', () => `Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ${inspect(a)}\n- ${inspect(b)}`) }
    m.notDeepStrictEqual = (a, b, message) => { if (deepEqual(a, b, true)) fail(a, b, message, 'notDeepStrictEqual', () => `Expected "actual" not to be strictly deep-equal to: ${inspect(b)}`) }
    m.equal = (a, b, message) => { if (!(a == b || (a !== a && b !== b))) fail(a, b, message, '==', () => `${inspect(a)} == ${inspect(b)}`) } // eslint-disable-line eqeqeq
    m.notEqual = (a, b, message) => { if (a == b || (a !== a && b !== b)) fail(a, b, message, '!=', () => `${inspect(a)} != ${inspect(b)}`) } // eslint-disable-line eqeqeq
    m.deepEqual = (a, b, message) => { if (!deepEqual(a, b, false)) fail(a, b, message, 'deepEqual', () => `Expected values to be loosely deep-equal:\n\n${inspect(a)}\n\nshould loosely deep-equal\n\n${inspect(b)}`) }
    m.notDeepEqual = (a, b, message) => { if (deepEqual(a, b, false)) fail(a, b, message, 'notDeepEqual', () => `"actual" deepEqual "expected"`) }
    m.match = (s, re, message) => { if (typeof s !== 'string' || !re.test(s)) fail(s, re, message, 'match', () => `The input did not match the regular expression ${re}. Input:\n\n${inspect(s)}\n`) }
    m.doesNotMatch = (s, re, message) => { if (typeof s === 'string' && re.test(s)) fail(s, re, message, 'doesNotMatch', () => `The input was expected to not match the regular expression ${re}. Input:\n\n${inspect(s)}\n`) }
    m.ifError = (v) => { if (v !== null && v !== undefined) { const msg = v && v.message !== undefined ? v.message : inspect(v); throw new AssertionError({ message: 'ifError got unwanted exception: ' + msg, actual: v, expected: null, operator: 'ifError' }) } }
    // check is what throws/rejects do with what was thrown.
    const check = (err, expected, message, op) => {
      if (expected === undefined) return
      if (typeof expected === 'function') {
        if (expected.prototype !== undefined && err instanceof expected) return
        if (Error.isPrototypeOf(expected) || expected === Error) {
          const got = err !== null && typeof err === 'object' && err.constructor ? err.constructor.name : typeof err
          fail(err, expected, message, op, () => `The error is expected to be an instance of "${expected.name}". Received "${got}"\n\nError message:\n\n${err && err.message}`)
        }
        if (expected.call({}, err) === true) return
        fail(err, expected, message, op, () => `The ${expected.name ? `"${expected.name}" ` : ''}validation function is expected to return "true". Received ${inspect(false)}`)
      }
      if (expected instanceof RegExp) {
        if (expected.test(String(err))) return
        fail(err, expected, message, op, () => `The input did not match the regular expression ${expected}. Input:\n\n${inspect(String(err))}\n`)
      }
      if (typeof expected === 'object' && expected !== null) {
        for (const k of Object.keys(expected)) {
          const want = expected[k], got = err == null ? undefined : err[k]
          const same = want instanceof RegExp && typeof got === 'string' ? want.test(got) : deepEqual(got, want, true)
          if (!same) fail(err, expected, message, op, () => `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  Comparison {\n+   ${k}: ${inspect(got)}\n-   ${k}: ${inspect(want)}\n  }`)
        }
      }
    }
    const missing = (expected, message, op, what) => {
      let msg = `Missing expected ${what}`
      if (typeof expected === 'function' && expected.name) msg += ` (${expected.name})`
      msg += typeof message === 'string' ? `: ${message}` : '.'
      throw new AssertionError({ message: msg, expected, operator: op, userMessage: false })
    }
    const NONE = {}
    m.throws = (fn, expected, message) => {
      if (typeof expected === 'string') { message = expected; expected = undefined }
      let err = NONE
      try { fn() } catch (e) { err = e }
      if (err === NONE) missing(expected, message, 'throws', 'exception')
      check(err, expected, message, 'throws')
    }
    m.doesNotThrow = (fn, expected, message) => {
      if (typeof expected === 'string') message = expected
      try { fn() } catch (e) { throw new AssertionError({ message: `Got unwanted exception${typeof message === 'string' ? ': ' + message : '.'}\nActual message: "${e && e.message}"`, actual: e, operator: 'doesNotThrow' }) }
    }
    m.rejects = async (p, expected, message) => {
      if (typeof expected === 'string') { message = expected; expected = undefined }
      let err = NONE
      try { await (typeof p === 'function' ? p() : p) } catch (e) { err = e }
      if (err === NONE) missing(expected, message, 'rejects', 'rejection')
      check(err, expected, message, 'rejects')
    }
    m.doesNotReject = async (p, expected, message) => {
      if (typeof expected === 'string') message = expected
      try { await (typeof p === 'function' ? p() : p) } catch (e) { throw new AssertionError({ message: `Got unwanted rejection${typeof message === 'string' ? ': ' + message : '.'}\nActual message: "${e && e.message}"`, actual: e, operator: 'doesNotReject' }) }
    }
    if (strictMode) { m.equal = m.strictEqual; m.notEqual = m.notStrictEqual; m.deepEqual = m.deepStrictEqual; m.notDeepEqual = m.notDeepStrictEqual }
    m.strict = strictMode ? m : assert(true)
    m.default = m
    return m
  }

  // zlib adds the callback forms to node:zlib's Sync functions (z): the
  // result or error arrives after the call, as in Node.
  function zlib(z) {
    for (const k of Object.keys(z)) {
      if (!k.endsWith('Sync')) continue
      const f = z[k]
      z[k.slice(0, -4)] = (data, opts, cb) => {
        if (typeof opts === 'function') { cb = opts; opts = undefined }
        if (typeof cb !== 'function') { const e = new TypeError('The "callback" argument must be of type function. Received ' + typeof cb); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
        let r, err = null
        try { r = f(data, opts) } catch (e) { err = e }
        Promise.resolve().then(() => cb(err, r))
      }
    }
    z.default = z
    return z
  }


  // readline is node:readline for reading lines from a stream: an
  // Interface over input that emits 'line' and 'close' and is async
  // iterable, as Node's. Lines end at \n, \r\n or \r (a \r\n split across
  // chunks is one end, as with crlfDelay: Infinity). Tools have no
  // terminal: what needs one (prompt, question, cursor moves) throws.
  function readline(ee, sd) {
    const { EventEmitter } = ee
    const { StringDecoder } = sd
    const noTerminal = (what) => () => { throw new Error('readline ' + what + ' is not available to tools: they have no terminal') }
    class Interface extends EventEmitter {
      constructor(input, output, completer, terminal) {
        super()
        const opts = input && typeof input.on !== 'function' && typeof input === 'object' ? input : { input, output, completer, terminal }
        if (!opts.input || typeof opts.input.on !== 'function') { const e = new TypeError('The "input" argument must be a readable stream'); e.code = 'ERR_INVALID_ARG_TYPE'; throw e }
        this.input = opts.input
        this.output = opts.output
        this.terminal = false
        this.line = ''
        this.closed = false
        this._decoder = new StringDecoder('utf8')
        this._rest = ''
        this._cr = false
        this._onData = (chunk) => this._feed(typeof chunk === 'string' ? chunk : this._decoder.write(chunk))
        this._onEnd = () => {
          const tail = this._decoder.end()
          if (tail) this._feed(tail)
          if (this._rest.length > 0) { const l = this._rest; this._rest = ''; this.emit('line', l) }
          this.close()
        }
        this.input.on('data', this._onData)
        this.input.on('end', this._onEnd)
        if (typeof this.input.resume === 'function') this.input.resume()
      }
      _feed(text) {
        if (this.closed) return
        let i = 0
        if (this._cr && text[0] === '\n') i = 1
        this._cr = false
        let start = i
        for (; i < text.length; i++) {
          const c = text[i]
          if (c !== '\n' && c !== '\r') continue
          const l = this._rest + text.slice(start, i)
          this._rest = ''
          if (c === '\r') { if (i + 1 < text.length) { if (text[i + 1] === '\n') i++ } else this._cr = true }
          start = i + 1
          this.emit('line', l)
          if (this.closed) return
        }
        this._rest += text.slice(start)
      }
      close() {
        if (this.closed) return
        this.closed = true
        this.input.removeListener('data', this._onData)
        this.input.removeListener('end', this._onEnd)
        if (typeof this.input.pause === 'function') this.input.pause()
        this.emit('close')
      }
      pause() { if (typeof this.input.pause === 'function') this.input.pause(); this.emit('pause'); return this }
      resume() { if (typeof this.input.resume === 'function') this.input.resume(); this.emit('resume'); return this }
      [Symbol.asyncIterator]() {
        const queue = [], waiting = []
        let done = this.closed
        const push = (r) => { const w = waiting.shift(); if (w) w(r); else queue.push(r) }
        this.on('line', (l) => push({ value: l, done: false }))
        this.on('close', () => { done = true; while (waiting.length) waiting.shift()({ value: undefined, done: true }) })
        const it = {
          next: () => queue.length ? Promise.resolve(queue.shift()) : done ? Promise.resolve({ value: undefined, done: true }) : new Promise((res) => waiting.push(res)),
          return: () => { this.close(); return Promise.resolve({ value: undefined, done: true }) },
          [Symbol.asyncIterator]() { return it },
        }
        return it
      }
    }
    for (const k of ['prompt', 'setPrompt', 'getPrompt', 'question', 'write', 'getCursorPos']) Interface.prototype[k] = noTerminal(k + '()')
    const createInterface = (input, output, completer, terminal) => new Interface(input, output, completer, terminal)
    const m = { Interface, createInterface }
    for (const k of ['clearLine', 'clearScreenDown', 'cursorTo', 'moveCursor', 'emitKeypressEvents']) m[k] = noTerminal(k + '()')
    m.default = m
    return m
  }

  return { events, util, fsPromises, fsCallbacks, buffer, weakRefs, performance, stringDecoder, timersPromises, querystring, tty, assert, zlib, readline, diagnosticsChannel, asyncHooks, timers, dns, workerThreads }
})
