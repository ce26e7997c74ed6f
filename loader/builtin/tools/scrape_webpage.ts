// scrape_webpage: fetch a web page and return it as readable text.
//
// This is the Beeuni source of the tool. `beeuni tools eject scrape_webpage`
// writes it into a project as tools/scrape_webpage.ts, and from then on it is
// yours to change. Keep the name, the `url` argument and the output JSON
// ({ url, status, title, content }): the web UI view reads them.
//
// Choices worth knowing before you change it:
// - Only http and https URLs are fetched; redirects are followed, and `url` in
//   the output is where the page was finally found.
// - A page that answers an error status (404, 500, ...) is still returned,
//   with its status and its text: an error page often says what went wrong.
//   Only a page that cannot be fetched at all throws.
// - HTML is turned into text with a few regular expressions, not a browser:
//   scripts, styles and the <head> are dropped, block elements become line
//   breaks, list items "- " lines, headings "# " lines, and links keep their
//   text only. Plain text and JSON are returned as they are. Other content
//   types (images, PDFs, ...) throw.
// - The content is cut at MAX_CONTENT characters, and says so.

interface ScrapeArgs {
  url?: string
}

interface ToolContext {
  sessionId: string
  agent: string
  directory: string
  env: Record<string, string | undefined>
  signal: AbortSignal
}

// The most content returned, in characters; the rest is cut.
const MAX_CONTENT = 100_000

// The most of the body that is converted at all, so a huge page cannot make
// the conversion slow.
const MAX_BODY = 5_000_000

export default {
  description:
    'Fetch a web page (http or https) and return it as readable text: { url, status, title, content }. ' +
    'Scripts, styles and markup are removed; headings start with "#", list items with "-". ' +
    'A page that answers an error status is still returned: check `status`. Content is cut at 100,000 characters.',
  parameters: {
    type: 'object',
    properties: {
      url: { type: 'string', description: 'The page to fetch, an absolute http(s) URL, e.g. "https://example.com/docs".' },
    },
    required: ['url'],
  },
  async execute(args: ScrapeArgs, context: ToolContext) {
    const url = parseURL(args.url)
    let response: Response
    try {
      response = await fetch(url.href, {
        redirect: 'follow',
        headers: { accept: 'text/html, text/plain;q=0.9, application/json;q=0.8, */*;q=0.1' },
        signal: context.signal,
      })
    } catch (error) {
      if (context.signal?.aborted) throw error
      throw new Error(`could not fetch ${url.href}: ${error instanceof Error ? error.message : String(error)}`)
    }
    const finalURL = response.url || url.href
    const type = (response.headers.get('content-type') ?? '').toLowerCase()
    if (type && !isText(type)) {
      throw new Error(`${finalURL} is ${type.split(';')[0]}, not a web page: scrape_webpage reads HTML, text and JSON.`)
    }
    const body = (await response.text()).slice(0, MAX_BODY)
    const html = type.includes('html') || (!type && /^\s*</.test(body))
    const page = html ? htmlToText(body) : { title: '', content: body }
    return { url: finalURL, status: response.status, title: page.title, content: cut(page.content) }
  },
}

// parseURL checks that value is an absolute http(s) URL.
function parseURL(value: unknown): URL {
  const text = String(value ?? '').trim()
  if (!text) throw new Error('url is empty: pass `url`, an absolute http(s) URL, e.g. "https://example.com/docs".')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`url "${text}" is not a URL: pass an absolute http(s) URL, e.g. "https://example.com/docs".`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`url "${text}" is not http or https: scrape_webpage fetches only http(s) URLs.`)
  }
  return url
}

function isText(type: string): boolean {
  return (
    type.startsWith('text/') ||
    type.includes('json') ||
    type.includes('xml') ||
    type.includes('javascript')
  )
}

function cut(content: string): string {
  if (content.length <= MAX_CONTENT) return content
  // Never cut between the two halves of a surrogate pair (an emoji, say).
  const last = content.charCodeAt(MAX_CONTENT - 1)
  const end = last >= 0xd800 && last <= 0xdbff ? MAX_CONTENT - 1 : MAX_CONTENT
  return content.slice(0, end) + `\n\n[content cut: showing the first ${end} of ${content.length} characters]`
}

