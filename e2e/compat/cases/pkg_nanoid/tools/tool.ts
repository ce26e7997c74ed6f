// nanoid: ids of the right shape, and seeded custom ids.
import { nanoid, customAlphabet, customRandom, urlAlphabet } from 'nanoid'

function seeded(seed: number) {
  return (size: number) => { const out = new Uint8Array(size); for (let i = 0; i < size; i++) { seed = (seed * 1103515245 + 12345) & 0x7fffffff; out[i] = seed & 255 } return out }
}

export default {
  description: 'ids with nanoid',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const id = nanoid()
    const short = customAlphabet('0123456789abcdef', 10)()
    return {
      idShape: id.length === 21 && /^[A-Za-z0-9_-]+$/.test(id),
      shortShape: /^[0-9a-f]{10}$/.test(short),
      seeded: customRandom('abcdefghij', 12, seeded(42))(),
      alphabet: urlAlphabet.length,
    }
  },
}
