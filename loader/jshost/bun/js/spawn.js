// Bun.spawn and Bun.spawnSync over the host's process bindings (p: spawn
// and spawnSync of rt.ProcessNatives, which start every child confined
// through the launcher; 'stream' outputs are web ReadableStreams). The
// shapes and messages are Bun 1.x's: Subprocess with stdout as a
// ReadableStream, stdin as a FileSink, exited, exitCode, signalCode.
(function (g, p) {
  'use strict'

  const signals = { SIGHUP: 1, SIGINT: 2, SIGQUIT: 3, SIGKILL: 9, SIGUSR1: 10, SIGUSR2: 12, SIGPIPE: 13, SIGALRM: 14, SIGTERM: 15 }
  const stdioError = () => {
    const e = new TypeError("stdio must be an array of 'inherit', 'pipe', 'ignore', Bun.file(pathOrFd), number, or null")
    e.code = 'ERR_INVALID_ARG_TYPE'
    return e
  }
  const isBytes = (v) => v instanceof ArrayBuffer || ArrayBuffer.isView(v)
  const bytesOf = (v) => (v instanceof ArrayBuffer ? new Uint8Array(v) : new Uint8Array(v.buffer, v.byteOffset, v.byteLength))

  // args reads Bun.spawn(cmd, opts) and Bun.spawn({cmd, ...opts}).
  function args(cmd, opts, name) {
    if (cmd && typeof cmd === 'object' && !Array.isArray(cmd)) { opts = cmd; cmd = cmd.cmd }
    if (!Array.isArray(cmd) || cmd.length === 0) {
      const e = new TypeError(cmd === undefined ? 'cmd must be an array' : 'cmd must not be empty')
      e.code = 'ERR_INVALID_ARG_TYPE'
      throw e
    }
    opts = opts || {}
    const argv = cmd.map(String)
    const cwd = opts.cwd === undefined ? undefined : String(opts.cwd)
    const env = opts.env === undefined ? g.process?.env : opts.env
    return { name, argv, cwd, env, opts }
  }

  // mode is one stdio option as the host takes it; in ('pipe' or bytes) for stdin.
  function mode(v, def, out) {
    if (v === undefined) v = def
    if (v === null) return 'ignore'
    if (v === 'pipe' || v === 'ignore' || v === 'inherit') return v
    if (!out && (isBytes(v) || (typeof g.Blob === 'function' && v instanceof g.Blob) || (typeof g.Response === 'function' && v instanceof g.Response) ||
      (typeof g.Request === 'function' && v instanceof g.Request) || (typeof g.ReadableStream === 'function' && v instanceof g.ReadableStream))) return 'data'
    if (typeof v === 'number' || (v && typeof v === 'object')) {
      throw new TypeError('Bun.spawn: stdio to a file or a descriptor is not supported in beeuni: use "pipe" and write the output with Bun.write')
    }
    throw stdioError()
  }
  function modes(opts, sync) {
    const s = Array.isArray(opts.stdio) ? opts.stdio : []
    return [mode(opts.stdin !== undefined ? opts.stdin : s[0], 'ignore', false),
      mode(opts.stdout !== undefined ? opts.stdout : s[1], 'pipe', true),
      mode(opts.stderr !== undefined ? opts.stderr : s[2], sync ? 'pipe' : 'inherit', true)]
  }

  // bunError is Bun's error for a process that did not start.
  function bunError(e, file) {
    if (e && e.code === 'ENOENT') {
      const b = new Error(`Executable not found in $PATH: "${file}"`)
      b.code = 'ENOENT'
      b.path = file
      b.errno = -2
      return b
    }
    return e
  }
  const inherited = (i) => (i === 1 ? g.process?.stdout : g.process?.stderr)
  const forward = (i, chunk) => { const w = inherited(i); if (w && typeof w.write === 'function') w.write(chunk) }

  class FileSink {
    #h
    #pending = 0
    constructor(h) { this.#h = h }
    write(data) {
      const b = typeof data === 'string' ? new TextEncoder().encode(data) : bytesOf(data)
      this.#pending += b.byteLength
      this.#h.write(b, () => { this.#pending -= b.byteLength })
      return b.byteLength
    }
    flush() { return this.#pending }
    end(err) { this.#h.end(); return this.#pending }
    ref() {}
    unref() {}
  }

  class Subprocess {
    #h
    #killed = false
    constructor(h, stdin, stdout, stderr, exited) {
      this.#h = h
      Object.defineProperties(this, {
        stdin: { value: stdin, enumerable: false },
        stdout: { value: stdout, enumerable: false },
        stderr: { value: stderr, enumerable: false },
        exited: { value: exited, enumerable: false },
      })
      Object.defineProperty(this, 'exitCode', { writable: true, enumerable: false, value: null })
      Object.defineProperty(this, 'signalCode', { writable: true, enumerable: false, value: null })
    }
    get pid() { return this.#h.pid }
    get killed() { return this.#killed }
    get readable() { return this.stdout }
    kill(sig) {
      if (this.exitCode !== null || this.signalCode !== null) return
      if (this.#h.kill(sig === undefined ? 'SIGTERM' : sig)) this.#killed = true
    }
    ref() {}
    unref() {}
    [Symbol.dispose]() { this.kill() }
  }

  async function bytesOfData(v) {
    if (isBytes(v)) return bytesOf(v)
    return new Uint8Array(await new g.Response(v).arrayBuffer())
  }

  function spawn(cmd, options) {
    const a = args(cmd, options, 'spawn')
    const m = modes(a.opts, false)
    let resolveExit
    const exited = new Promise((r) => { resolveExit = r })
    let proc
    const onEvent = (type, x, y) => {
      if (type === 'stderr' || type === 'stdout') { forward(type === 'stdout' ? 1 : 2, x); return }
      if (type !== 'exit') return
      proc.exitCode = x
      proc.signalCode = y
      const code = x !== null ? x : 128 + (signals[y] || 0)
      resolveExit(code)
      // After exited's reactions, as Bun calls it.
      if (typeof a.opts.onExit === 'function') g.queueMicrotask(() => a.opts.onExit(proc, x, y))
    }
    const stdio = [m[0] === 'pipe' || m[0] === 'data' ? 'pipe' : 'ignore', // an inherited stdin is /dev/null: a tool has none
      m[1] === 'pipe' ? 'stream' : m[1] === 'inherit' ? 'pipe' : 'ignore',
      m[2] === 'pipe' ? 'stream' : m[2] === 'inherit' ? 'pipe' : 'ignore']
    let h
    try {
      h = p.spawn({ file: a.argv[0], args: a.argv, cwd: a.cwd, env: a.env, stdio, verb: 'spawn' }, onEvent)
    } catch (e) {
      throw bunError(e, a.argv[0])
    }
    let stdin
    if (m[0] === 'pipe') stdin = new FileSink(h)
    else if (m[0] === 'data') {
      bytesOfData(a.opts.stdin !== undefined ? a.opts.stdin : a.opts.stdio[0]).then((b) => { h.write(b, () => {}); h.end() }, () => h.end())
    }
    proc = new Subprocess(h, stdin, h.stdout, h.stderr, exited)
    if (a.opts.timeout > 0) {
      const t = setTimeout(() => proc.kill(a.opts.killSignal), a.opts.timeout)
      exited.then(() => clearTimeout(t))
    }
    if (a.opts.signal) {
      const onAbort = () => proc.kill(a.opts.killSignal)
      if (a.opts.signal.aborted) onAbort()
      else a.opts.signal.addEventListener('abort', onAbort, { once: true })
    }
    return proc
  }

  function spawnSync(cmd, options) {
    const a = args(cmd, options, 'spawnSync')
    const m = modes(a.opts, true)
    let input
    if (m[0] === 'data') {
      const v = a.opts.stdin !== undefined ? a.opts.stdin : a.opts.stdio[0]
      if (!isBytes(v)) throw new TypeError('Bun.spawnSync: stdin must be bytes (a TypedArray or an ArrayBuffer), "pipe", "inherit" or "ignore"')
      input = bytesOf(v)
    }
    const res = p.spawnSync({
      file: a.argv[0], args: a.argv, cwd: a.cwd, env: a.env, stdio: [input ? 'pipe' : 'ignore', m[1] === 'ignore' ? 'ignore' : 'pipe', m[2] === 'ignore' ? 'ignore' : 'pipe'],
      input, maxBuffer: a.opts.maxBuffer, timeout: a.opts.timeout, killSignal: a.opts.killSignal, verb: 'spawnSync',
    })
    if (res.error && res.pid === 0) throw bunError(res.error, a.argv[0])
    const buf = (u8) => (u8 ? g.Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) : undefined)
    const out = { exitCode: res.status, stdout: undefined, stderr: undefined, success: res.status === 0, resourceUsage: undefined, pid: res.pid }
    for (const [i, name] of [[1, 'stdout'], [2, 'stderr']]) {
      if (m[i] === 'inherit') { if (res[name] && res[name].length) forward(i, buf(res[name])) } else if (m[i] === 'pipe') out[name] = buf(res[name])
    }
    if (res.signal !== null) { out.signalCode = res.signal; out.exitCode = null }
    return out
  }

  return { spawn, spawnSync }
})
