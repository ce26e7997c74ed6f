// linkedom: a DOM for HTML without a browser.
import { parseHTML } from 'linkedom'

export default {
  description: 'DOM with linkedom',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const html = await (await fetch(context.env.COMPAT_HTTP + '/page.html')).text()
    const { document } = parseHTML(html)
    document.querySelectorAll('nav, footer').forEach((n: any) => n.remove())
    const p = document.createElement('p')
    p.textContent = 'added <safely>'
    document.querySelector('article')!.appendChild(p)
    return {
      title: document.title,
      h1: document.querySelector('h1')?.textContent,
      items: [...document.querySelectorAll('li')].map((li: any) => li.textContent),
      text: document.querySelector('article')!.textContent!.replace(/\s+/g, ' ').trim(),
      added: p.outerHTML,
      lang: document.documentElement.getAttribute('lang'),
    }
  },
}
