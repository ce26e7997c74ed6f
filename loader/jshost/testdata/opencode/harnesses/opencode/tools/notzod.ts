import { tool } from "@opencode-ai/plugin"

export default tool({
  description: "JSON Schema in args",
  args: { q: { type: "string" } } as any,
  async execute(args: any) {
    return args.q
  },
})
