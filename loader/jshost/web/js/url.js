// URL and URLSearchParams of the WHATWG URL standard, as Node and Bun have
// them. The Go side (web/url.go) parses: b.parse(input, base) and
// b.set(href, component, value) answer a record of the URL's components
// (href, origin, protocol, ...) or null when the input is not a URL. A URL
// keeps that record; its searchParams is a list kept here, live both ways.
(function (b) {
  'use strict'
  const { parse, set, formParse, formSerialize, usvString } = b
  const lone = /[\uD800-\uDFFF]/
  // usv is a USVString (WebIDL): lone surrogates become U+FFFD, which the
  // trip through a Go string does.
  const usv = (v) => {
    const s = `${v}`
    return lone.test(s) ? usvString(s) : s
  }
  const nodeError = (Ctor, code, msg) => {
    const e = new Ctor(msg)
    e.code = code
    return e
  }
  const missing = (names) => nodeError(TypeError, 'ERR_MISSING_ARGS', `The ${names} argument${names.includes(' and ') ? 's' : ''} must be specified`)
  const invalid = (input, base) => {
    const e = nodeError(TypeError, 'ERR_INVALID_URL', 'Invalid URL')
    e.input = input
    if (base !== undefined) e.base = base
    return e
  }
  const tuple = () => nodeError(TypeError, 'ERR_INVALID_TUPLE', 'Each query pair must be an iterable [name, value] tuple')
  const isObject = (v) => v !== null && (typeof v === 'object' || typeof v === 'function')

  // Hooks between the classes (private fields are per class).
  let paramsOf // (URLSearchParams, url) ties the list to a URL
  let paramsReset // (URLSearchParams, query) re-reads the list from a URL's query
  let urlSetQuery // (URL, serialized list) is the URL search params update steps

  const iteratorProto = Object.create(Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())))
  const iterState = new WeakMap() // iterator -> { p, i, kind }
  let iterate // (URLSearchParams, kind) a new iterator
  let iterNext // (iterator state) the next result

  class URLSearchParams {
    #list = []
    #url = null

    constructor(init = '') {
      if (init === null) return // WebIDL: null is an empty record
      if (isObject(init)) {
        const it = init[Symbol.iterator]
        if (it !== undefined && it !== null) {
          if (typeof it !== 'function') throw new TypeError('Query pairs must be iterable')
          for (const pair of init) {
            if (!isObject(pair) || typeof pair[Symbol.iterator] !== 'function') throw tuple()
            const p = [...pair]
            if (p.length !== 2) throw tuple()
            this.#list.push([usv(p[0]), usv(p[1])])
          }
        } else {
          for (const k of Reflect.ownKeys(init)) {
            if (typeof k !== 'string') continue
            const d = Reflect.getOwnPropertyDescriptor(init, k)
            if (d !== undefined && d.enumerable) this.#list.push([usv(k), usv(init[k])])
          }
        }
        return
      }
      let s = usv(init)
      if (s[0] === '?') s = s.slice(1)
      this.#list = formParse(s)
    }

    static {
      paramsOf = (p, url) => { p.#url = url }
      paramsReset = (p, query) => { p.#list = formParse(query) }
    }

    #update() {
      if (this.#url !== null) urlSetQuery(this.#url, formSerialize(this.#list))
    }

    get size() { return this.#list.length }

    append(name, value) {
      if (arguments.length < 2) throw missing('"name" and "value"')
      this.#list.push([usv(name), usv(value)])
      this.#update()
    }

    delete(name, value) {
      if (arguments.length < 1) throw missing('"name"')
      name = usv(name)
      const v = value === undefined ? undefined : usv(value)
      this.#list = this.#list.filter((p) => p[0] !== name || (v !== undefined && p[1] !== v))
      this.#update()
    }

    get(name) {
      if (arguments.length < 1) throw missing('"name"')
      name = usv(name)
      const p = this.#list.find((p) => p[0] === name)
      return p === undefined ? null : p[1]
    }

    getAll(name) {
      if (arguments.length < 1) throw missing('"name"')
      name = usv(name)
      return this.#list.filter((p) => p[0] === name).map((p) => p[1])
    }

    has(name, value) {
      if (arguments.length < 1) throw missing('"name"')
      name = usv(name)
      const v = value === undefined ? undefined : usv(value)
      return this.#list.some((p) => p[0] === name && (v === undefined || p[1] === v))
    }

    set(name, value) {
      if (arguments.length < 2) throw missing('"name" and "value"')
      name = usv(name)
      value = usv(value)
      const i = this.#list.findIndex((p) => p[0] === name)
      if (i < 0) {
        this.#list.push([name, value])
      } else {
        this.#list[i] = [name, value]
        this.#list = this.#list.filter((p, j) => j <= i || p[0] !== name)
      }
      this.#update()
    }

    // sort is stable and compares names by UTF-16 code units, as JS's < does.
    sort() {
      this.#list.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      this.#update()
    }

    entries() { return iterate(this, 'entries') }

    forEach(callback, thisArg = undefined) {
      if (typeof callback !== 'function') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', 'The "callback" argument must be of type function')
      for (let i = 0; i < this.#list.length; i++) {
        const [k, v] = this.#list[i]
        callback.call(thisArg, v, k, this)
      }
    }

    keys() { return iterate(this, 'keys') }
    values() { return iterate(this, 'values') }

    toString() { return formSerialize(this.#list) }

    // The iterators walk the live list by index, as the standard's do.
    static {
      iterate = (p, kind) => {
        if (!(isObject(p) && #list in p)) throw new TypeError('Value of "this" must be of type URLSearchParams')
        const it = Object.create(iteratorProto)
        iterState.set(it, { p, i: 0, kind })
        return it
      }
      iterNext = (st) => {
        const pair = st.p === null ? undefined : st.p.#list[st.i++]
        if (pair === undefined) {
          st.p = null
          return { value: undefined, done: true }
        }
        return { value: st.kind === 'keys' ? pair[0] : st.kind === 'values' ? pair[1] : [pair[0], pair[1]], done: false }
      }
    }
  }

  Object.defineProperties(iteratorProto, {
    next: {
      value: function next() {
        const st = iterState.get(this)
        if (st === undefined) throw new TypeError('next method called on an object that is not a URLSearchParams iterator')
        return iterNext(st)
      },
      writable: true,
      enumerable: true,
      configurable: true,
    },
    [Symbol.toStringTag]: { value: 'URLSearchParams Iterator', configurable: true },
  })

  const record = Symbol('record')

  class URL {
    #c // the components record from Go
    #params = null

    constructor(input, base = undefined) {
      if (input === record) {
        this.#c = base
        return
      }
      if (arguments.length === 0) throw missing('"url"')
      input = usv(input)
      if (base !== undefined) base = usv(base)
      const c = parse(input, base)
      if (c === null) throw invalid(input, base)
      this.#c = c
    }

    static parse(input, base = undefined) {
      if (arguments.length === 0) throw missing('"url"')
      const c = parse(usv(input), base === undefined ? undefined : usv(base))
      return c === null ? null : new URL(record, c)
    }

    static canParse(input, base = undefined) {
      if (arguments.length === 0) throw missing('"url"')
      return parse(usv(input), base === undefined ? undefined : usv(base)) !== null
    }

    static {
      urlSetQuery = (u, query) => { u.#c = set(u.#c.href, 'query', query) }
    }

    // #set applies a setter; the list follows the query when it changed.
    #set(component, value) {
      const c = set(this.#c.href, component, usv(value))
      if (c === null) throw invalid(usv(value))
      const before = this.#c.search
      this.#c = c
      if (this.#params !== null && (component === 'href' || c.search !== before)) paramsReset(this.#params, c.search.slice(1))
    }

    toString() { return this.#c.href }

    get href() { return this.#c.href }
    set href(v) { this.#set('href', v) }
    get origin() { return this.#c.origin }
    get protocol() { return this.#c.protocol }
    set protocol(v) { this.#set('protocol', v) }
    get username() { return this.#c.username }
    set username(v) { this.#set('username', v) }
    get password() { return this.#c.password }
    set password(v) { this.#set('password', v) }
    get host() { return this.#c.host }
    set host(v) { this.#set('host', v) }
    get hostname() { return this.#c.hostname }
    set hostname(v) { this.#set('hostname', v) }
    get port() { return this.#c.port }
    set port(v) { this.#set('port', v) }
    get pathname() { return this.#c.pathname }
    set pathname(v) { this.#set('pathname', v) }
    get search() { return this.#c.search }
    set search(v) { this.#set('search', v) }
    get searchParams() {
      if (this.#params === null) {
        const p = new URLSearchParams(this.#c.search)
        paramsOf(p, this)
        this.#params = p
      }
      return this.#params
    }
    get hash() { return this.#c.hash }
    set hash(v) { this.#set('hash', v) }

    toJSON() { return this.#c.href }
  }

  // WebIDL attributes and operations are enumerable; the tags are not.
  for (const C of [URL, URLSearchParams]) {
    const proto = C.prototype
    for (const k of Object.getOwnPropertyNames(proto)) {
      if (k !== 'constructor') Object.defineProperty(proto, k, { enumerable: true })
    }
    Object.defineProperty(proto, Symbol.toStringTag, { value: C.name, configurable: true })
  }
  Object.defineProperty(URLSearchParams.prototype, Symbol.iterator, {
    value: URLSearchParams.prototype.entries,
    writable: true,
    configurable: true,
  })

  return { URL, URLSearchParams }
})
