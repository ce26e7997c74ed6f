// Adapter, not from the origin: registers one of the origin's MCP tools on an
// McpServer and calls it through an in-process MCP client, as an MCP host
// does; the model reads the call's result.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'

export async function callOverMcp(register: (server: McpServer) => void, name: string, args: Record<string, unknown>) {
  const server = new McpServer({ name: 'origin', version: '1.0.0' })
  register(server)
  return callServer(server, name, args)
}

export async function callServer(server: McpServer, name: string, args: Record<string, unknown>) {
  const [ct, st] = InMemoryTransport.createLinkedPair()
  await server.connect(st)
  const client = new Client({ name: 'compat', version: '1.0.0' })
  await client.connect(ct)
  try {
    return await client.callTool({ name, arguments: args })
  } finally {
    await client.close()
  }
}
