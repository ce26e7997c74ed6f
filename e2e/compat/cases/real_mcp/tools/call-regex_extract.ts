// Adapter, not from the origin: text-toolkit's regex_extract tool called over MCP (mcp.ts).
import { registerRegexTools } from './text-toolkit/tools/regex-tools.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The regex_extract tool of text-toolkit',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerRegexTools, 'regex_extract', args),
}
