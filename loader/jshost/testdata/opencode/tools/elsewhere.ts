// An opencode tool outside the legacy folder.
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Not in the legacy folder",
  args: { q: tool.schema.string() },
  async execute(args) {
    return args.q
  },
})
