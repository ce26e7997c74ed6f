// Adapter, not from the origin: text-toolkit's string_substring tool called over MCP (mcp.ts).
import { registerStringManipulation } from './text-toolkit/tools/string-manipulation.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The string_substring tool of text-toolkit',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerStringManipulation, 'string_substring', args),
}
