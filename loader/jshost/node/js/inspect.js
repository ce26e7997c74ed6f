// util.inspect and util.format as Node 20 prints them (lib/internal/util/
// inspect.js, without colors, proxies and the rarer types).
(function (g, n) {
  'use strict'
  const customSym = Symbol.for('nodejs.util.inspect.custom')
  const defaults = { showHidden: false, depth: 2, colors: false, customInspect: true, maxArrayLength: 100, maxStringLength: 10000, breakLength: 80, compact: 3, sorted: false, getters: false }
  // The global constructors' names (read without calling lazy getters).
  const builtIns = new Set(Object.getOwnPropertyNames(g).filter((k) => /^[A-Z]/.test(k)))
  const keyRe = /^[a-zA-Z_][a-zA-Z_0-9]*$/
  const meta = []
  for (let i = 0; i < 32; i++) meta[i] = '\\x' + i.toString(16).toUpperCase().padStart(2, '0')
  Object.assign(meta, { 8: '\\b', 9: '\\t', 10: '\\n', 12: '\\f', 13: '\\r' })
  for (let i = 127; i < 160; i++) meta[i] = '\\x' + i.toString(16).toUpperCase()
  meta[39] = "\\'"; meta[92] = '\\\\'

  function strEscape(str) {
    let quote = 39
    if (str.includes("'")) {
      if (!str.includes('"')) quote = -1
      else if (!str.includes('`') && !str.includes('${')) quote = -2
    }
    let out = '', last = 0
    for (let i = 0; i < str.length; i++) {
      const c = str.charCodeAt(i)
      if (c === quote || c === 92 || c < 32 || (c > 126 && c < 160)) {
        out += str.slice(last, i) + meta[c]; last = i + 1
      } else if (c >= 0xd800 && c <= 0xdfff) {
        if (c <= 0xdbff && i + 1 < str.length) {
          const d = str.charCodeAt(i + 1)
          if (d >= 0xdc00 && d <= 0xdfff) { i++; continue }
        }
        out += str.slice(last, i) + '\\u' + c.toString(16); last = i + 1
      }
    }
    out += str.slice(last)
    if (quote === -1) return '"' + out + '"'
    if (quote === -2) return '`' + out + '`'
    return "'" + out + "'"
  }

  const formatNumber = (v) => (Object.is(v, -0) ? '-0' : String(v))

  function formatPrimitive(ctx, v) {
    switch (typeof v) {
      case 'string': {
        let trailer = ''
        if (v.length > ctx.maxStringLength) { const r = v.length - ctx.maxStringLength; v = v.slice(0, ctx.maxStringLength); trailer = `... ${r} more character${r > 1 ? 's' : ''}` }
        if (ctx.compact !== true && v.length > 16 && v.length > ctx.breakLength - ctx.indentationLvl - 4) {
          const lines = []
          let start = 0
          for (let i = 0; i < v.length; i++) if (v[i] === '\n') { lines.push(v.slice(start, i + 1)); start = i + 1 }
          if (start < v.length) lines.push(v.slice(start))
          return lines.map(strEscape).join(` +\n${' '.repeat(ctx.indentationLvl + 2)}`) + trailer
        }
        return strEscape(v) + trailer
      }
      case 'number': return formatNumber(v)
      case 'bigint': return `${v}n`
      case 'symbol': return v.toString()
    }
    return String(v)
  }

  const tagOf = (v) => Object.prototype.toString.call(v).slice(8, -1)
  const isError = (v) => v instanceof Error || tagOf(v) === 'Error'

  function constructorName(obj) {
    let o = obj, first
    while (o) {
      const d = Object.getOwnPropertyDescriptor(o, 'constructor')
      if (d !== undefined && typeof d.value === 'function' && d.value.name !== '') {
        try { if (obj instanceof d.value) return String(d.value.name) } catch (e) { /* not a constructor */ }
      }
      o = Object.getPrototypeOf(o)
      if (first === undefined) first = o
    }
    return first === null ? null : 'Object'
  }

  function prefix(constructor, tag, fallback, size = '') {
    if (constructor === null) {
      if (tag !== '' && fallback !== tag) return `[${fallback}${size}: null prototype] [${tag}] `
      return `[${fallback}${size}: null prototype] `
    }
    if (tag !== '' && constructor !== tag) return `${constructor}${size} [${tag}] `
    return `${constructor}${size} `
  }

  function keysOf(v, showHidden) {
    const symbols = Object.getOwnPropertySymbols(v)
    if (showHidden) return Object.getOwnPropertyNames(v).concat(symbols)
    return Object.keys(v).concat(symbols.filter((s) => Object.prototype.propertyIsEnumerable.call(v, s)))
  }
  const isIndex = (k) => typeof k === 'string' && /^(0|[1-9][0-9]*)$/.test(k) && Number(k) < 4294967295

  function functionBase(v, constructor, tag) {
    let src = ''
    try { src = Function.prototype.toString.call(v) } catch (e) { /* native */ }
    if (src.startsWith('class') && src.endsWith('}')) {
      let base = `[class ${v.name || '(anonymous)'}`
      if (constructor !== 'Function' && constructor !== null) base += ` [${constructor}]`
      const sup = Object.getPrototypeOf(v)
      if (sup && sup.name) base += ` extends ${sup.name}`
      return base + ']'
    }
    let type = 'Function'
    const t = tagOf(v)
    if (t === 'GeneratorFunction' || t === 'AsyncGeneratorFunction') type = 'Generator' + type
    if (t === 'AsyncFunction' || t === 'AsyncGeneratorFunction') type = 'Async' + type
    let base = `[${type}`
    if (constructor === null) base += ' (null prototype)'
    base += v.name === '' ? ' (anonymous)' : `: ${v.name}`
    base += ']'
    if (constructor !== type && constructor !== null && constructor !== 'Function') base += ` ${constructor}`
    if (tag !== '' && constructor !== tag) base += ` [${tag}]`
    return base
  }

  function formatError(err, keys, ctx) {
    const name = err.name != null ? String(err.name) : 'Error'
    let stack = typeof err.stack === 'string' && err.stack !== '' ? err.stack : Error.prototype.toString.call(err)
    // goja indents frames with a tab; Node with four spaces.
    stack = stack.replace(/\n\tat /g, '\n    at ').replace(/\n$/, '')
    for (const k of ['name', 'message', 'stack']) {
      const i = keys.indexOf(k)
      if (i !== -1 && (k !== 'name' || stack.includes(name)) && (k !== 'message' || stack.includes(err.message))) keys.splice(i, 1)
    }
    if ('cause' in err && !keys.includes('cause') && Object.prototype.hasOwnProperty.call(err, 'cause')) keys.push('cause')
    if (Array.isArray(err.errors) && !keys.includes('errors') && Object.prototype.hasOwnProperty.call(err, 'errors')) keys.push('errors')
    if (ctx.indentationLvl !== 0) {
      const ind = ' '.repeat(ctx.indentationLvl)
      stack = stack.split('\n').join('\n' + ind)
    }
    if (!stack.includes('\n    at ') && ctx.indentationLvl === 0 && stack === Error.prototype.toString.call(err)) stack = `[${stack}]`
    return stack
  }

  function formatValue(ctx, v, depth, typedArray) {
    if (typeof v !== 'object' && typeof v !== 'function') return formatPrimitive(ctx, v)
    if (v === null) return 'null'
    if (ctx.customInspect) {
      const f = v[customSym]
      if (typeof f === 'function' && f !== inspect) {
        const opts = Object.assign({}, ctx.opts, { depth: ctx.depth === null ? null : ctx.depth - depth })
        const r = f.call(v, opts.depth, opts, inspect)
        if (r !== v) return typeof r !== 'string' ? formatValue(ctx, r, depth) : r.split('\n').join('\n' + ' '.repeat(ctx.indentationLvl))
      }
    }
    if (ctx.seen.includes(v)) {
      let i = 1
      if (ctx.circular === undefined) { ctx.circular = new Map([[v, i]]) } else {
        i = ctx.circular.get(v)
        if (i === undefined) { i = ctx.circular.size + 1; ctx.circular.set(v, i) }
      }
      return `[Circular *${i}]`
    }
    return formatRaw(ctx, v, depth, typedArray)
  }

  function formatRaw(ctx, v, depth, typedArray) {
    let keys, base = '', braces, formatter = () => [], extras = 0 // 0 object, 1 array
    const constructor = constructorName(v)
    let tag = v[Symbol.toStringTag]
    if (typeof tag !== 'string' || (tag !== '' && (ctx.showHidden ? Object.prototype.hasOwnProperty : Object.prototype.propertyIsEnumerable).call(v, Symbol.toStringTag))) tag = ''
    if (tag === constructor) tag = ''
    let iterable = false
    if (v[Symbol.iterator] || constructor === null) {
      iterable = true
      if (Array.isArray(v)) {
        const p = constructor !== 'Array' || tag !== '' ? prefix(constructor, tag, 'Array', `(${v.length})`) : ''
        keys = keysOf(v, ctx.showHidden).filter((k) => !isIndex(k))
        braces = [`${p}[`, ']']
        if (v.length === 0 && keys.length === 0) return `${braces[0]}]`
        extras = 1
        formatter = formatArray
      } else if (v instanceof Set) {
        const p = prefix(constructor, tag, 'Set', `(${v.size})`)
        keys = keysOf(v, ctx.showHidden)
        formatter = formatSet
        if (v.size === 0 && keys.length === 0) return `${p}{}`
        braces = [`${p}{`, '}']
      } else if (v instanceof Map) {
        const p = prefix(constructor, tag, 'Map', `(${v.size})`)
        keys = keysOf(v, ctx.showHidden)
        formatter = formatMap
        if (v.size === 0 && keys.length === 0) return `${p}{}`
        braces = [`${p}{`, '}']
      } else if (ArrayBuffer.isView(v) && !(v instanceof DataView)) {
        if (constructor === 'Buffer' && !ctx.showHidden) {
          const max = 50, hex = []
          for (let i = 0; i < Math.min(max, v.length); i++) hex.push(v[i].toString(16).padStart(2, '0'))
          let s = hex.join(' ')
          if (v.length > max) s += ` ... ${v.length - max} more byte${v.length - max > 1 ? 's' : ''}`
          return `<Buffer${s ? ' ' + s : ''}>`
        }
        keys = keysOf(v, ctx.showHidden).filter((k) => !isIndex(k))
        const p = prefix(constructor, tag, tagOf(v), `(${v.length})`)
        braces = [`${p}[`, ']']
        if (v.length === 0 && keys.length === 0) return `${braces[0]}]`
        formatter = formatTypedArray
        extras = 1
      } else {
        iterable = false
      }
    }
    if (!iterable) {
      keys = keysOf(v, ctx.showHidden)
      braces = ['{', '}']
      if (constructor === 'Object') {
        if (tagOf(v) === 'Arguments') braces[0] = '[Arguments] ['
        else if (tag !== '') braces[0] = `${prefix(constructor, tag, 'Object')}{`
        if (keys.length === 0) return `${braces[0]}}`
      } else if (typeof v === 'function') {
        base = functionBase(v, constructor, tag)
        keys = keys.filter((k) => k !== 'prototype' || ctx.showHidden)
        if (keys.length === 0) return base
      } else if (v instanceof RegExp) {
        base = RegExp.prototype.toString.call(v)
        const p = prefix(constructor, tag, 'RegExp')
        if (p !== 'RegExp ') base = p + base
        keys = keys.filter((k) => k !== 'lastIndex')
        if (keys.length === 0 || (ctx.depth !== null && depth > ctx.depth)) return base
      } else if (v instanceof Date) {
        base = Number.isNaN(v.getTime()) ? Date.prototype.toString.call(v) : Date.prototype.toISOString.call(v)
        const p = prefix(constructor, tag, 'Date')
        if (p !== 'Date ') base = p + base
        if (keys.length === 0) return base
      } else if (isError(v)) {
        base = formatError(v, keys, ctx)
        if (keys.length === 0) return base
      } else if (v instanceof ArrayBuffer) {
        const p = prefix(constructor, tag, 'ArrayBuffer')
        if (typedArray === undefined) formatter = formatArrayBuffer
        else if (keys.length === 0) return p + `{ byteLength: ${v.byteLength} }`
        braces[0] = `${p}{`
        keys.unshift('byteLength')
      } else if (v instanceof DataView) {
        braces[0] = `${prefix(constructor, tag, 'DataView')}{`
        keys.unshift('byteLength', 'byteOffset', 'buffer')
      } else if (v instanceof Promise) {
        braces[0] = `${prefix(constructor, tag, 'Promise')}{`
        formatter = formatPromise
      } else if (v instanceof WeakSet) {
        braces[0] = `${prefix(constructor, tag, 'WeakSet')}{`
        formatter = () => ['<items unknown>']
      } else if (v instanceof WeakMap) {
        braces[0] = `${prefix(constructor, tag, 'WeakMap')}{`
        formatter = () => ['<items unknown>']
      } else if (['Number', 'String', 'Boolean', 'BigInt', 'Symbol'].includes(tagOf(v)) && typeof v.valueOf === 'function' && typeof v.valueOf() !== 'object') {
        const prim = v.valueOf()
        const type = tagOf(v)
        if (type === 'String') keys = keys.filter((k) => !isIndex(k) && k !== 'length')
        base = `[${type}${constructor !== type ? (constructor === null ? ' (null prototype)' : ` (${constructor})`) : ''}: ${formatPrimitive(Object.assign({}, ctx, { compact: true }), prim)}]`
        if (tag !== '' && tag !== constructor) base += ` [${tag}]`
        if (keys.length === 0) return base
      } else {
        if (keys.length === 0) return `${prefix(constructor, tag, 'Object')}{}`
        braces[0] = `${prefix(constructor, tag, 'Object')}{`
      }
    }
    if (ctx.depth !== null && depth > ctx.depth) {
      let name = prefix(constructor, tag, 'Object').slice(0, -1)
      if (constructor !== null) name = `[${name}]`
      return name
    }
    depth += 1
    ctx.seen.push(v)
    ctx.currentDepth = depth
    const output = formatter(ctx, v, depth)
    for (const k of keys) output.push(formatProperty(ctx, v, depth, k, extras))
    if (ctx.circular !== undefined) {
      const i = ctx.circular.get(v)
      if (i !== undefined) {
        const ref = `<ref *${i}>`
        if (ctx.compact !== true) base = base === '' ? ref : `${ref} ${base}`
        else braces[0] = `${ref} ${braces[0]}`
      }
    }
    ctx.seen.pop()
    if (ctx.sorted) {
      const cmp = ctx.sorted === true ? undefined : ctx.sorted
      if (extras === 0) output.sort(cmp)
      else if (keys.length > 1) { const sorted = output.slice(output.length - keys.length).sort(cmp); output.splice(output.length - keys.length, keys.length, ...sorted) }
    }
    return reduceToSingleString(ctx, output, base, braces, extras, depth, v)
  }

  function formatProperty(ctx, v, depth, key, type) {
    let str, extra = ' '
    const desc = Object.getOwnPropertyDescriptor(v, key) || { value: v[key], enumerable: true }
    if (desc.value !== undefined) {
      const diff = ctx.compact !== true || type !== 0 ? 2 : 3
      ctx.indentationLvl += diff
      str = formatValue(ctx, desc.value, depth)
      if (diff === 3 && ctx.breakLength < str.length) extra = `\n${' '.repeat(ctx.indentationLvl)}`
      ctx.indentationLvl -= diff
    } else if (desc.get !== undefined) {
      str = desc.set !== undefined ? '[Getter/Setter]' : '[Getter]'
    } else if (desc.set !== undefined) {
      str = '[Setter]'
    } else {
      str = 'undefined'
    }
    if (type === 1 && isIndex(key)) return str
    let name
    if (typeof key === 'symbol') name = `[${key.toString()}]`
    else if (key === '__proto__') name = "['__proto__']"
    else if (desc.enumerable === false) name = `[${key}]`
    else if (keyRe.test(key)) name = key
    else name = strEscape(key)
    return `${name}:${extra}${str}`
  }

  const more = (k) => `... ${k} more item${k > 1 ? 's' : ''}`

  function formatArray(ctx, v, depth) {
    const len = Math.min(Math.max(0, ctx.maxArrayLength), v.length)
    const out = []
    let holes = 0, shown = 0
    for (let i = 0; i < v.length && shown < len; i++) {
      if (!Object.prototype.hasOwnProperty.call(v, i)) { holes++; continue }
      if (holes > 0) { out.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`); shown++; holes = 0; if (shown >= len) break }
      out.push(formatProperty(ctx, v, depth, String(i), 1)); shown++
    }
    if (holes > 0 && shown < len) out.push(`<${holes} empty item${holes > 1 ? 's' : ''}>`)
    const remaining = v.length - len
    if (remaining > 0 && out.length >= len) out.push(more(remaining))
    return out
  }

  function formatTypedArray(ctx, v) {
    const len = Math.min(Math.max(0, ctx.maxArrayLength), v.length)
    const out = []
    for (let i = 0; i < len; i++) out.push(typeof v[i] === 'bigint' ? `${v[i]}n` : formatNumber(v[i]))
    if (v.length > len) out.push(more(v.length - len))
    if (ctx.showHidden) {
      ctx.indentationLvl += 2
      for (const k of ['BYTES_PER_ELEMENT', 'length', 'byteLength', 'byteOffset', 'buffer']) out.push(`[${k}]: ${formatValue(ctx, v[k], ctx.currentDepth, true)}`)
      ctx.indentationLvl -= 2
    }
    return out
  }

  function formatArrayBuffer(ctx, v) {
    const b = new Uint8Array(v)
    const hex = []
    for (let i = 0; i < Math.min(ctx.maxArrayLength, b.length); i++) hex.push(b[i].toString(16).padStart(2, '0'))
    let s = hex.join(' ')
    if (b.length > ctx.maxArrayLength) s += ` ... ${b.length - ctx.maxArrayLength} more byte${b.length - ctx.maxArrayLength > 1 ? 's' : ''}`
    return [`[Uint8Contents]: <${s}>`]
  }

  function formatSet(ctx, v, depth) {
    const out = []
    ctx.indentationLvl += 2
    let i = 0
    for (const x of v) { if (i++ >= ctx.maxArrayLength) break; out.push(formatValue(ctx, x, depth)) }
    if (v.size > ctx.maxArrayLength) out.push(more(v.size - ctx.maxArrayLength))
    ctx.indentationLvl -= 2
    return out
  }

  function formatMap(ctx, v, depth) {
    const out = []
    ctx.indentationLvl += 2
    let i = 0
    for (const [k, x] of v) { if (i++ >= ctx.maxArrayLength) break; out.push(`${formatValue(ctx, k, depth)} => ${formatValue(ctx, x, depth)}`) }
    if (v.size > ctx.maxArrayLength) out.push(more(v.size - ctx.maxArrayLength))
    ctx.indentationLvl -= 2
    return out
  }

  function formatPromise(ctx, v, depth) {
    const [state, result] = n.promiseState(v)
    if (state === 'pending') return ['<pending>']
    ctx.indentationLvl += 2
    const s = formatValue(ctx, result, depth)
    ctx.indentationLvl -= 2
    return [state === 'rejected' ? `<rejected> ${s}` : s]
  }

  function groupArrayElements(ctx, output, value) {
    let totalLength = 0, maxLength = 0, i = 0
    let outputLength = output.length
    if (ctx.maxArrayLength < output.length) outputLength--
    const separatorSpace = 2
    const dataLen = new Array(outputLength)
    for (; i < outputLength; i++) {
      const len = output[i].length
      dataLen[i] = len
      totalLength += len + separatorSpace
      if (maxLength < len) maxLength = len
    }
    const actualMax = maxLength + separatorSpace
    if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
      const averageBias = Math.sqrt(actualMax - totalLength / output.length)
      const biasedMax = Math.max(actualMax - 3 - averageBias, 1)
      const columns = Math.min(
        Math.round(Math.sqrt(2.5 * biasedMax * outputLength) / biasedMax),
        Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
        ctx.compact * 4,
        15,
      )
      if (columns <= 1) return output
      const tmp = [], maxLineLength = []
      for (let c = 0; c < columns; c++) {
        let lineLength = 0
        for (let j = c; j < output.length; j += columns) if (dataLen[j] > lineLength) lineLength = dataLen[j]
        maxLineLength.push(lineLength + separatorSpace)
      }
      let padStart = true
      if (value !== undefined) {
        for (let k = 0; k < output.length; k++) if (typeof value[k] !== 'number' && typeof value[k] !== 'bigint') { padStart = false; break }
      }
      for (let k = 0; k < outputLength; k += columns) {
        const max = Math.min(k + columns, outputLength)
        let str = '', j = k
        for (; j < max - 1; j++) {
          const s = `${output[j]}, `
          str += padStart ? s.padStart(maxLineLength[j - k], ' ') : s.padEnd(maxLineLength[j - k], ' ')
        }
        str += padStart ? output[j].padStart(maxLineLength[j - k] - separatorSpace, ' ') : output[j]
        tmp.push(str)
      }
      if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength])
      output = tmp
    }
    return output
  }

  function isBelowBreakLength(ctx, output, start, base) {
    let total = output.length + start
    if (total + output.length > ctx.breakLength) return false
    for (const o of output) { total += o.length; if (total > ctx.breakLength) return false }
    return base === '' || !base.includes('\n')
  }

  function reduceToSingleString(ctx, output, base, braces, extras, depth, value) {
    if (ctx.compact !== true) {
      if (typeof ctx.compact === 'number' && ctx.compact >= 1) {
        const entries = output.length
        if (extras === 1 && entries > 6) output = groupArrayElements(ctx, output, value)
        if (ctx.currentDepth - depth < ctx.compact && entries === output.length) {
          const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10
          if (isBelowBreakLength(ctx, output, start, base)) {
            const joined = output.join(', ')
            if (!joined.includes('\n')) return `${base ? `${base} ` : ''}${braces[0]} ${joined} ${braces[1]}`
          }
        }
      }
      const ind = `\n${' '.repeat(ctx.indentationLvl)}`
      return `${base ? `${base} ` : ''}${braces[0]}${ind}  ${output.join(`,${ind}  `)}${ind}${braces[1]}`
    }
    if (isBelowBreakLength(ctx, output, 0, base)) return `${braces[0]}${base ? ` ${base}` : ''} ${output.join(', ')} ` + braces[1]
    const ind = ' '.repeat(ctx.indentationLvl)
    const ln = base === '' && braces[0].length === 1 ? ' ' : `${base ? ` ${base}` : ''}\n${ind}  `
    return `${braces[0]}${ln}${output.join(`,\n${ind}  `)} ${braces[1]}`
  }

  function inspect(value, opts) {
    const ctx = Object.assign({}, defaults, inspect.defaultOptions)
    if (typeof opts === 'boolean') ctx.showHidden = opts
    else if (opts !== null && typeof opts === 'object') for (const k of Object.keys(opts)) ctx[k] = opts[k]
    if (arguments.length > 2 && arguments[2] !== undefined) ctx.depth = arguments[2]
    if (ctx.depth === Infinity) ctx.depth = null
    if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity
    if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity
    ctx.opts = Object.assign({}, ctx)
    ctx.seen = []; ctx.indentationLvl = 0; ctx.currentDepth = 0; ctx.circular = undefined
    return formatValue(ctx, value, 0)
  }
  inspect.custom = customSym
  inspect.defaultOptions = Object.assign({}, defaults)

  function hasBuiltInToString(v) {
    if (typeof v.toString !== 'function') return true
    if (Object.prototype.hasOwnProperty.call(v, 'toString')) return false
    let p = v
    do { p = Object.getPrototypeOf(p) } while (p !== null && !Object.prototype.hasOwnProperty.call(p, 'toString'))
    if (p === null) return true
    const d = Object.getOwnPropertyDescriptor(p, 'constructor')
    return d !== undefined && typeof d.value === 'function' && builtIns.has(d.value.name)
  }

  function format(...args) {
    const first = args[0]
    let a = 0, str = '', join = ''
    if (typeof first === 'string') {
      if (args.length === 1) return first
      let tempStr, lastPos = 0
      for (let i = 0; i < first.length - 1; i++) {
        if (first.charCodeAt(i) !== 37) continue
        const next = first.charCodeAt(++i)
        if (a + 1 !== args.length) {
          switch (next) {
            case 115: { // s
              const t = args[++a]
              if (typeof t === 'number') tempStr = formatNumber(t)
              else if (typeof t === 'bigint') tempStr = `${t}n`
              else if (typeof t !== 'object' || t === null || !hasBuiltInToString(t)) tempStr = String(t)
              else tempStr = inspect(t, { depth: 0, colors: false, compact: 3 })
              break
            }
            case 106: { // j
              const t = args[++a]
              try { tempStr = JSON.stringify(t) } catch (e) { if (e instanceof TypeError && /circular/i.test(e.message)) tempStr = '[Circular]'; else throw e }
              break
            }
            case 100: { const t = args[++a]; tempStr = typeof t === 'bigint' ? `${t}n` : typeof t === 'symbol' ? 'NaN' : formatNumber(Number(t)); break } // d
            case 79: tempStr = inspect(args[++a]); break // O
            case 111: tempStr = inspect(args[++a], { showHidden: true, showProxy: true, depth: 4 }); break // o
            case 105: { const t = args[++a]; tempStr = typeof t === 'bigint' ? `${t}n` : typeof t === 'symbol' ? 'NaN' : formatNumber(Number.parseInt(t)); break } // i
            case 102: { const t = args[++a]; tempStr = typeof t === 'symbol' ? 'NaN' : formatNumber(Number.parseFloat(t)); break } // f
            case 99: a += 1; tempStr = ''; break // c
            case 37: str += first.slice(lastPos, i); lastPos = i + 1; continue
            default: continue
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1)
          str += tempStr
          lastPos = i + 1
        } else if (next === 37) {
          str += first.slice(lastPos, i)
          lastPos = i + 1
        }
      }
      if (lastPos !== 0) {
        a++; join = ' '
        if (lastPos < first.length) str += first.slice(lastPos)
      }
    }
    while (a < args.length) {
      const v = args[a]
      str += join + (typeof v !== 'string' ? inspect(v) : v)
      join = ' '
      a++
    }
    return str
  }

  return { inspect, format }
})
