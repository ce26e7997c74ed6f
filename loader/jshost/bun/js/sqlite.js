// bun:sqlite for tool modules: Database, Statement and SQLiteError as Bun
// has them, over the Go bindings n (sqlite.go, sqlitestmt.go: SQLite on
// github.com/ncruces/go-sqlite3). Called once per runtime, on the first
// require; it returns the module.
(function (n) {
  'use strict'
  const OPEN_READONLY = 0x1
  const OPEN_READWRITE = 0x2
  const OPEN_CREATE = 0x4
  const BIND_NONE = 0
  const BIND_LIST = 1
  const BIND_NAMED = 2

  class SQLiteError extends Error {}
  Object.defineProperty(SQLiteError.prototype, 'name', { value: 'SQLiteError', writable: true, configurable: true })
  // Bun's SQLiteError instances answer Error as their constructor.
  Object.defineProperty(SQLiteError.prototype, 'constructor', { value: Error, writable: true, configurable: true })
  const dispose = typeof Symbol.dispose === 'symbol' ? Symbol.dispose : null

  const unsupported = (what) => () => { throw new Error(`${what} is not supported by beeuni's bun:sqlite`) }

  // bindings reads a call's arguments as Bun does: one plain object binds
  // by name, one array or several values by position.
  const bindings = (args) => {
    if (args.length === 0) return [BIND_NONE, undefined]
    const a = args[0]
    if (args.length === 1 && Array.isArray(a)) return [BIND_LIST, a]
    const proto = a !== null && typeof a === 'object' ? Object.getPrototypeOf(a) : undefined
    if (args.length === 1 && (proto === Object.prototype || proto === null)) return [BIND_NAMED, a]
    return [BIND_LIST, args]
  }

  const token = Symbol('bun:sqlite')

  // The Go handles live in private fields, not in WeakMaps: a dropped
  // Database must become garbage in one collection for its handle's
  // cleanup to close it (sqlite.go), and a Statement keeps its Database.
  class Statement {
    #s
    constructor(key, db, handle, sql, strict, safe) {
      if (key !== token) throw new TypeError('Statement cannot be constructed directly: use db.query(sql) or db.prepare(sql)')
      this.#s = { db, handle, sql, strict, safe, finalized: false, as: null }
    }
    #call(args, asArrays, limit) {
      const s = this.#s
      const [kind, v] = bindings(args)
      const rows = n.rows(s.handle, kind, v, s.strict, asArrays, limit, s.safe)
      return s.as && !asArrays ? rows.map((r) => Object.assign(Object.create(s.as.prototype), r)) : rows
    }
    all(...args) { return this.#call(args, false, -1) }
    get(...args) { const r = this.#call(args, false, 1); return r.length ? r[0] : null }
    values(...args) { return this.#call(args, true, -1) }
    raw(...args) { return this.#call(args, true, -1) }
    run(...args) {
      const s = this.#s
      const [kind, v] = bindings(args)
      return n.run(s.handle, kind, v, s.strict)
    }
    * iterate(...args) {
      const s = this.#s
      const [kind, v] = bindings(args)
      n.start(s.handle, kind, v, s.strict)
      for (let row; (row = n.next(s.handle, s.safe)) !== null;) yield s.as ? Object.assign(Object.create(s.as.prototype), row) : row
    }
    [Symbol.iterator]() { return this.iterate() }
    as(Class) {
      if (typeof Class !== 'function') throw new TypeError('Expected class to be a constructor or undefined')
      this.#s.as = Class
      return this
    }
    safeIntegers(on) { this.#s.safe = on === undefined ? true : !!on; return this }
    finalize() { const s = this.#s; n.finalize(s.handle); s.finalized = true }
    get isFinalized() { return this.#s.finalized }
    get columnNames() { return n.columns(this.#s.handle) }
    get columnTypes() { return n.columnTypes(this.#s.handle) }
    get declaredTypes() { return n.declaredTypes(this.#s.handle) }
    get paramsCount() { return n.paramsCount(this.#s.handle) }
    get readonly() { return n.readonly(this.#s.handle) }
    get native() { return undefined }
    toString() { return n.expanded(this.#s.handle) }
    toJSON() { return { sql: this.#s.sql, isFinalized: this.isFinalized, paramsCount: this.paramsCount, columnNames: this.columnNames } }
  }

  let handles = 0

  // flagsOf reads the constructor's options as Bun does: a number is
  // SQLite's flags; { readonly, create, readwrite } make them; other
  // options leave the default (read, write, create).
  const flagsOf = (options) => {
    if (typeof options === 'number') return options
    if (options === null || typeof options !== 'object') return OPEN_READWRITE | OPEN_CREATE
    if ('readOnly' in options) throw new TypeError('Misspelled option "readOnly" should be "readonly"')
    let flags = 0
    if (options.readonly) flags = OPEN_READONLY
    if (options.create) flags = OPEN_READWRITE | OPEN_CREATE
    if (options.readwrite) flags |= OPEN_READWRITE
    if (flags === 0 && !('readonly' in options || 'create' in options || 'readwrite' in options)) flags = OPEN_READWRITE | OPEN_CREATE
    return flags === 0 ? OPEN_READWRITE : flags
  }

  class Database {
    #d
    constructor(filename, options) {
      filename = filename === undefined ? ':memory:' : String(filename)
      const flags = flagsOf(options)
      const anonymous = filename === '' || filename === ':memory:'
      if (anonymous && (flags & OPEN_READWRITE) === 0) throw new Error('Cannot open an anonymous database in read-only mode.')
      const o = options !== null && typeof options === 'object' ? options : {}
      this.filename = filename
      this.#d = { handle: n.open(filename, flags), id: ++handles, cache: new Map(), strict: !!o.strict, safe: !!o.safeIntegers }
    }
    static open(filename, options) { return new Database(filename, options) }
    #live() {
      const d = this.#d
      if (d.handle === null) throw new RangeError('Cannot use a closed database')
      return d
    }
    get handle() { return this.#d.id }
    get inTransaction() { return n.inTransaction(this.#live().handle) }
    prepare(sql) {
      const d = this.#live()
      const h = n.prepare(d.handle, String(sql))
      if (h === null) throw new RangeError('Invalid SQL statement')
      return new Statement(token, this, h, String(sql), d.strict, d.safe)
    }
    query(sql) {
      const d = this.#live()
      sql = String(sql)
      const cached = d.cache.get(sql)
      if (cached && !cached.isFinalized) return cached
      const st = this.prepare(sql)
      d.cache.set(sql, st)
      return st
    }
    run(sql, ...args) {
      const d = this.#live()
      const [kind, v] = bindings(args)
      return n.exec(d.handle, String(sql), kind, v, d.strict)
    }
    exec(sql, ...args) { return this.run(sql, ...args) }
    transaction(fn) {
      if (typeof fn !== 'function') throw new TypeError('Expected first argument to be a function')
      const db = this
      const wrap = (begin) => function transaction(...args) {
        const nested = db.inTransaction
        db.run(nested ? 'SAVEPOINT "\tbeeuni_tx"' : begin)
        try {
          const result = fn.apply(this, args)
          db.run(nested ? 'RELEASE "\tbeeuni_tx"' : 'COMMIT')
          return result
        } catch (e) {
          if (db.inTransaction) {
            if (nested) {
              db.run('ROLLBACK TO "\tbeeuni_tx"')
              db.run('RELEASE "\tbeeuni_tx"')
            } else db.run('ROLLBACK')
          }
          throw e
        }
      }
      const tx = wrap('BEGIN')
      for (const [k, begin] of [['deferred', 'BEGIN DEFERRED'], ['immediate', 'BEGIN IMMEDIATE'], ['exclusive', 'BEGIN EXCLUSIVE']]) {
        Object.defineProperty(tx, k, { value: wrap(begin), enumerable: false })
      }
      Object.defineProperty(tx, 'database', { value: this, enumerable: true })
      return tx
    }
    clearQueryCache() {
      const d = this.#live()
      for (const st of d.cache.values()) st.finalize()
      d.cache.clear()
    }
    // close finalizes the cached queries; statements from prepare keep
    // working until they are finalized, as SQLite's close_v2 lets them
    // in Bun, and the database closes with the last of them.
    close() {
      const d = this.#d
      if (d.handle === null) return
      for (const st of d.cache.values()) st.finalize()
      d.cache.clear()
      n.close(d.handle)
      d.handle = null
    }
  }
  if (dispose) {
    Object.defineProperty(Statement.prototype, dispose, { value() { this.finalize() }, writable: true, configurable: true })
    Object.defineProperty(Database.prototype, dispose, { value() { this.close() }, writable: true, configurable: true })
  }
  for (const k of ['serialize', 'loadExtension', 'fileControl', 'function', 'aggregate']) {
    Object.defineProperty(Database.prototype, k, { value: unsupported(`db.${k}()`), writable: true, configurable: true })
  }
  Object.defineProperty(Database, 'deserialize', { value: unsupported('Database.deserialize()'), writable: true, configurable: true })

  const constants = {
    SQLITE_OPEN_READONLY: OPEN_READONLY, SQLITE_OPEN_READWRITE: OPEN_READWRITE, SQLITE_OPEN_CREATE: OPEN_CREATE,
    SQLITE_OPEN_URI: 0x40, SQLITE_OPEN_MEMORY: 0x80, SQLITE_OPEN_NOMUTEX: 0x8000, SQLITE_OPEN_FULLMUTEX: 0x10000,
    SQLITE_OPEN_SHAREDCACHE: 0x20000, SQLITE_OPEN_PRIVATECACHE: 0x40000,
  }
  const mod = { Database, Statement, SQLiteError, constants }
  mod.__esModule = true
  mod.default = Database
  return mod
})
