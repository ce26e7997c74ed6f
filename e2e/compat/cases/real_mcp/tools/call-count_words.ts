// Adapter, not from the origin: text-toolkit's count_words tool called over MCP (mcp.ts).
import { registerTextAnalysis } from './text-toolkit/tools/text-analysis.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The count_words tool of text-toolkit',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerTextAnalysis, 'count_words', args),
}
