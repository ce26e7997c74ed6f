// turndown: the stub's HTML page to Markdown (what scrape tools do).
import TurndownService from 'turndown'

export default {
  description: 'HTML to Markdown with turndown',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const html = await (await fetch(context.env.COMPAT_HTTP + '/page.html')).text()
    const td = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced' })
    td.remove(['nav', 'footer', 'title', 'meta'] as any)
    return td.turndown(html)
  },
}
