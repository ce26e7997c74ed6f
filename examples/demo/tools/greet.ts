// tools/greet.ts: greet someone, naming the agent and session that asked.

export default {
  description: 'Greet a person by name. Returns one line of text.',
  parameters: {
    type: 'object',
    properties: {
      name: { type: 'string', description: 'Who to greet, e.g. "Ada"' },
      excited: { type: 'boolean', description: 'End with an exclamation mark' },
    },
    required: ['name'],
  },
  async execute(args: { name?: string; excited?: boolean }, context: { agent: string; sessionId: string }) {
    const name = String(args.name ?? '').trim()
    if (!name) throw new Error('name is empty: pass who to greet, e.g. {"name": "Ada"}')
    const end = args.excited ? '!' : '.'
    const session = context.sessionId ? `, session ${context.sessionId}` : ''
    return `Hello, ${name}${end} (from agent ${context.agent}${session})`
  },
}
