// zod args, but no opencode helper whose zod the host could find.
import { z } from "zod"

export default {
  description: "Own zod",
  args: { q: z.string() },
  async execute(args: { q: string }) {
    return args.q
  },
}
