// Adapter, not from the origin: feeds thoughts to the SequentialThinkingServer
// as the sequentialthinking tool of src/sequentialthinking/index.ts does, and
// returns each answer (the formatted thought goes to console.error, the log).
import { SequentialThinkingServer } from './lib.js'

export default {
  description: 'The sequentialthinking tool of the MCP servers repository',
  parameters: { type: 'object' },
  async execute(args: { thoughts: any[] }) {
    const server = new SequentialThinkingServer()
    return args.thoughts.map((t) => server.processThought(t))
  },
}
