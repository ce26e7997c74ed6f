// node:child_process over the host's process bindings (n: spawn and
// spawnSync of rt.ProcessNatives, which start every child confined
// through the launcher). Behaviour and messages are Node 20's
// lib/child_process.js: ChildProcess events, exec/execFile errors,
// the sync forms' results and errors.
(function (g, n, EventEmitter, stream, Buffer, promisifyCustom) {
  'use strict'

  const argType = (name, what, v) => {
    const e = new TypeError(`The "${name}" argument must be ${what}. Received ${v === null ? 'null' : typeof v === 'string' ? `type string ('${v}')` : 'type ' + typeof v}`)
    e.code = 'ERR_INVALID_ARG_TYPE'
    return e
  }
  const toBuffer = (u8) => (u8 == null ? u8 : Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength))
  const decode = (buf, encoding) => (encoding && encoding !== 'buffer' ? buf.toString(encoding) : buf)

  // normalize is Node's normalizeSpawnArguments: the file and argv the
  // child runs (a shell for options.shell), its folder and environment.
  function normalize(file, args, options) {
    if (typeof file !== 'string') throw argType('file', 'of type string', file)
    if (file.length === 0) { const e = new TypeError("The argument 'file' cannot be empty. Received ''"); e.code = 'ERR_INVALID_ARG_VALUE'; throw e }
    if (Array.isArray(args)) args = args.slice()
    else if (args == null) args = []
    else if (typeof args === 'object') { options = args; args = [] }
    else throw argType('args', 'an instance of Array', args)
    options = Object.assign({}, options)
    let cwd = options.cwd
    if (cwd instanceof URL) cwd = decodeURIComponent(cwd.pathname)
    if (cwd != null && typeof cwd !== 'string') throw argType('options.cwd', 'of type string or an instance of Buffer or URL', cwd)
    if (options.shell) {
      const command = args.length ? [file, ...args].join(' ') : file
      file = typeof options.shell === 'string' ? options.shell : '/bin/sh'
      args = ['-c', command]
    }
    const argv0 = typeof options.argv0 === 'string' ? options.argv0 : file
    const env = options.env || g.process?.env
    return { file, args: [argv0, ...args], spawnargs: [file, ...args], cwd, env, options }
  }

  // stdioModes maps options.stdio to what the host does with each stream:
  // 'inherit' is a pipe whose data goes to process.stdout / stderr.
  function stdioModes(stdio) {
    if (stdio === undefined || stdio === null) stdio = 'pipe'
    if (typeof stdio === 'string') stdio = [stdio, stdio, stdio]
    const modes = []
    for (let i = 0; i < 3; i++) {
      let m = stdio[i]
      if (m === undefined || m === null) m = 'pipe'
      if (m === 'overlapped') m = 'pipe'
      // The parent's own descriptor or stream is 'inherit'.
      if (m === i || (m !== null && typeof m === 'object' && m === [g.process?.stdin, g.process?.stdout, g.process?.stderr][i])) m = 'inherit'
      if (m !== 'pipe' && m !== 'ignore' && m !== 'inherit') {
        const e = new TypeError(`child_process: stdio ${typeof m === 'string' ? "'" + m + "'" : 'of type ' + typeof m} is not supported in beeuni: use 'pipe', 'inherit' or 'ignore'`)
        e.code = 'ERR_INVALID_ARG_VALUE'
        throw e
      }
      modes.push(m)
    }
    return modes
  }
  // hostModes is what the host does with each stream: an inherited
  // output is a pipe forwarded to process.stdout / stderr; an inherited
  // stdin is /dev/null (a tool has no input of its own to give).
  const hostModes = (modes) => modes.map((m, i) => (m !== 'inherit' ? m : i === 0 ? 'ignore' : 'pipe'))
  const inherited = (i) => (i === 1 ? g.process?.stdout : g.process?.stderr)

  class ChildProcess extends EventEmitter {
    constructor() {
      super()
      this.pid = undefined
      this.exitCode = null
      this.signalCode = null
      this.killed = false
      this.connected = false
      this.stdin = null
      this.stdout = null
      this.stderr = null
      this.stdio = [null, null, null]
      this.spawnfile = undefined
      this.spawnargs = []
      this._handle = null
    }

    spawn(opts) {
      const modes = stdioModes(opts.options.stdio)
      this.spawnfile = opts.file
      this.spawnargs = opts.spawnargs
      const outs = [null, null, null]
      let h
      for (const i of [1, 2]) {
        // A destroyed stream is no longer read: the child gets EPIPE (exec's maxBuffer).
        if (modes[i] === 'pipe') outs[i] = new stream.Readable({ read() {}, destroy(err, cb) { if (h) h.drop(i); cb(err) } })
      }
      let pending = 0
      let closed = null
      const maybeClose = () => { if (pending === 0 && closed) { const [c, s] = closed; closed = null; this.emit('close', c, s) } }
      const onEvent = (type, a, b) => {
        switch (type) {
          case 'stdout': case 'stderr': {
            const i = type === 'stdout' ? 1 : 2
            if (outs[i]) outs[i].push(toBuffer(a))
            else { const w = inherited(i); if (w && typeof w.write === 'function') w.write(toBuffer(a)) }
            return
          }
          case 'exit':
            this.exitCode = a
            this.signalCode = b
            if (this.stdin) this.stdin.destroy()
            this._handle = null
            this.emit('exit', a, b)
            return
          case 'close':
            for (const s of outs) {
              if (!s || s.destroyed) continue
              s.push(null)
              // A stream nobody reads would never end: it holds no close back.
              if (s.readableFlowing || s.listenerCount('readable') > 0) {
                pending++
                s.once('close', () => { pending--; maybeClose() })
              }
            }
            closed = [a, b]
            maybeClose()
        }
      }
      try {
        h = n.spawn({ file: opts.file, args: opts.args, cwd: opts.cwd, env: opts.env, stdio: hostModes(modes), verb: 'spawn' }, onEvent)
      } catch (e) {
        if (e === null || typeof e !== 'object' || typeof e.code !== 'string') throw e
        // As Node: the streams exist (and end), the exit code is the errno.
        this.stdout = outs[1]
        this.stderr = outs[2]
        this.stdio = [null, this.stdout, this.stderr]
        this.exitCode = e.errno
        g.process.nextTick(() => {
          for (const o of outs) if (o) o.push(null)
          this.emit('error', e)
          this.emit('close', e.errno, null)
        })
        return e
      }
      this._handle = h
      this.pid = h.pid
      if (modes[0] === 'pipe') {
        this.stdin = new stream.Writable({
          write(chunk, encoding, cb) {
            if (!h.write(typeof chunk === 'string' ? Buffer.from(chunk, encoding) : chunk, (err) => cb(err))) cb()
          },
          final(cb) { h.end(); cb() },
        })
        this.stdin.on('error', () => {}) // EPIPE from a child that stopped reading, as Node's net.Socket often is
      }
      this.stdout = outs[1]
      this.stderr = outs[2]
      this.stdio = [this.stdin, this.stdout, this.stderr]
      g.process.nextTick(() => this.emit('spawn'))
      return undefined
    }

    kill(sig) {
      if (!this._handle) return false
      const ok = this._handle.kill(sig === undefined ? 'SIGTERM' : sig)
      if (ok) this.killed = true
      return ok
    }

    ref() {}
    unref() {}
    disconnect() {}
    [Symbol.dispose]() { if (!this.killed) this.kill() }
  }

  const refuseIds = (o) => {
    for (const k of ['uid', 'gid']) {
      if (o[k] !== undefined) throw new Error(`child_process: options.${k} is not supported in beeuni: children run as the host's user`)
    }
  }

  function spawn(file, args, options) {
    const opts = normalize(file, args, options)
    refuseIds(opts.options)
    const child = new ChildProcess()
    child.spawn(opts)
    if (opts.options.timeout > 0) {
      let t = setTimeout(() => { if (t) { try { child.kill(opts.options.killSignal) } catch {} t = null } }, opts.options.timeout)
      child.once('exit', () => { if (t) { clearTimeout(t); t = null } })
    }
    if (opts.options.signal) abortWith(child, opts.options.signal, opts.options.killSignal)
    return child
  }

  function abortWith(child, signal, killSignal) {
    const onAbort = () => {
      if (child.kill(killSignal)) {
        const e = new Error('The operation was aborted', { cause: signal.reason })
        e.name = 'AbortError'
        e.code = 'ABORT_ERR'
        child.emit('error', e)
      }
    }
    if (signal.aborted) g.process.nextTick(onAbort)
    else { signal.addEventListener('abort', onAbort, { once: true }); child.once('exit', () => signal.removeEventListener('abort', onAbort)) }
  }

  const maxBufferError = (name) => {
    const e = new RangeError(`${name} maxBuffer length exceeded`)
    e.code = 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER'
    return e
  }

  function execFile(file, args, options, callback) {
    if (typeof args === 'function') { callback = args; args = []; options = {} }
    else if (typeof options === 'function') { callback = options; if (!Array.isArray(args) && args != null && typeof args === 'object') { options = args; args = [] } else options = {} }
    if (!Array.isArray(args) && args != null && typeof args === 'object') { callback = options; options = args; args = [] }
    options = Object.assign({ encoding: 'utf8', timeout: 0, maxBuffer: 1024 * 1024, killSignal: 'SIGTERM' }, options)
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, shell: options.shell, argv0: options.argv0, signal: options.signal, stdio: options.stdio })
    const chunks = { stdout: [], stderr: [] }
    const sizes = { stdout: 0, stderr: 0 }
    let ex = null
    let exited = false
    let killed = false
    const text = (name) => decode(Buffer.concat(chunks[name]), options.encoding)
    const exithandler = (code, signal) => {
      if (exited) return
      exited = true
      if (timer) clearTimeout(timer)
      const stdout = text('stdout'), stderr = text('stderr')
      if (!callback) return
      if (!ex && code === 0 && signal === null) { callback(null, stdout, stderr); return }
      let cmd = file
      if (args?.length) cmd += ` ${args.join(' ')}`
      if (!ex) {
        ex = new Error(`Command failed: ${cmd}\n${stderr}`)
        ex.code = code
        ex.killed = child.killed || killed
        ex.signal = signal
      }
      ex.cmd = cmd
      callback(ex, stdout, stderr)
    }
    const kill = () => {
      if (child.stdout) child.stdout.destroy()
      if (child.stderr) child.stderr.destroy()
      killed = true
      try { child.kill(options.killSignal) } catch (e) { ex = e; exithandler() }
    }
    let timer = options.timeout > 0 ? setTimeout(() => { timer = null; kill() }, options.timeout) : null
    for (const name of ['stdout', 'stderr']) {
      const s = child[name]
      if (!s) continue
      s.on('data', (chunk) => {
        const room = options.maxBuffer - sizes[name]
        if (chunk.length > room) {
          chunks[name].push(chunk.subarray(0, Math.max(room, 0)))
          sizes[name] = options.maxBuffer
          ex = maxBufferError(name)
          kill()
          return
        }
        sizes[name] += chunk.length
        chunks[name].push(chunk)
      })
    }
    child.addListener('close', exithandler)
    child.addListener('error', (e) => { ex = e; exithandler() })
    return child
  }
  Object.defineProperty(execFile, promisifyCustom, {
    enumerable: false,
    value: (...args) => {
      let child
      const p = new Promise((resolve, reject) => {
        child = execFile(...args, (err, stdout, stderr) => {
          if (err !== null) { err.stdout = stdout; err.stderr = stderr; reject(err) } else resolve({ stdout, stderr })
        })
      })
      p.child = child
      return p
    },
  })

  function exec(command, options, callback) {
    if (typeof options === 'function') { callback = options; options = undefined }
    options = Object.assign({}, options)
    options.shell = typeof options.shell === 'string' ? options.shell : true
    return execFile(command, [], options, callback)
  }
  Object.defineProperty(exec, promisifyCustom, {
    enumerable: false,
    value: (command, options) => execFile[promisifyCustom](command, [], Object.assign({}, options, { shell: typeof options?.shell === 'string' ? options.shell : true })),
  })

  function spawnSync(file, args, options) {
    const opts = normalize(file, args, options)
    const o = opts.options
    refuseIds(o)
    const modes = stdioModes(o.stdio)
    let input = o.input
    if (typeof input === 'string') input = Buffer.from(input, o.encoding && o.encoding !== 'buffer' ? o.encoding : 'utf8')
    else if (input != null && !ArrayBuffer.isView(input)) throw argType('options.stdio[0]', 'of type string or an instance of Buffer, TypedArray, or DataView', input)
    if (input != null && modes[0] !== 'pipe') input = undefined
    if (input != null && !(input instanceof Uint8Array)) input = new Uint8Array(input.buffer, input.byteOffset, input.byteLength)
    const res = n.spawnSync({
      file: opts.file, args: opts.args, cwd: opts.cwd, env: opts.env, stdio: hostModes(modes),
      input: input ?? (modes[0] === 'pipe' ? new Uint8Array(0) : undefined),
      maxBuffer: o.maxBuffer === undefined ? 1024 * 1024 : o.maxBuffer, timeout: o.timeout, killSignal: o.killSignal, verb: 'spawnSync',
    })
    const ret = res.error ? { error: res.error } : {}
    Object.assign(ret, { status: res.status, signal: res.signal, output: null, pid: res.pid, stdout: null, stderr: null })
    for (const [i, name] of [[1, 'stdout'], [2, 'stderr']]) {
      const buf = toBuffer(res[name])
      if (modes[i] === 'inherit') {
        const w = inherited(i)
        if (buf && buf.length && w && typeof w.write === 'function') w.write(buf)
        continue
      }
      if (buf) ret[name] = decode(buf, o.encoding)
    }
    ret.output = res.error && res.pid === 0 ? null : [null, ret.stdout, ret.stderr]
    if (res.error) ret.error.spawnargs = opts.spawnargs.slice(1)
    return ret
  }

  function checkExecSyncError(ret, args, cmd) {
    let err
    if (ret.error) {
      err = ret.error
      Object.assign(err, ret)
    } else if (ret.status !== 0) {
      let msg = 'Command failed: '
      msg += cmd || args.join(' ')
      if (ret.stderr && ret.stderr.length > 0) msg += `\n${ret.stderr.toString()}`
      err = new Error(msg)
      Object.assign(err, ret)
    }
    return err
  }

  // The sync exec forms write the child's stderr to the parent's unless
  // options.stdio says otherwise, as Node does.
  function syncOptions(options) {
    const o = Object.assign({}, options)
    const inheritStderr = !o.stdio
    if (inheritStderr) o.stdio = ['pipe', 'pipe', 'pipe']
    return [o, inheritStderr]
  }
  function forwardStderr(ret, inheritStderr) {
    const w = g.process?.stderr
    if (inheritStderr && ret.stderr && ret.stderr.length && w && typeof w.write === 'function') w.write(ret.stderr)
  }

  function execSync(command, options) {
    const [o, inheritStderr] = syncOptions(options)
    o.shell = typeof o.shell === 'string' ? o.shell : true
    const ret = spawnSync(command, [], o)
    forwardStderr(ret, inheritStderr)
    const err = checkExecSyncError(ret, undefined, command)
    if (err) throw err
    return ret.stdout
  }

  function execFileSync(file, args, options) {
    if (!Array.isArray(args) && args != null && typeof args === 'object') { options = args; args = [] }
    args = args || []
    const [o, inheritStderr] = syncOptions(options)
    const ret = spawnSync(file, args, o)
    forwardStderr(ret, inheritStderr)
    const err = checkExecSyncError(ret, [file, ...args], undefined)
    if (err) throw err
    return ret.stdout
  }

  const unsupported = (name) => function () {
    throw new Error(`child_process.${name} is not supported in beeuni: use spawn, exec or execFile`)
  }

  const m = { ChildProcess, spawn, exec, execFile, spawnSync, execSync, execFileSync, fork: unsupported('fork'), _forkChild: unsupported('_forkChild') }
  m.default = m
  return m
})
