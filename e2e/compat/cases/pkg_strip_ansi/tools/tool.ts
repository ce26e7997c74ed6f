// strip-ansi: clean CLI output before returning it.
import stripAnsi from 'strip-ansi'

export default {
  description: 'Clean output with strip-ansi',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return stripAnsi('\u001B[4mUnicorn\u001B[0m \u001B[31;1mred\u001B[0m \u001B]8;;https://example.com\u0007link\u001B]8;;\u0007')
  },
}
