// Adapter, not from the origin: registers the origin's MCP tool on an
// McpServer and calls it through an in-process MCP client, as an MCP host
// does; the model reads the call's result.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { registerEchoTool } from './echo.js'

export default {
  description: 'The MCP echo tool of modelcontextprotocol/servers',
  parameters: { type: 'object' },
  async execute(args: Record<string, unknown>) {
    const server = new McpServer({ name: 'origin', version: '1.0.0' })
    registerEchoTool(server)
    const [ct, st] = InMemoryTransport.createLinkedPair()
    await server.connect(st)
    const client = new Client({ name: 'compat', version: '1.0.0' })
    await client.connect(ct)
    try {
      return await client.callTool({ name: 'echo', arguments: args })
    } finally {
      await client.close()
    }
  },
}
