// Adapter, not from the origin: the get-sum tool called over MCP (mcp.ts).
import { registerGetSumTool } from './everything/get-sum.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The get-sum tool of the MCP everything server',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerGetSumTool, 'get-sum', args),
}
