// An opencode custom tool, as opencode's docs write one.
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Search the notes",
  args: {
    query: tool.schema.string().describe("What to look for"),
    limit: tool.schema.number().default(3).describe("How many results"),
  },
  async execute(args, context) {
    context.metadata({ title: "searching" })
    await context.ask({ permission: "search", patterns: ["*"], always: [], metadata: {} })
    return JSON.stringify({
      args,
      sessionID: context.sessionID,
      messageID: context.messageID,
      agent: context.agent,
      directory: context.directory === context.worktree,
      abort: context.abort instanceof AbortSignal && context.abort === context.signal,
      sessionId: context.sessionId,
      env: context.env.K,
    })
  },
})
