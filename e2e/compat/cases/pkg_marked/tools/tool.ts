// marked: Markdown to HTML, and the lexer's tokens.
import { marked } from 'marked'

const MD = `# Title

Some *emphasis*, **bold** and \`code\`.

- one
- two

| a | b |
|---|---|
| 1 | 2 |

[link](https://example.com "t")
`

export default {
  description: 'Markdown with marked',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return { html: await marked.parse(MD), tokens: marked.lexer(MD).map((t) => t.type) }
  },
}
