// crypto.subtle probe: each case answers a JSON value or the name of the
// error it threw. testdata/subtle.node.json is what Node 20 answers:
//   node -e "$(cat testdata/subtle.js); run().then((r) => console.log(JSON.stringify(r, null, 1)))" > testdata/subtle.node.json
// Bun 1.x answers the same. The keys are fixed (made once by Node), so
// deterministic signatures compare byte for byte; ECDSA and RSA-PSS
// signatures are random and are verified instead (Node's among them).
async function run() {
  const s = crypto.subtle
  const enc = (t) => new TextEncoder().encode(t)
  const hex = (b) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, '0')).join('')
  const unhex = (h) => new Uint8Array(h.match(/../g).map((x) => parseInt(x, 16)))
  const b64 = (t) => new Uint8Array(Array.from(atob(t), (c) => c.charCodeAt(0)))
  const sorted = (o) => JSON.parse(JSON.stringify(o, Object.keys(o).sort()))
  const seq = (n) => Uint8Array.from({ length: n }, (_, i) => i)
  const ecJWK = { kty: 'EC', crv: 'P-256', x: 'qb1f3CP5OIc4QS8VxlX8TRPScHHX77qdcySwcIliMCA', y: 'isKojwGn8kSLlBkt6xfSTfBXLH2K4K6dcrwQzXbOYEs', d: 'rJu8V3JWDlrE1YLMd1QVbR5tQPhJQcyBTId4qlkPDm4' }
  const ecSigByNode = '85578a66fdd984f237fb6b2fda849c432dadd26919f5b314fe012bf51346d6f0530cc7d307fe8bd5118afbd5aaa45660cf9aef2e41bb5d6b62e66724f16c8783'
  const rsaPKCS8 = b64('MIICdQIBADANBgkqhkiG9w0BAQEFAASCAl8wggJbAgEAAoGBAMmCoLARdoct8RHJUbvYboE8co3CVEdhOhtgxJMdQGY8VpQgToNC/LbS50NGqSxEfjaMbjbtHBIXY2cmcnku/YSAHRmVck3u/1HTtZRCHL7OqMoWrHdg58goUjAm5tEtKwI+IVhx1RzchNRTEK30YYO16eqCqHWtspiGlx955bzFAgMBAAECgYBUMWXd6o3xUPqmCc1ChN021gCuxgDcifzzL20yYkhj7tXlsdHb+gMIh/nkHAPW4Q8yz13FSTAvRuJbWK7/fuig06OMUB+QR/X/WYGcOgWffGJoLrSeCd3M8Wsq+X14IYp112DjgXs3hp0eCVj2AvnKu3+S6TWox98un4XTG+LHyQJBAPB8UcqGC+LEhrnOtN2QxBiKr/+9UFaRjoGaoQLT+cp6ArNVdF6nogqFQNwYDabl1F9VcpEAjRGN0Tb4oz8ImnMCQQDWgp7PDm9W+7rk8F+5MighOR2mjJralSNGywoKGOwAG5qI63baoHv7L1gq7yIlIkDMwEZsWXzRZahNbVvPQWXnAkAwBqPO7jYxc030jXNRTDfdLtU3HXeN0kPDXj4JcovQA83GQqqavJ9/ulzZl3QigIOJBmd6zcFeYBQIBl+TlwRBAkANdzGk6dEPcsnuqTA5He7q9vzngZgO9KG8Re6hZ6MY9qKiybUyUDS4Neag+1X3YskSkVdaYdu2AV2pTp4eyootAkBbG7BmlLGlw1hqY3MAAgzlyY4dXIvXkRAV2KeponKDXwUFxMQJUe8OhLrH5HT/aqfnXfX8qqe7Eg8ritN//OXW')
  const pssSigByNode = '16cdcaab219c81a35d445245d650b0be812d6d56932952ff512f9b7fd354863915b5223aa8b3e797cecb0ac0f6f65abc452b7cb8bd24787ea3fc1e48c2ed6f85718d2e0b5a963016cf274803ddd7fc0feb00f7f410b12cc62ba09fcda55a5c0c4fab407f51c0f020d177d61cb4c84342646293b7bd2368574dfc8a40bbff0416'
  // RFC 8032 7.1 test 1
  const edJWK = { kty: 'OKP', crv: 'Ed25519', d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A', x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo' }
  const hmacKey = (hash, usages = ['sign', 'verify']) => s.importKey('raw', enc('Jefe'), { name: 'HMAC', hash }, true, usages)
  const aes = (name, key = seq(16), usages = ['encrypt', 'decrypt']) => s.importKey('raw', key, name, true, usages)
  const pbkdf2 = (usages = ['deriveBits', 'deriveKey']) => s.importKey('raw', enc('password'), 'PBKDF2', false, usages)
  const rsa = (name) => s.importKey('pkcs8', rsaPKCS8, { name, hash: 'SHA-256' }, true, ['sign'])
  const ecPublic = () => s.importKey('jwk', { kty: ecJWK.kty, crv: ecJWK.crv, x: ecJWK.x, y: ecJWK.y }, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['verify'])
  const describe = (k) => ({ type: k.type, extractable: k.extractable, algorithm: k.algorithm.publicExponent ? { ...k.algorithm, publicExponent: hex(k.algorithm.publicExponent) } : k.algorithm, usages: k.usages, tag: Object.prototype.toString.call(k) })
  const gcm = (iv, extra = {}) => ({ name: 'AES-GCM', iv, ...extra })
  const cases = {
    'digest SHA-1 abc': async () => hex(await s.digest('SHA-1', enc('abc'))),
    'digest SHA-256 abc': async () => hex(await s.digest('SHA-256', enc('abc'))),
    'digest SHA-384 abc': async () => hex(await s.digest({ name: 'sha-384' }, enc('abc'))),
    'digest SHA-512 empty': async () => hex(await s.digest('SHA-512', new Uint8Array(0))),
    'digest of a DataView slice': async () => hex(await s.digest('SHA-256', new DataView(enc('xabcx').buffer, 1, 3))),
    'digest MD5 refused': () => s.digest('MD5', enc('abc')),
    'HMAC SHA-1 RFC 2202': async () => hex(await s.sign('HMAC', await hmacKey('SHA-1'), enc('what do ya want for nothing?'))),
    'HMAC SHA-256 RFC 4231': async () => hex(await s.sign('HMAC', await hmacKey('SHA-256'), enc('what do ya want for nothing?'))),
    'HMAC SHA-384 RFC 4231': async () => hex(await s.sign('HMAC', await hmacKey('SHA-384'), enc('what do ya want for nothing?'))),
    'HMAC SHA-512 RFC 4231': async () => hex(await s.sign('HMAC', await hmacKey('SHA-512'), enc('what do ya want for nothing?'))),
    'HMAC verify': async () => { const k = await hmacKey('SHA-256'); const sig = await s.sign('HMAC', k, enc('m')); return [await s.verify('HMAC', k, sig, enc('m')), await s.verify('HMAC', k, sig, enc('n')), await s.verify('HMAC', k, sig.slice(1), enc('m'))] },
    'HMAC key': async () => describe(await hmacKey('SHA-256')),
    'HMAC export raw': async () => hex(await s.exportKey('raw', await hmacKey('SHA-256'))),
    'HMAC export jwk': async () => sorted(await s.exportKey('jwk', await hmacKey('SHA-384'))),
    'HMAC jwk round trip': async () => { const k = await s.importKey('jwk', { kty: 'oct', k: 'SmVmZQ', alg: 'HS256' }, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']); return hex(await s.sign('HMAC', k, enc('what do ya want for nothing?'))) },
    'HMAC generate SHA-512': async () => { const k = await s.generateKey({ name: 'HMAC', hash: 'SHA-512' }, true, ['sign']); return [describe(k), (await s.exportKey('raw', k)).byteLength] },
    'HMAC sign with a verify key': async () => s.sign('HMAC', await hmacKey('SHA-256', ['verify']), enc('m')),
    'HMAC bad usage': () => hmacKey('SHA-256', ['encrypt']),
    'HMAC no hash': () => s.importKey('raw', enc('k'), { name: 'HMAC' }, false, ['sign']),
    'non-extractable export': async () => s.exportKey('raw', await s.importKey('raw', enc('k'), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])),
    'AES-GCM encrypt': async () => hex(await s.encrypt(gcm(seq(12), { additionalData: enc('aad') }), await aes('AES-GCM'), enc('attack at dawn'))),
    'AES-GCM round trip': async () => { const k = await aes('AES-GCM', seq(32)); const c = await s.encrypt(gcm(seq(12)), k, enc('attack at dawn')); return new TextDecoder().decode(await s.decrypt(gcm(seq(12)), k, c)) },
    'AES-GCM 96-bit tag': async () => hex(await s.encrypt(gcm(seq(12), { tagLength: 96 }), await aes('AES-GCM'), enc('x'))),
    'AES-GCM 16-byte iv': async () => hex(await s.encrypt(gcm(seq(16)), await aes('AES-GCM', seq(24)), enc('long iv'))),
    'AES-GCM tampered': async () => { const k = await aes('AES-GCM'); const c = new Uint8Array(await s.encrypt(gcm(seq(12)), k, enc('m'))); c[0] ^= 1; return s.decrypt(gcm(seq(12)), k, c) },
    'AES-GCM bad tag length': async () => s.encrypt(gcm(seq(12), { tagLength: 100 }), await aes('AES-GCM'), enc('m')),
    'AES-GCM no iv': async () => s.encrypt({ name: 'AES-GCM' }, await aes('AES-GCM'), enc('m')),
    'AES-CBC encrypt': async () => hex(await s.encrypt({ name: 'AES-CBC', iv: seq(16) }, await aes('AES-CBC'), enc('sixteen bytes!!!'))),
    'AES-CBC round trip': async () => { const k = await aes('AES-CBC', seq(32)); const c = await s.encrypt({ name: 'AES-CBC', iv: seq(16) }, k, enc('odd length')); return [c.byteLength, new TextDecoder().decode(await s.decrypt({ name: 'AES-CBC', iv: seq(16) }, k, c))] },
    'AES-CBC bad iv': async () => s.encrypt({ name: 'AES-CBC', iv: seq(12) }, await aes('AES-CBC'), enc('m')),
    'AES-CBC bad padding': async () => s.decrypt({ name: 'AES-CBC', iv: seq(16) }, await aes('AES-CBC'), new Uint8Array(16)),
    'AES-CTR encrypt': async () => hex(await s.encrypt({ name: 'AES-CTR', counter: seq(16), length: 64 }, await aes('AES-CTR'), enc('counter mode, more than a block'))),
    'AES-CTR counter wraps': async () => { const counter = new Uint8Array(16).fill(0xff); counter[0] = 7; return hex(await s.encrypt({ name: 'AES-CTR', counter, length: 8 }, await aes('AES-CTR'), new Uint8Array(40))) },
    'AES-CTR round trip': async () => { const k = await aes('AES-CTR'); const p = { name: 'AES-CTR', counter: seq(16), length: 128 }; return new TextDecoder().decode(await s.decrypt(p, k, await s.encrypt(p, k, enc('ctr')))) },
    'AES key': async () => describe(await aes('AES-CBC', seq(24))),
    'AES bad key length': () => aes('AES-GCM', seq(15)),
    'AES export jwk': async () => sorted(await s.exportKey('jwk', await aes('AES-GCM', seq(32)))),
    'AES generate 256': async () => { const k = await s.generateKey({ name: 'AES-GCM', length: 256 }, true, ['decrypt', 'encrypt']); return [describe(k), (await s.exportKey('raw', k)).byteLength] },
    'AES key used for another mode': async () => s.encrypt({ name: 'AES-CBC', iv: seq(16) }, await aes('AES-GCM'), enc('m')),
    'AES decrypt with an encrypt key': async () => s.decrypt(gcm(seq(12)), await aes('AES-GCM', seq(16), ['encrypt']), new Uint8Array(32)),
    'PBKDF2 SHA-1 RFC 6070 c=2': async () => hex(await s.deriveBits({ name: 'PBKDF2', salt: enc('salt'), iterations: 2, hash: 'SHA-1' }, await pbkdf2(), 160)),
    'PBKDF2 SHA-256 c=4096': async () => hex(await s.deriveBits({ name: 'PBKDF2', salt: enc('salt'), iterations: 4096, hash: 'SHA-256' }, await pbkdf2(), 256)),
    'PBKDF2 SHA-512 two blocks': async () => hex(await s.deriveBits({ name: 'PBKDF2', salt: enc('salt'), iterations: 3, hash: 'SHA-512' }, await pbkdf2(), 1024 + 64)),
    'PBKDF2 length not a multiple of 8': async () => s.deriveBits({ name: 'PBKDF2', salt: enc('salt'), iterations: 1, hash: 'SHA-256' }, await pbkdf2(), 250),
    'PBKDF2 extractable': () => s.importKey('raw', enc('pw'), 'PBKDF2', true, ['deriveBits']),
    'PBKDF2 without deriveBits': async () => s.deriveBits({ name: 'PBKDF2', salt: enc('salt'), iterations: 1, hash: 'SHA-256' }, await pbkdf2(['deriveKey']), 256),
    'PBKDF2 deriveKey AES-GCM': async () => { const k = await s.deriveKey({ name: 'PBKDF2', salt: enc('salt'), iterations: 10, hash: 'SHA-256' }, await pbkdf2(), { name: 'AES-GCM', length: 128 }, true, ['encrypt']); return [describe(k), hex(await s.exportKey('raw', k))] },
    'HKDF RFC 5869 case 1': async () => { const k = await s.importKey('raw', new Uint8Array(22).fill(0x0b), 'HKDF', false, ['deriveBits']); return hex(await s.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: seq(13), info: unhex('f0f1f2f3f4f5f6f7f8f9') }, k, 42 * 8)) },
    'HKDF deriveKey HMAC': async () => { const k = await s.importKey('raw', seq(16), 'HKDF', false, ['deriveKey']); const d = await s.deriveKey({ name: 'HKDF', hash: 'SHA-384', salt: new Uint8Array(0), info: enc('i') }, k, { name: 'HMAC', hash: 'SHA-256' }, true, ['sign']); return [describe(d), hex(await s.exportKey('raw', d))] },
    'ECDSA import jwk and verify Node signature': async () => s.verify({ name: 'ECDSA', hash: 'SHA-256' }, await ecPublic(), unhex(ecSigByNode), enc('hello')),
    'ECDSA sign and verify': async () => { const k = await s.importKey('jwk', ecJWK, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['sign']); const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-384' }, k, enc('m')); const p = await ecPublic(); return [sig.byteLength, await s.verify({ name: 'ECDSA', hash: 'SHA-384' }, p, sig, enc('m')), await s.verify({ name: 'ECDSA', hash: 'SHA-384' }, p, sig, enc('n'))] },
    'ECDSA export raw and spki': async () => { const p = await ecPublic(); return [hex(await s.exportKey('raw', p)), hex(await s.exportKey('spki', p))] },
    'ECDSA export jwk': async () => sorted(await s.exportKey('jwk', await s.importKey('jwk', ecJWK, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']))),
    'ECDSA pkcs8 round trip': async () => { const k = await s.importKey('jwk', ecJWK, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']); const again = await s.importKey('pkcs8', await s.exportKey('pkcs8', k), { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign']); return sorted(await s.exportKey('jwk', again)).d === ecJWK.d },
    'ECDSA generate P-384 and P-521': async () => { const out = []; for (const namedCurve of ['P-384', 'P-521']) { const g = await s.generateKey({ name: 'ECDSA', namedCurve }, true, ['sign', 'verify']); const sig = await s.sign({ name: 'ECDSA', hash: 'SHA-256' }, g.privateKey, enc('m')); out.push([describe(g.publicKey), describe(g.privateKey), sig.byteLength, await s.verify({ name: 'ECDSA', hash: 'SHA-256' }, g.publicKey, sig, enc('m'))]) } return out },
    'ECDSA wrong curve': () => s.importKey('jwk', ecJWK, { name: 'ECDSA', namedCurve: 'P-384' }, false, ['sign']),
    'ECDSA export raw private': async () => s.exportKey('raw', await s.importKey('jwk', ecJWK, { name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign'])),
    'Ed25519 RFC 8032 test 1': async () => hex(await s.sign('Ed25519', await s.importKey('jwk', edJWK, 'Ed25519', false, ['sign']), new Uint8Array(0))),
    'Ed25519 verify and export': async () => { const p = await s.importKey('raw', b64(edJWK.x.replace(/-/g, '+').replace(/_/g, '/') + '='), 'Ed25519', true, ['verify']); const sig = await s.sign('Ed25519', await s.importKey('jwk', edJWK, 'Ed25519', false, ['sign']), enc('m')); return [await s.verify('Ed25519', p, sig, enc('m')), await s.verify('Ed25519', p, sig, enc('n')), hex(await s.exportKey('spki', p)), describe(p)] },
    'Ed25519 pkcs8': async () => hex(await s.exportKey('pkcs8', await s.importKey('jwk', edJWK, 'Ed25519', true, ['sign']))),
    'Ed25519 generate': async () => { const g = await s.generateKey('Ed25519', true, ['sign', 'verify']); const sig = await s.sign('Ed25519', g.privateKey, enc('m')); return [Object.keys(g).sort(), describe(g.privateKey), await s.verify('Ed25519', g.publicKey, sig, enc('m'))] },
    'RSASSA-PKCS1-v1_5 sign': async () => hex(await s.sign('RSASSA-PKCS1-v1_5', await rsa('RSASSA-PKCS1-v1_5'), enc('hello'))),
    'RSA key': async () => describe(await rsa('RSASSA-PKCS1-v1_5')),
    'RSA export jwk': async () => sorted(await s.exportKey('jwk', await rsa('RSASSA-PKCS1-v1_5'))),
    'RSA jwk public verify': async () => { const j = await s.exportKey('jwk', await rsa('RSASSA-PKCS1-v1_5')); const pub = await s.importKey('jwk', { kty: 'RSA', n: j.n, e: j.e }, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, true, ['verify']); const sig = await s.sign('RSASSA-PKCS1-v1_5', await rsa('RSASSA-PKCS1-v1_5'), enc('m')); return [await s.verify('RSASSA-PKCS1-v1_5', pub, sig, enc('m')), await s.verify('RSASSA-PKCS1-v1_5', pub, sig, enc('n')), hex(await s.exportKey('spki', pub)).length] },
    'RSA-PSS verify Node signature': async () => { const j = await s.exportKey('jwk', await rsa('RSA-PSS')); const pub = await s.importKey('jwk', { kty: 'RSA', n: j.n, e: j.e }, { name: 'RSA-PSS', hash: 'SHA-256' }, false, ['verify']); return [await s.verify({ name: 'RSA-PSS', saltLength: 32 }, pub, unhex(pssSigByNode), enc('hello')), await s.verify({ name: 'RSA-PSS', saltLength: 20 }, pub, unhex(pssSigByNode), enc('hello'))] },
    'RSA-PSS no saltLength': async () => s.sign({ name: 'RSA-PSS' }, await rsa('RSA-PSS'), enc('m')),
    'RSA generate 1024': async () => { const g = await s.generateKey({ name: 'RSA-PSS', modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }, true, ['sign', 'verify']); const sig = await s.sign({ name: 'RSA-PSS', saltLength: 32 }, g.privateKey, enc('m')); return [describe(g.publicKey), describe(g.privateKey), sig.byteLength, await s.verify({ name: 'RSA-PSS', saltLength: 32 }, g.publicKey, sig, enc('m'))] },
    'unknown algorithm': () => s.generateKey({ name: 'FOO' }, false, ['sign']),
    'bad key format': () => s.importKey('foo', seq(16), 'AES-GCM', false, ['encrypt']),
    'empty usages': () => s.importKey('raw', seq(16), 'AES-GCM', false, []),
    'digest of a string': () => s.digest('SHA-256', 'abc'),
    'getRandomValues Float64Array': () => crypto.getRandomValues(new Float64Array(2)),
    'getRandomValues Uint32Array': () => { const a = crypto.getRandomValues(new Uint32Array(8)); return [a.length, a instanceof Uint32Array] },
    'classes': () => [typeof CryptoKey, typeof SubtleCrypto, Object.prototype.toString.call(crypto.subtle), crypto.subtle instanceof SubtleCrypto],
  }
  const out = {}
  for (const [name, f] of Object.entries(cases)) {
    try { out[name] = await f() } catch (e) { out[name] = { threw: e.name } }
  }
  return out
}
