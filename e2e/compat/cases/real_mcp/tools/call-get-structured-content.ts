// Adapter, not from the origin: the get-structured-content tool called over MCP (mcp.ts).
import { registerGetStructuredContentTool } from './everything/get-structured-content.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The get-structured-content tool of the MCP everything server',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerGetStructuredContentTool, 'get-structured-content', args),
}
