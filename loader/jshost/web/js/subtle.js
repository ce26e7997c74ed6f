// crypto.subtle for tool modules, as Bun (WebKit) answers it: this file
// normalizes the arguments, checks formats and usages and makes the
// CryptoKey objects; the cryptography is Go (subtle.go, the bindings n).
// Called once per runtime, on the first read of the crypto global; it
// returns { subtle, CryptoKey, SubtleCrypto }.
(function (n, DOMException) {
  'use strict'
  const SHA = ['SHA-1', 'SHA-256', 'SHA-384', 'SHA-512']
  const AES = ['AES-GCM', 'AES-CBC', 'AES-CTR']
  const SIGN = ['HMAC', 'ECDSA', 'Ed25519', 'RSASSA-PKCS1-v1_5', 'RSA-PSS']
  const RSA = ['RSASSA-PKCS1-v1_5', 'RSA-PSS']
  const KDF = ['PBKDF2', 'HKDF']
  const ops = {
    digest: SHA, sign: SIGN, verify: SIGN, encrypt: AES, decrypt: AES, deriveBits: KDF,
    generateKey: ['HMAC', ...AES, 'ECDSA', 'Ed25519', ...RSA],
    importKey: ['HMAC', ...AES, 'ECDSA', 'Ed25519', ...RSA, ...KDF],
  }
  // Web Crypto algorithms this host does not implement: refused by name
  // rather than taken for unknown.
  const missing = ['AES-KW', 'ECDH', 'X25519', 'X448', 'Ed448', 'RSA-OAEP']
  const known = [...new Set([...Object.values(ops).flat(), ...missing])]
  const usageOrder = ['encrypt', 'decrypt', 'sign', 'verify', 'deriveKey', 'deriveBits', 'wrapKey', 'unwrapKey']
  const formats = ['raw', 'spki', 'pkcs8', 'jwk']
  const curves = ['P-256', 'P-384', 'P-521']

  const fail = (msg, name) => { throw new DOMException(msg, name) }
  const typeError = (msg, code) => { const e = new TypeError(msg); e.code = code; return e }
  const required = (o, dict, field, type) => {
    if (o[field] === undefined) throw typeError(`Member ${dict}.${field} is required and must be an instance of ${type}`, 'ERR_MISSING_OPTION')
    return o[field]
  }
  const describe = (v) => {
    if (v === null) return 'null'
    if (v === undefined) return 'undefined'
    if (typeof v === 'object' || typeof v === 'function') return v.constructor && v.constructor.name ? 'an instance of ' + v.constructor.name : typeof v
    return `type ${typeof v} (${typeof v === 'string' ? `'${v}'` : String(v)})`
  }
  // bytes copies a BufferSource, so a later change by the module does not
  // reach an operation under way.
  const bytes = (v, arg) => {
    if (v instanceof ArrayBuffer) return new Uint8Array(v.slice(0))
    if (ArrayBuffer.isView(v)) return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength))
    throw typeError(`The "${arg}" argument must be of type ArrayBuffer, Buffer, TypedArray, or DataView. Received ${describe(v)}`, 'ERR_INVALID_ARG_TYPE')
  }
  const member = (o, dict, field) => bytes(required(o, dict, field, '(ArrayBufferView or ArrayBuffer)'), field)

  const normalize = (op, alg) => {
    if (typeof alg === 'string') alg = { name: alg }
    else if (alg === null || typeof alg !== 'object') throw typeError(`Failed to execute '${op}' on 'SubtleCrypto': the algorithm must be an object or a string`, 'ERR_INVALID_ARG_TYPE')
    const given = String(required(alg, 'Algorithm', 'name', 'DOMString'))
    const name = known.find((k) => k.toUpperCase() === given.toUpperCase())
    if (name && missing.includes(name)) fail(`${name} is not supported by this host's crypto.subtle (it has ${[...SIGN, ...AES, ...KDF].join(', ')} and the SHA digests)`, 'NotSupportedError')
    if (!name || !ops[op].includes(name)) fail('Unrecognized algorithm name', 'NotSupportedError')
    return { ...alg, name }
  }
  const hashOf = (alg, dict) => normalize('digest', required(alg, dict, 'hash', '(object or DOMString)')).name
  const format = (f, op) => {
    if (!formats.includes(f)) throw typeError(`Failed to execute '${op}' on 'SubtleCrypto': 1st argument '${f}' is not a valid enum value of type KeyFormat.`, 'ERR_INVALID_ARG_VALUE')
    return f
  }
  const usageList = (usages) => usageOrder.filter((u) => Array.from(usages, String).includes(u))
  const article = { HMAC: 'HMAC key', ECDSA: 'an ECDSA key', Ed25519: 'an Ed25519 key', PBKDF2: 'a PBKDF2 key', HKDF: 'a HKDF key' }
  const allowed = (name) => (AES.includes(name) ? ['encrypt', 'decrypt', 'wrapKey', 'unwrapKey'] : KDF.includes(name) ? ['deriveKey', 'deriveBits'] : ['sign', 'verify'])
  const checkUsages = (name, usages, generate) => {
    const bad = Array.from(usages, String).find((u) => !allowed(name).includes(u))
    if (bad === undefined) return
    if (generate && (name === 'ECDSA' || name === 'Ed25519')) throw new SyntaxError('A required parameter was missing or out-of-range')
    throw new SyntaxError(`Unsupported key usage for ${AES.includes(name) ? 'an AES key' : RSA.includes(name) ? 'a RSA key' : article[name]}`)
  }

  const slots = new WeakMap()
  class CryptoKey {
    constructor() { throw new TypeError('Illegal constructor') }
    get type() { return slot(this).type }
    get extractable() { return slot(this).extractable }
    get algorithm() { return slot(this).algorithm }
    get usages() { return slot(this).usages }
  }
  Object.defineProperty(CryptoKey.prototype, Symbol.toStringTag, { value: 'CryptoKey', configurable: true })
  const slot = (k) => {
    const s = slots.get(k)
    if (!s) throw new TypeError("Argument 'key' is not a CryptoKey")
    return s
  }
  const makeKey = (handle, type, extractable, algorithm, usages) => {
    const k = Object.create(CryptoKey.prototype)
    slots.set(k, { handle, type, extractable: !!extractable, algorithm, usages })
    return k
  }
  const useKey = (key, name, usage) => {
    const s = slot(key)
    if (s.algorithm.name !== name) fail('Key algorithm mismatch', 'InvalidAccessError')
    if (!s.usages.includes(usage)) fail(`Unable to use this key to ${usage}`, 'InvalidAccessError')
    return s
  }
  // blockBits is the default HMAC key length: the hash's block size.
  const blockBits = (hash) => (hash === 'SHA-384' || hash === 'SHA-512' ? 1024 : 512)

  // keyParams are the members of an import or generate algorithm the Go
  // side needs, checked as WebKit checks them.
  const hashAlgorithm = (alg, dict) => ({ name: alg.name, hash: { name: hashOf(alg, dict) } })

  const signParams = (alg, s) => {
    const p = { hash: s.algorithm.hash && s.algorithm.hash.name }
    if (alg.name === 'ECDSA') p.hash = hashOf(alg, 'EcdsaParams')
    if (alg.name === 'RSA-PSS') p.saltLength = Number(required(alg, 'RsaPssParams', 'saltLength', 'unsigned long'))
    return p
  }
  const cipherParams = (alg) => {
    switch (alg.name) {
      case 'AES-GCM': return { iv: member(alg, 'AesGcmParams', 'iv'), additionalData: alg.additionalData === undefined ? undefined : bytes(alg.additionalData, 'additionalData'), tagLength: alg.tagLength === undefined ? 128 : Number(alg.tagLength) }
      case 'AES-CBC': return { iv: member(alg, 'AesCbcParams', 'iv') }
      default: return { counter: member(alg, 'AesCtrParams', 'counter'), length: Number(required(alg, 'AesCtrParams', 'length', 'octet')) }
    }
  }
  const deriveParams = (alg) => alg.name === 'PBKDF2'
    ? { salt: member(alg, 'Pbkdf2Params', 'salt'), iterations: Number(required(alg, 'Pbkdf2Params', 'iterations', 'unsigned long')), hash: hashOf(alg, 'Pbkdf2Params') }
    : { salt: member(alg, 'HkdfParams', 'salt'), info: member(alg, 'HkdfParams', 'info'), hash: hashOf(alg, 'HkdfParams') }

  const importKey = (fmt, data, algorithm, extractable, usages) => {
    fmt = format(fmt, 'importKey')
    const alg = normalize('importKey', algorithm)
    const name = alg.name
    let keyAlg = { name }
    const p = {}
    if (name === 'HMAC') keyAlg = hashAlgorithm(alg, 'HmacKeyParams')
    else if (name === 'ECDSA') keyAlg.namedCurve = p.namedCurve = String(required(alg, 'EcKeyImportParams', 'namedCurve', 'DOMString'))
    else if (RSA.includes(name)) keyAlg = hashAlgorithm(alg, 'RsaHashedImportParams')
    if (name === 'ECDSA' && !curves.includes(p.namedCurve)) fail('The algorithm is not supported', 'NotSupportedError')
    if (KDF.includes(name) && extractable) throw new SyntaxError(`${name} keys are not extractable`)
    checkUsages(name, usages, false)
    if (fmt === 'jwk') {
      if (data === null || typeof data !== 'object' || ArrayBuffer.isView(data) || data instanceof ArrayBuffer) throw typeError("Failed to execute 'importKey' on 'SubtleCrypto': keyData must be a JsonWebKey for the jwk format", 'ERR_INVALID_ARG_TYPE')
      if (data.ext === false && extractable) fail('Invalid keyData', 'DataError')
      if (Array.isArray(data.key_ops) && Array.from(usages, String).some((u) => !data.key_ops.includes(u))) fail('Invalid keyData', 'DataError')
      const jwk = {}
      for (const k of ['kty', 'k', 'crv', 'x', 'y', 'd', 'n', 'e', 'p', 'q', 'dp', 'dq', 'qi']) if (typeof data[k] === 'string') jwk[k] = data[k]
      data = jwk
    } else data = bytes(data, 'keyData')
    const got = n.importKey(fmt, name, data, p)
    if (name === 'HMAC') keyAlg.length = alg.length === undefined ? got.bits : Number(alg.length)
    else if (AES.includes(name)) keyAlg.length = got.bits
    else if (RSA.includes(name)) { keyAlg = { name, modulusLength: got.bits, publicExponent: got.exponent, hash: keyAlg.hash } }
    const list = usageList(usages)
    if (got.type === 'public' && list.some((u) => u !== 'verify')) throw new SyntaxError(`Unsupported key usage for ${RSA.includes(name) ? 'a RSA key' : article[name]}`)
    if (got.type !== 'public' && list.length === 0) throw new SyntaxError(`Usages cannot be empty when importing a ${got.type} key.`)
    if (got.type === 'private' && list.some((u) => u !== 'sign')) throw new SyntaxError(`Unsupported key usage for ${RSA.includes(name) ? 'a RSA key' : article[name]}`)
    return makeKey(got.handle, got.type, extractable, keyAlg, list)
  }

  const jwkAlg = (a) => {
    const bits = (h) => h.name.slice(4)
    switch (a.name) {
      case 'HMAC': return 'HS' + bits(a.hash)
      case 'AES-GCM': case 'AES-CBC': case 'AES-CTR': return 'A' + a.length + a.name.slice(4)
      case 'RSASSA-PKCS1-v1_5': return a.hash.name === 'SHA-1' ? 'RS1' : 'RS' + bits(a.hash)
      case 'RSA-PSS': return a.hash.name === 'SHA-1' ? 'PS1' : 'PS' + bits(a.hash)
      case 'Ed25519': return 'Ed25519'
    }
  }
  const exportKey = (fmt, key) => {
    fmt = format(fmt, 'exportKey')
    const s = slot(key)
    if (!s.extractable) fail('key is not extractable', 'InvalidAccessError')
    const out = n.exportKey(fmt, s.algorithm.name, s.handle)
    if (fmt !== 'jwk') return out
    const alg = jwkAlg(s.algorithm)
    if (alg) out.alg = alg
    out.ext = true
    out.key_ops = s.usages.slice()
    const sorted = {}
    for (const k of Object.keys(out).sort()) sorted[k] = out[k]
    return sorted
  }

  const generateKey = (algorithm, extractable, usages) => {
    const alg = normalize('generateKey', algorithm)
    const name = alg.name
    checkUsages(name, usages, true)
    const list = usageList(usages)
    let keyAlg = { name }
    const p = {}
    if (name === 'HMAC') {
      keyAlg = hashAlgorithm(alg, 'HmacKeyParams')
      keyAlg.length = p.length = alg.length === undefined ? blockBits(keyAlg.hash.name) : Number(alg.length)
    } else if (AES.includes(name)) keyAlg.length = p.length = Number(required(alg, 'AesKeyGenParams', 'length', 'unsigned short'))
    else if (name === 'ECDSA') {
      keyAlg.namedCurve = p.namedCurve = String(required(alg, 'EcKeyGenParams', 'namedCurve', 'DOMString'))
      if (!curves.includes(p.namedCurve)) fail('The algorithm is not supported', 'NotSupportedError')
    } else if (RSA.includes(name)) {
      p.modulusLength = Number(required(alg, 'RsaHashedKeyGenParams', 'modulusLength', 'unsigned long'))
      p.publicExponent = member(alg, 'RsaHashedKeyGenParams', 'publicExponent')
      keyAlg = { name, modulusLength: p.modulusLength, publicExponent: p.publicExponent, hash: { name: hashOf(alg, 'RsaHashedKeyGenParams') } }
    }
    const priv = list.filter((u) => u !== 'verify')
    if ((name === 'ECDSA' || name === 'Ed25519' || RSA.includes(name)) ? priv.length === 0 : list.length === 0) throw new SyntaxError('Usages cannot be empty when creating a key.')
    const got = n.generateKey(name, p)
    if (!Array.isArray(got)) return makeKey(got, 'secret', extractable, keyAlg, list)
    const copy = () => (keyAlg.publicExponent ? { ...keyAlg, publicExponent: new Uint8Array(keyAlg.publicExponent) } : { ...keyAlg })
    return {
      privateKey: makeKey(got[1], 'private', extractable, copy(), priv),
      publicKey: makeKey(got[0], 'public', true, copy(), list.filter((u) => u === 'verify')),
    }
  }

  const deriveBits = (algorithm, baseKey, length, usage) => {
    const alg = normalize('deriveBits', algorithm)
    const s = slot(baseKey)
    if (s.algorithm.name !== alg.name) fail('Key algorithm mismatch', 'InvalidAccessError')
    if (!s.usages.includes(usage)) fail(`baseKey does not have ${usage} usage`, 'InvalidAccessError')
    if (length === undefined || length === null) fail('length cannot be null', 'OperationError')
    length = Number(length)
    if (length % 8 !== 0) fail('length must be a multiple of 8', 'OperationError')
    return n.deriveBits(alg.name, s.handle, deriveParams(alg), length)
  }
  const derivedLength = (algorithm) => {
    const a = normalize('importKey', algorithm)
    if (AES.includes(a.name)) {
      const len = Number(required(a, 'AesDerivedKeyParams', 'length', 'unsigned short'))
      if (![128, 192, 256].includes(len)) fail('The operation failed for an operation-specific reason', 'OperationError')
      return len
    }
    if (a.name === 'HMAC') return a.length === undefined ? blockBits(hashOf(a, 'HmacImportParams')) : Number(a.length)
    fail('Unrecognized algorithm name', 'NotSupportedError')
  }

  // Each method runs to its end before it answers (the Go work is
  // synchronous), but answers a promise, and a throw becomes its rejection.
  const methods = {
    digest(algorithm, data) { return n.digest(normalize('digest', algorithm).name, bytes(data, 'data')) },
    importKey,
    exportKey,
    generateKey,
    sign(algorithm, key, data) {
      const alg = normalize('sign', algorithm)
      const s = useKey(key, alg.name, 'sign')
      return n.sign(alg.name, s.handle, bytes(data, 'data'), signParams(alg, s))
    },
    verify(algorithm, key, signature, data) {
      const alg = normalize('verify', algorithm)
      const s = useKey(key, alg.name, 'verify')
      return n.verify(alg.name, s.handle, bytes(signature, 'signature'), bytes(data, 'data'), signParams(alg, s))
    },
    encrypt(algorithm, key, data) {
      const alg = normalize('encrypt', algorithm)
      return n.encrypt(alg.name, useKey(key, alg.name, 'encrypt').handle, bytes(data, 'data'), cipherParams(alg), false)
    },
    decrypt(algorithm, key, data) {
      const alg = normalize('decrypt', algorithm)
      return n.encrypt(alg.name, useKey(key, alg.name, 'decrypt').handle, bytes(data, 'data'), cipherParams(alg), true)
    },
    deriveBits(algorithm, baseKey, length) { return deriveBits(algorithm, baseKey, length, 'deriveBits') },
    deriveKey(algorithm, baseKey, derivedKeyType, extractable, usages) {
      const bits = deriveBits(algorithm, baseKey, derivedLength(derivedKeyType), 'deriveKey')
      return importKey('raw', bits, derivedKeyType, extractable, usages)
    },
    wrapKey() { fail("wrapKey is not supported by this host's crypto.subtle: export the key and encrypt it", 'NotSupportedError') },
    unwrapKey() { fail("unwrapKey is not supported by this host's crypto.subtle: decrypt the key and import it", 'NotSupportedError') },
  }
  class SubtleCrypto {
    constructor() { throw new TypeError('Illegal constructor') }
  }
  Object.defineProperty(SubtleCrypto.prototype, Symbol.toStringTag, { value: 'SubtleCrypto', configurable: true })
  for (const [k, f] of Object.entries(methods)) {
    const m = { async [k](...args) { return f(...args) } }[k]
    Object.defineProperty(m, 'length', { value: f.length })
    Object.defineProperty(SubtleCrypto.prototype, k, { value: m, writable: true, configurable: true, enumerable: true })
  }
  const subtle = Object.create(SubtleCrypto.prototype)
  return { subtle, CryptoKey, SubtleCrypto }
})
