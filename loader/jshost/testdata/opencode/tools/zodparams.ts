// A zod object given as parameters.
import { z } from "zod"

export default {
  description: "zod parameters",
  parameters: z.object({ q: z.string() }),
  async execute(args: { q: string }) {
    return args.q
  },
}
