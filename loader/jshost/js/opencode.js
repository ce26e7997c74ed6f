// The opencode form of the legacy folder (see opencode.go). Runs once per
// runtime that loads such a module; answers its helpers.
({
  // watchToolSchema catches `fn.schema = z` while the module evaluates:
  // @opencode-ai/plugin's helper does `tool.schema = z`. The assignment
  // still makes the function's own property, as it would have.
  watchToolSchema(seen) {
    const proto = Function.prototype
    Object.defineProperty(proto, 'schema', {
      configurable: true,
      get() {
        return undefined
      },
      set(v) {
        Object.defineProperty(this, 'schema', { value: v, writable: true, enumerable: true, configurable: true })
        if (v && typeof v.object === 'function' && typeof v.ZodType === 'function' && !seen.includes(v)) seen.push(v)
      },
    })
    return () => {
      delete proto.schema
    }
  },

  // prepare renders args with the module's zod and makes the parser of
  // each call's arguments, as opencode does with z.object(args).
  prepare(tool, zods, name) {
    const args = tool.args
    const keys = Object.keys(args)
    const bad = keys.filter((k) => !args[k] || typeof args[k] !== 'object' || !args[k]._zod)
    if (bad.length > 0) {
      throw new Error(
        `args.${bad[0]} is not a zod 4 schema: write each argument with tool.schema from @opencode-ai/plugin, e.g. args: { ${bad[0]}: tool.schema.string() }`,
      )
    }
    // The zod that made the args, else the plugin's (zod 4 reads schemas of
    // another copy, as opencode itself does).
    const z = zods.find((z) => keys.every((k) => args[k] instanceof z.ZodType)) || zods[0]
    if (!z) {
      throw new Error(
        'args could not be rendered to JSON Schema: the module imports no zod this host can find; import { tool } from "@opencode-ai/plugin" and write args with tool.schema',
      )
    }
    if (typeof z.toJSONSchema !== 'function') {
      throw new Error('args could not be rendered to JSON Schema: the zod of @opencode-ai/plugin has no toJSONSchema (zod 4 has it); update @opencode-ai/plugin')
    }
    const schema = z.object(args)
    let parameters
    try {
      parameters = z.toJSONSchema(schema)
    } catch (e) {
      throw new Error(`args could not be rendered to JSON Schema: ${e && e.message}`)
    }
    return {
      parameters,
      parse(input) {
        const r = schema.safeParse(input)
        if (r.success) return r.data
        throw new Error(`The ${name} tool was called with invalid arguments: ${r.error}.\nPlease rewrite the input so it satisfies the expected schema.`)
      },
    }
  },

  // result is the text of opencode's ToolResult: a string, or { output }.
  result(v) {
    if (v && typeof v === 'object' && typeof v.output === 'string') return v.output
    return v
  },

  metadata() {},

  ask() {
    return Promise.resolve()
  },
})
