// Adapter, not from the origin: the plugin's git tools built with Bun's shell
// in the project folder (the $ opencode hands a plugin), one called as
// opencode does: the arguments parsed through its zod shape. "write" puts
// files into the checkout first, so there is something to see.
import { tool } from '@opencode-ai/plugin'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createGitTools } from './git.js'

export default {
  description: 'A git tool of oh-my-qwencoder',
  parameters: { type: 'object' },
  async execute(args: { tool: string; args?: Record<string, unknown>; write?: Record<string, string> }, context: { directory: string; sessionId: string; agent: string; signal: AbortSignal }) {
    for (const [p, text] of Object.entries(args.write ?? {})) writeFileSync(join(context.directory, p), text)
    const tools = createGitTools(Bun.$.cwd(context.directory)) as Record<string, any>
    const def = tools[args.tool]
    const parsed = tool.schema.object(def.args).parse(args.args ?? {})
    return def.execute(parsed, { sessionID: context.sessionId, messageID: 'msg_compat', agent: context.agent, abort: context.signal })
  },
}
