// tools/dice_roll.ts: roll dice. Pass a seed to get the same rolls every time.

function mulberry32(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export default {
  description: 'Roll dice: count dice with sides faces each. Returns each roll and the total.',
  parameters: {
    type: 'object',
    properties: {
      count: { type: 'integer', description: 'How many dice, 1 to 100 (default 1)' },
      sides: { type: 'integer', description: 'Faces per die, 2 to 1000 (default 6)' },
      seed: { type: 'integer', description: 'Optional seed: the same seed gives the same rolls' },
    },
  },
  async execute(args: { count?: number; sides?: number; seed?: number }) {
    const count = args.count ?? 1
    const sides = args.sides ?? 6
    if (!Number.isInteger(count) || count < 1 || count > 100) throw new Error(`count must be an integer from 1 to 100, got ${args.count}`)
    if (!Number.isInteger(sides) || sides < 2 || sides > 1000) throw new Error(`sides must be an integer from 2 to 1000, got ${args.sides}`)
    const random = args.seed === undefined ? Math.random : mulberry32(args.seed)
    const rolls: number[] = []
    for (let i = 0; i < count; i++) rolls.push(1 + Math.floor(random() * sides))
    return { rolls, total: rolls.reduce((sum, r) => sum + r, 0) }
  },
}
