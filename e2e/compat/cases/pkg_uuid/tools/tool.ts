// uuid: deterministic v5/v3, v7 from fixed inputs, validation.
import { v4, v5, v3, v7, validate, version, parse, stringify, NIL } from 'uuid'

export default {
  description: 'uuids',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  async execute(args: { name?: string }) {
    const name = args.name ?? 'beeuni.example'
    return {
      v5: v5(name, v5.DNS),
      v3: v3(name, v3.URL),
      v4shape: validate(v4()) && version(v4()) === 4,
      v7: v7({ msecs: 1704164645000, random: new Uint8Array(16).fill(7), seq: 0 }),
      parsed: Array.from(parse('6ba7b810-9dad-11d1-80b4-00c04fd430c8')).slice(0, 4),
      stringify: stringify(new Uint8Array(16).fill(255)),
      nil: NIL, invalid: validate('not-a-uuid'),
    }
  },
}
