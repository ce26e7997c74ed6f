// The openai SDK against the loopback stub: build and send a chat request.
import OpenAI from 'openai'

export default {
  description: 'Chat completion with the openai SDK',
  parameters: { type: 'object', properties: { prompt: { type: 'string' } } },
  async execute(args: { prompt?: string }, context: { env: Record<string, string> }) {
    const client = new OpenAI({ apiKey: 'sk-compat', baseURL: context.env.COMPAT_HTTP + '/v1', maxRetries: 0 })
    const res = await client.chat.completions.create({
      model: 'gpt-compat',
      messages: [{ role: 'system', content: 'be brief' }, { role: 'user', content: args.prompt ?? 'Say hi' }],
      tools: [{ type: 'function', function: { name: 'greet', parameters: { type: 'object', properties: {} } } }],
    })
    const err = await client.models.retrieve('x').then(() => 'no error', (e) => `${e.constructor.name} ${e.status}`)
    return { content: res.choices[0].message.content, model: res.model, usage: res.usage, err }
  },
}
