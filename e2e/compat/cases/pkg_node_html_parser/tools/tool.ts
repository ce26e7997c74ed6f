// node-html-parser: fast HTML queries.
import { parse } from 'node-html-parser'

export default {
  description: 'HTML with node-html-parser',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const root = parse(await (await fetch(context.env.COMPAT_HTTP + '/page.html')).text())
    return { title: root.querySelector('title')?.text, links: root.querySelectorAll('a').map((a) => a.getAttribute('href')), tds: root.querySelectorAll('td').map((t) => t.text), structured: root.querySelector('ul')?.childNodes.length }
  },
}
