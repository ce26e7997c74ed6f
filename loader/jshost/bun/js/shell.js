// Bun.$, the shell template, over the Go binding run(script, cwd, env,
// onDone) (shell.go: mvdan.cc/sh's interpreter, programs started through
// the launcher). The template's values are quoted as $.escape quotes
// them, so each is one word (an array, one word per element; {raw} as
// written). Shapes and messages are Bun 1.x's: ShellPromise, ShellOutput,
// ShellError "Failed with exit code N".
(function (g, run) {
  'use strict'

  const asyncIterator = Symbol.asyncIterator || Symbol.for('Symbol.asyncIterator')
  const toBuffer = (u8) => g.Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength)

  // escape is Bun's $.escape: a word with no character the shell reads
  // specially is left as it is, else it is double-quoted.
  function escape(s) {
    s = String(s)
    if (s !== '' && /^[A-Za-z0-9\-_./:@%+\u0080-\uffff]+$/.test(s)) return s
    return '"' + dq(s) + '"'
  }

  // interpolate is a value as the script's text. Outside quotes it is
  // one word (an array: one per element). Inside a quoted word of the
  // template ('...${v}...' or "...${v}..."), Bun inserts the value's text
  // into that word as it is, never read as shell syntax: the quote is
  // closed, the text added double-quoted, the quote opened again.
  function interpolate(v, quote) {
    if (Array.isArray(v)) return quote ? literal(v.map(String).join(' '), quote) : v.map((x) => interpolate(x, '')).join(' ')
    if (v && typeof v === 'object') {
      if (typeof v.raw === 'string') return v.raw
      if (v instanceof ShellOutput || ArrayBuffer.isView(v) || v instanceof ArrayBuffer ||
        (typeof g.Response === 'function' && v instanceof g.Response) || (typeof g.Blob === 'function' && v instanceof g.Blob)) {
        throw new TypeError('Bun.$: interpolating a Buffer, a Response or a Blob (a redirection from or to it) is not supported in beeuni: pass strings, or write the data to a file')
      }
    }
    return quote ? literal(String(v), quote) : escape(v)
  }

  const dq = (s) => s.replace(/[\\"$`]/g, (c) => '\\' + c)
  function literal(s, quote) {
    return quote === "'" ? `'"${dq(s)}"'` : dq(s)
  }

  // quoteAfter is the quote open at the end of text, starting in quote
  // ('' none, "'" or '"'), as a POSIX shell reads it.
  function quoteAfter(text, quote) {
    for (let i = 0; i < text.length; i++) {
      const c = text[i]
      if (quote === "'") { if (c === "'") quote = ''; continue }
      if (c === '\\') { i++; continue }
      if (quote === '"') { if (c === '"') quote = ''; continue }
      if (c === "'" || c === '"') quote = c
    }
    return quote
  }

  function script(strings, values) {
    if (typeof strings === 'string') return strings
    let s = ''
    let quote = ''
    for (let i = 0; i < strings.length; i++) {
      const part = strings.raw ? strings.raw[i] : strings[i]
      s += part
      quote = quoteAfter(part, quote)
      if (i < values.length) s += interpolate(values[i], quote)
    }
    return s
  }

  class ShellError extends Error {
    constructor(out) {
      super(`Failed with exit code ${out.exitCode}`)
      this.name = 'ShellError'
      this.exitCode = out.exitCode
      this.stdout = out.stdout
      this.stderr = out.stderr
    }
    text(encoding) { return this.stdout.toString(encoding) }
    json() { return JSON.parse(this.stdout.toString()) }
    bytes() { return new Uint8Array(this.stdout) }
    arrayBuffer() { return this.stdout.buffer.slice(this.stdout.byteOffset, this.stdout.byteOffset + this.stdout.byteLength) }
  }

  class ShellOutput {
    constructor(stdout, stderr, exitCode) {
      this.stdout = stdout
      this.stderr = stderr
      this.exitCode = exitCode
    }
    text(encoding) { return this.stdout.toString(encoding) }
    json() { return JSON.parse(this.stdout.toString()) }
    bytes() { return new Uint8Array(this.stdout) }
    arrayBuffer() { return this.stdout.buffer.slice(this.stdout.byteOffset, this.stdout.byteOffset + this.stdout.byteLength) }
    blob() { return new g.Blob([this.stdout]) }
  }

  // defaults are what $.cwd(), $.env(), $.nothrow() and $.throws() set for
  // the shells made after.
  function make(defaults) {
    class ShellPromise {
      #script
      #cwd = defaults.cwd
      #env = defaults.env
      #quiet = false
      #throws = defaults.throws
      #promise = null
      constructor(s) {
        this.#script = s
        // Bun runs the command whether or not it is awaited.
        g.queueMicrotask(() => { this.#start() })
      }
      #start() {
        if (this.#promise) return this.#promise
        this.#promise = new Promise((resolve, reject) => {
          const env = this.#env === undefined ? g.process.env : this.#env
          run(this.#script, this.#cwd === undefined ? '' : String(this.#cwd), env, (err, code, stdout, stderr) => {
            if (err !== null) { reject(new Error('Bun.$: ' + err)); return }
            const out = new ShellOutput(toBuffer(stdout), toBuffer(stderr), code)
            if (!this.#quiet) {
              if (out.stdout.length && g.process?.stdout) g.process.stdout.write(out.stdout)
              if (out.stderr.length && g.process?.stderr) g.process.stderr.write(out.stderr)
            }
            if (code !== 0 && this.#throws) reject(new ShellError(out))
            else resolve(out)
          })
        })
        return this.#promise
      }
      #set(f) { if (this.#promise) throw new Error('Shell is already running'); f(); return this }
      quiet() { return this.#set(() => { this.#quiet = true }) }
      nothrow() { return this.#set(() => { this.#throws = false }) }
      throws(v) { return this.#set(() => { this.#throws = v !== false }) }
      cwd(dir) { return this.#set(() => { this.#cwd = dir }) }
      env(env) { return this.#set(() => { this.#env = env }) }
      then(ok, fail) { return this.#start().then(ok, fail) }
      catch(fail) { return this.#start().catch(fail) }
      finally(f) { return this.#start().finally(f) }
      text(encoding) { this.#quiet = true; return this.#start().then((o) => o.text(encoding)) }
      json() { this.#quiet = true; return this.#start().then((o) => o.json()) }
      bytes() { this.#quiet = true; return this.#start().then((o) => o.bytes()) }
      arrayBuffer() { this.#quiet = true; return this.#start().then((o) => o.arrayBuffer()) }
      blob() { this.#quiet = true; return this.#start().then((o) => o.blob()) }
      // lines yields stdout's lines (the output is read whole first).
      lines() {
        this.#quiet = true
        const p = this.#start()
        let lines = null
        const it = {
          next: async () => {
            if (lines === null) {
              lines = (await p).stdout.toString().split('\n')
              if (lines.length && lines[lines.length - 1] === '') lines.pop()
            }
            return lines.length ? { value: lines.shift(), done: false } : { value: undefined, done: true }
          },
          return: async () => ({ value: undefined, done: true }),
          [asyncIterator]() { return it },
        }
        return it
      }
    }
    const $ = function (strings, ...values) { return new ShellPromise(script(strings, values)) }
    $.escape = escape
    $.braces = braces
    $.ShellError = ShellError
    $.ShellPromise = ShellPromise
    $.cwd = (dir) => { defaults.cwd = dir === undefined ? undefined : String(dir); return $ }
    $.env = (env) => { defaults.env = env; return $ }
    $.nothrow = () => { defaults.throws = false; return $ }
    $.throws = (v) => { defaults.throws = v !== false; return $ }
    $.Shell = function Shell() { return make({ throws: true }) }
    return $
  }

  // braces is Bun's $.braces: a{1,2}b -> [a1b, a2b], nested groups too.
  function braces(s) {
    const open = s.indexOf('{')
    if (open < 0) return [s]
    let depth = 0
    for (let i = open; i < s.length; i++) {
      if (s[i] === '{') depth++
      else if (s[i] === '}' && --depth === 0) {
        const parts = []
        let d = 0, start = open + 1
        for (let j = open + 1; j < i; j++) {
          if (s[j] === '{') d++
          else if (s[j] === '}') d--
          else if (s[j] === ',' && d === 0) { parts.push(s.slice(start, j)); start = j + 1 }
        }
        parts.push(s.slice(start, i))
        if (parts.length < 2) return braces(s.slice(0, open) + '\u0000' + s.slice(open + 1)).map((x) => x.replace('\u0000', '{'))
        const rest = s.slice(i + 1), head = s.slice(0, open)
        return parts.flatMap((p) => braces(head + p + rest))
      }
    }
    return [s]
  }

  return make({ throws: true })
})
