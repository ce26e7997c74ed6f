// crypto.subtle and crypto.getRandomValues, as webhook and signing tools use them.
import { webcrypto, createHash, createHmac, randomUUID } from 'node:crypto'

const hex = (b: ArrayBuffer) => Buffer.from(b).toString('hex')

export default {
  description: 'Web Crypto',
  parameters: { type: 'object', properties: { message: { type: 'string' } } },
  async execute(args: { message?: string }) {
    const data = new TextEncoder().encode(args.message ?? 'the message')
    const key = await crypto.subtle.importKey('raw', new TextEncoder().encode('secret'), { name: 'HMAC', hash: 'SHA-256' }, true, ['sign', 'verify'])
    const sig = await crypto.subtle.sign('HMAC', key, data)
    const aes = await crypto.subtle.importKey('raw', new Uint8Array(16).fill(7), { name: 'AES-GCM' }, false, ['encrypt', 'decrypt'])
    const iv = new Uint8Array(12).fill(1)
    const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aes, data)
    const opened = new TextDecoder().decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv }, aes, sealed))
    const random = crypto.getRandomValues(new Uint8Array(16))
    return {
      sha256: hex(await crypto.subtle.digest('SHA-256', data)),
      sha1: hex(await crypto.subtle.digest('SHA-1', data)),
      sha512len: (await crypto.subtle.digest('SHA-512', data)).byteLength,
      hmac: hex(sig),
      hmacMatchesNode: hex(sig) === createHmac('sha256', 'secret').update(data).digest('hex'),
      digestMatchesNode: hex(await crypto.subtle.digest('SHA-256', data)) === createHash('sha256').update(data).digest('hex'),
      verify: [await crypto.subtle.verify('HMAC', key, sig, data), await crypto.subtle.verify('HMAC', key, sig, new Uint8Array([1]))],
      exported: hex(await crypto.subtle.exportKey('raw', key)),
      aesGcm: { sealedBytes: sealed.byteLength, ciphertext: hex(sealed), opened },
      random: { length: random.length, isUint8: random instanceof Uint8Array },
      uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(crypto.randomUUID()) && randomUUID().length === 36,
      webcryptoIsGlobal: webcrypto.subtle === crypto.subtle,
      tooLarge: (() => { try { crypto.getRandomValues(new Uint8Array(70000)); return 'accepted' } catch (e) { return (e as Error).name } })(),
    }
  },
}
