// Newer opencode tools answer { title, output, metadata }.
import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "Answer an object",
  args: { n: tool.schema.number().optional() },
  async execute(args) {
    return { title: "result", output: `n is ${args.n}`, metadata: { n: args.n } }
  },
})
