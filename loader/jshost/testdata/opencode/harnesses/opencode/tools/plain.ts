// The reference's own form also loads from the legacy folder.
export default {
  description: "A plain tool",
  parameters: { type: "object", properties: {} },
  execute() {
    return "plain: " + ("schema" in function () {}) + " " + (Object.getOwnPropertyDescriptor(Function.prototype, "schema") === undefined)
  },
}
