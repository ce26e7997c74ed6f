// zod: validate arguments, report errors, render JSON Schema.
import { z } from 'zod'

const Order = z.object({
  id: z.string().regex(/^A-\d+$/),
  qty: z.number().int().positive().default(1),
  email: z.email().optional(),
  tags: z.array(z.string()).max(3).default([]),
  when: z.iso.date(),
})

export default {
  description: 'Validate an order with zod',
  parameters: z.toJSONSchema(Order),
  async execute(args: unknown) {
    const ok = Order.safeParse(args)
    const bad = Order.safeParse({ id: 'B-1', qty: -2, email: 'nope', tags: ['a', 'b', 'c', 'd'], when: '2024-13-01' })
    return { ok: ok.success ? ok.data : z.prettifyError(ok.error), issues: bad.success ? [] : bad.error.issues.map((i) => `${i.path.join('.')}: ${i.code}`), pretty: bad.success ? '' : z.prettifyError(bad.error), schema: z.toJSONSchema(Order) }
  },
}
