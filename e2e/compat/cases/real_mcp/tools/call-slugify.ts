// Adapter, not from the origin: mcp-training's server (createMcpServer) and
// its slugify tool called over MCP (mcp.ts).
import { createMcpServer } from './mcp-training/mcp-server.js'
import { callServer } from './mcp.js'

export default {
  description: 'The slugify tool of bitovi/mcp-training',
  parameters: { type: 'object' },
  execute: (args: Record<string, unknown>) => callServer(createMcpServer(), 'slugify', args),
}
