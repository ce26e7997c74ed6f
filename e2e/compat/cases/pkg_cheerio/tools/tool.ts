// cheerio: scrape the stub's page.
import * as cheerio from 'cheerio'

export default {
  description: 'Scrape a page with cheerio',
  parameters: { type: 'object', properties: { path: { type: 'string' } } },
  async execute(args: { path?: string }, context: { env: Record<string, string> }) {
    const url = new URL(args.path ?? '/page.html', context.env.COMPAT_HTTP)
    const html = await (await fetch(url)).text()
    const $ = cheerio.load(html)
    return {
      title: $('title').text(),
      description: $('meta[name=description]').attr('content'),
      headings: $('h1, h2').map((_, el) => $(el).text()).get(),
      links: $('a').map((_, el) => new URL($(el).attr('href')!, url).pathname).get(),
      items: $('li').toArray().map((el) => $(el).text()),
      table: $('tr').slice(1).map((_, tr) => [$(tr).find('td').map((_, td) => $(td).text()).get()]).get(),
      code: $('pre code').text(),
      strongHtml: $('p strong').first().html(),
      outer: $.html($('em').first()),
    }
  },
}
