// Adapter, not from the origin: the echo tool called over MCP (mcp.ts).
import { registerEchoTool } from './everything/echo.js'
import { callOverMcp } from './mcp.js'

export default {
  description: 'The echo tool of the MCP everything server',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callOverMcp(registerEchoTool, 'echo', args),
}