// Elements dropped with everything inside them, one pattern each (built
// once: a regular expression costs more to build than to run on a page).
const DROPPED = ['head', 'title', 'script', 'style', 'noscript', 'svg', 'template', 'iframe', 'object', 'canvas'].map(
  (tag) => new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?<\\/${tag}\\s*>`, 'gi'),
)

// Elements that start and end a line of their own.
const BLOCKS = [
  'address', 'article', 'aside', 'blockquote', 'caption', 'dd', 'details', 'dialog', 'div', 'dl', 'dt',
  'fieldset', 'figcaption', 'figure', 'footer', 'form', 'header', 'hgroup', 'main', 'nav', 'ol', 'p',
  'section', 'summary', 'table', 'ul',
]
const BLOCK_TAG = new RegExp(`<\\/?(?:${BLOCKS.join('|')})\\b[^>]*>`, 'gi')

// A tag: "<", a letter, then anything up to ">" except inside quoted
// attribute values, which may hold ">".
const TAG = /<\/?[a-zA-Z](?:[^>"']|"[^"]*"|'[^']*')*>/g

// PRE marks where a <pre> block goes back once the rest is laid out: "\u0000<n>\u0000",
// the n-th block set aside (NUL never stays in the page: it is removed first).
const PRE = '\u0000'

// htmlToText turns an HTML page into its title and readable text.
function htmlToText(source: string): { title: string; content: string } {
  let html = source.split(PRE).join('')
  const titleMatch = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html)
  const title = titleMatch ? collapse(decodeEntities(titleMatch[1].replace(TAG, ''))) : ''

  // Comments first: they may hold ">". Then <!doctype> and the like.
  html = html.replace(/<!--[\s\S]*?-->/g, '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '').replace(/<![^>]*>/g, '')
  for (const dropped of DROPPED) html = html.replace(dropped, ' ')

  // <pre> keeps its line breaks and indentation: set it aside before the
  // whitespace is collapsed.
  const pres: string[] = []
  html = html.replace(/<pre\b[^>]*>([\s\S]*?)<\/pre\s*>/gi, (_match, inner: string) => {
    pres.push(decodeEntities(inner.replace(/<br\b[^>]*>/gi, '\n').replace(TAG, '')).replace(/^\n+|\s+$/g, ''))
    return `<p>${PRE}${pres.length - 1}${PRE}</p>`
  })

  let text = html
    .replace(/\s+/g, ' ')
    .replace(/<h([1-6])\b[^>]*>/gi, (_match, level: string) => `\n\n${'#'.repeat(Number(level))} `)
    .replace(/<\/h[1-6]\s*>/gi, '\n\n')
    .replace(/<li\b[^>]*>/gi, '\n- ')
    .replace(/<br\b[^>]*>/gi, '\n')
    .replace(/<hr\b[^>]*>/gi, '\n\n---\n\n')
    .replace(/<\/p\s*>/gi, '\n\n')
    .replace(/<\/?t[dh]\b[^>]*>/gi, ' ')
    .replace(/<\/tr\s*>/gi, '\n')
    .replace(BLOCK_TAG, '\n')
    .replace(TAG, '')
  text = decodeEntities(text)

  text = text
    .split('\n')
    .map((line) => line.replace(/[ \t\f\v\u00a0]+/g, ' ').trim())
    .join('\n')
    // A list item or heading marker on a line of its own joins the text after it.
    .replace(/(^|\n)(#{1,6}|-)\n+(?=[^\n])/g, '$1$2 ')
    .replace(/(^|\n)(#{1,6}|-)(?=\n|$)/g, '$1')
  text = tightenLists(text.replace(/\n{3,}/g, '\n\n').trim())
  text = text.replace(/\u0000(\d+)\u0000/g, (_match, index: string) => pres[Number(index)])
  return { title, content: text }
}

// tightenLists drops the blank line between two list items, so a list reads
// as one block.
function tightenLists(text: string): string {
  const lines = text.split('\n')
  return lines
    .filter((line, i) => !(line === '' && i > 0 && lines[i - 1].startsWith('- ') && (lines[i + 1] ?? '').startsWith('- ')))
    .join('\n')
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

// The named entities pages use most; any other is left as it is.
const ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ensp: ' ', emsp: ' ', thinsp: ' ',
  copy: '©', reg: '®', trade: '™', hellip: '…', mdash: '—', ndash: '–', minus: '−',
  lsquo: '‘', rsquo: '’', sbquo: '‚', ldquo: '“', rdquo: '”', bdquo: '„', laquo: '«', raquo: '»',
  lsaquo: '‹', rsaquo: '›', bull: '•', middot: '·', sect: '§', para: '¶', dagger: '†', Dagger: '‡',
  deg: '°', plusmn: '±', times: '×', divide: '÷', frac12: '½', frac14: '¼', frac34: '¾',
  sup1: '¹', sup2: '²', sup3: '³', micro: 'µ', euro: '€', pound: '£', yen: '¥', cent: '¢',
  larr: '←', rarr: '→', uarr: '↑', darr: '↓', harr: '↔', check: '✓', hearts: '♥', star: '☆', shy: '', zwj: '\u200d', zwnj: '\u200c',
  iexcl: '¡', iquest: '¿', acute: '´', uml: '¨', ordf: 'ª', ordm: 'º', not: '¬',
  Agrave: 'À', Aacute: 'Á', Acirc: 'Â', Atilde: 'Ã', Auml: 'Ä', Aring: 'Å', AElig: 'Æ', Ccedil: 'Ç',
  Egrave: 'È', Eacute: 'É', Ecirc: 'Ê', Euml: 'Ë', Igrave: 'Ì', Iacute: 'Í', Icirc: 'Î', Iuml: 'Ï',
  Ntilde: 'Ñ', Ograve: 'Ò', Oacute: 'Ó', Ocirc: 'Ô', Otilde: 'Õ', Ouml: 'Ö', Oslash: 'Ø',
  Ugrave: 'Ù', Uacute: 'Ú', Ucirc: 'Û', Uuml: 'Ü', Yacute: 'Ý', szlig: 'ß',
  agrave: 'à', aacute: 'á', acirc: 'â', atilde: 'ã', auml: 'ä', aring: 'å', aelig: 'æ', ccedil: 'ç',
  egrave: 'è', eacute: 'é', ecirc: 'ê', euml: 'ë', igrave: 'ì', iacute: 'í', icirc: 'î', iuml: 'ï',
  ntilde: 'ñ', ograve: 'ò', oacute: 'ó', ocirc: 'ô', otilde: 'õ', ouml: 'ö', oslash: 'ø',
  ugrave: 'ù', uacute: 'ú', ucirc: 'û', uuml: 'ü', yacute: 'ý', yuml: 'ÿ',
}

// decodeEntities decodes named and numeric character references in one pass,
// so "&amp;lt;" becomes "&lt;", not "<".
function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (match, ref: string) => {
    if (ref[0] !== '#') return Object.prototype.hasOwnProperty.call(ENTITIES, ref) ? ENTITIES[ref] : match
    const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
    // NUL, surrogates and values past Unicode are invalid: HTML reads them as U+FFFD.
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd'
    return String.fromCodePoint(code)
  })
}
