// The ai SDK: generateText with an OpenAI-compatible provider on the stub,
// plus its tool() and jsonSchema helpers.
import { generateText, tool, jsonSchema } from 'ai'
import { createOpenAI } from '@ai-sdk/openai'
import { z } from 'zod'

export default {
  description: 'Text generation with the ai SDK',
  parameters: { type: 'object', properties: { prompt: { type: 'string' } } },
  async execute(args: { prompt?: string }, context: { env: Record<string, string>; signal: AbortSignal }) {
    const openai = createOpenAI({ apiKey: 'sk-compat', baseURL: context.env.COMPAT_HTTP + '/v1' })
    const res = await generateText({ model: openai.chat('gpt-compat'), prompt: args.prompt ?? 'Say hi', abortSignal: context.signal, maxRetries: 0 })
    const t = tool({ description: 'double', inputSchema: z.object({ n: z.number() }), execute: async ({ n }) => n * 2 })
    const s = jsonSchema<{ a: string }>({ type: 'object', properties: { a: { type: 'string' } } })
    return { text: res.text, finishReason: res.finishReason, usage: res.usage.totalTokens, toolRuns: await t.execute!({ n: 21 }, { toolCallId: '1', messages: [] }), schema: s.jsonSchema }
  },
}
