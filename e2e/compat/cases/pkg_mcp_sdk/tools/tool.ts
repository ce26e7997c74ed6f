// @modelcontextprotocol/sdk: a client calls a server's tool in process.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js'
import { z } from 'zod'

export default {
  description: 'An MCP round trip with the SDK',
  parameters: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } } },
  async execute(args: { a?: number; b?: number }) {
    const server = new McpServer({ name: 'compat', version: '1.0.0' })
    server.registerTool('add', { description: 'add', inputSchema: { a: z.number(), b: z.number() } }, async ({ a, b }) => ({ content: [{ type: 'text', text: String(a + b) }] }))
    const [ct, st] = InMemoryTransport.createLinkedPair()
    await server.connect(st)
    const client = new Client({ name: 'compat-client', version: '1.0.0' })
    await client.connect(ct)
    const tools = await client.listTools()
    const res = await client.callTool({ name: 'add', arguments: { a: args.a ?? 2, b: args.b ?? 40 } })
    const bad = await client.callTool({ name: 'add', arguments: { a: 'x' } })
    await client.close()
    return { tools: tools.tools.map((t) => [t.name, t.inputSchema]), res, badIsError: bad.isError }
  },
}
