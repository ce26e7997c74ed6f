// Adapter, not from the origin: calls an AI SDK tool as generateText does
// when the model calls it: the input validated by the tool's inputSchema,
// then execute(input, options). It returns the JSON Schema the model is
// shown with the tool's output.
import { asSchema, type Tool } from 'ai'

export async function callAiTool(t: Tool<any, any>, args: unknown) {
  const schema = asSchema(t.inputSchema)
  const checked = await schema.validate!(args)
  if (!checked.success) throw checked.error
  const output = await t.execute!(checked.value, { toolCallId: 'call_1', messages: [] })
  return { inputSchema: await schema.jsonSchema, output }
}
