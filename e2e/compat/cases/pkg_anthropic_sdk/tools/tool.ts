// @anthropic-ai/sdk against the loopback stub: a Messages request.
import Anthropic from '@anthropic-ai/sdk'

export default {
  description: 'Messages with the Anthropic SDK',
  parameters: { type: 'object', properties: { prompt: { type: 'string' } } },
  async execute(args: { prompt?: string }, context: { env: Record<string, string> }) {
    const client = new Anthropic({ apiKey: 'sk-ant-compat', baseURL: context.env.COMPAT_HTTP, maxRetries: 0 })
    const msg = await client.messages.create({ model: 'claude-compat', max_tokens: 64, system: 'be brief', messages: [{ role: 'user', content: args.prompt ?? 'Say hi' }] })
    return { id: msg.id, text: msg.content.map((c: any) => c.text).join(''), stop: msg.stop_reason, usage: msg.usage }
  },
}
