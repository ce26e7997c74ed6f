// Adapter, not from the origin: text-toolkit's analyze_readability tool called over MCP (mcp.ts).
import { registerTextAnalysis } from './text-toolkit/tools/text-analysis.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The analyze_readability tool of text-toolkit',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerTextAnalysis, 'analyze_readability', args),
}
