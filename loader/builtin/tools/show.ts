// show: show the user a file, a web page, an image, some text or a list.
//
// This is the Beeuni source of the tool. `beeuni tools eject show` writes it
// into a project as tools/show.ts, and from then on it is yours to change.
// Keep the name and the arguments (`type`, `path`, `url`, `content`,
// `items`): the web UI view reads them from the call and draws what it names.
//
// The tool itself draws nothing. It checks that the arguments make sense
// together, so a wrong call fails here with a message the model can act on,
// and returns what the UI is to show: { type, ... } with only the fields of
// that type (for a file, its path relative to the checkout).

import * as fs from 'node:fs/promises'
import * as path from 'node:path'

interface ShowArgs {
  type?: string
  path?: string
  url?: string
  content?: string
  items?: unknown[]
}

interface ToolContext {
  sessionId: string
  agent: string
  directory: string
  env: Record<string, string | undefined>
  signal: AbortSignal
}

type Field = 'path' | 'url' | 'content' | 'items'

// Each type, the fields it takes, and what the description tells the model.
const TYPES: Record<string, { fields: Field[]; use: string }> = {
  file: { fields: ['path'], use: '`path` of a file in the project, e.g. "src/main.go"' },
  url: { fields: ['url'], use: '`url`, an http(s) web page' },
  image: { fields: ['path', 'url'], use: '`path` of an image file in the project, or `url` of an http(s) image (one of them)' },
  markdown: { fields: ['content'], use: '`content`, Markdown text' },
  text: { fields: ['content'], use: '`content`, plain text' },
  list: { fields: ['items'], use: '`items`, an array of strings or objects' },
}

export default {
  description:
    'Show the user something in the web UI next to the conversation. Pass `type` and the fields of that type only: ' +
    Object.entries(TYPES).map(([type, { use }]) => `${type} takes ${use}`).join('; ') +
    '. Returns what the UI shows.',
  parameters: {
    type: 'object',
    properties: {
      type: { type: 'string', enum: Object.keys(TYPES), description: 'What to show.' },
      path: { type: 'string', description: 'A file in the project, relative to its root (file, image).' },
      url: { type: 'string', description: 'An absolute http(s) URL (url, image).' },
      content: { type: 'string', description: 'The text to show (markdown, text).' },
      items: {
        type: 'array',
        items: { anyOf: [{ type: 'string' }, { type: 'object' }] },
        description: 'The entries to show, strings or objects (list).',
      },
    },
    required: ['type'],
  },
  async execute(args: ShowArgs, context: ToolContext) {
    const type = String(args.type ?? '')
    const spec = Object.prototype.hasOwnProperty.call(TYPES, type) ? TYPES[type] : undefined
    if (!spec) {
      const what = type === '' ? 'type is missing' : `unknown type ${JSON.stringify(type)}`
      throw new Error(`${what}: pass \`type\`, one of ${Object.keys(TYPES).join(', ')}.`)
    }
    // Fields left empty count as not passed: some models send every field.
    const given = (['path', 'url', 'content', 'items'] as Field[]).filter((field) => isGiven(args[field]))
    const extra = given.filter((field) => !spec.fields.includes(field))
    if (extra.length > 0) {
      throw new Error(`type ${type} takes ${spec.use}: drop ${extra.map((field) => `\`${field}\``).join(' and ')}.`)
    }

    switch (type) {
      case 'file':
        return { type, path: await projectFile(args.path, context.directory, 'path') }
      case 'url':
        return { type, url: httpURL(args.url) }
      case 'image':
        if (given.length !== 1) throw new Error(`type image takes ${spec.use}: pass exactly one.`)
        return isGiven(args.path)
          ? { type, path: await projectFile(args.path, context.directory, 'path') }
          : { type, url: httpURL(args.url) }
      case 'markdown':
      case 'text':
        if (typeof args.content !== 'string' || args.content.trim() === '') {
          throw new Error(`type ${type} takes ${spec.use}: pass \`content\`, the text to show.`)
        }
        return { type, content: args.content }
      default:
        return { type, items: listItems(args.items) }
    }
  },
}

function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)
}

// projectFile checks that value names a file inside the checkout, symbolic
// links resolved, and returns its path relative to the checkout.
async function projectFile(value: unknown, directory: string, arg: string): Promise<string> {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new Error(`\`${arg}\` is missing: pass the path of a file in the project, e.g. "src/main.go".`)
  }
  if (!directory) throw new Error('context.directory is empty: show needs the project checkout to find files.')
  const root = await fs.realpath(directory)
  const file = path.resolve(root, value.trim())
  const outside = new Error(`${value} is outside the project: pass the path of a file inside it, relative to the project root.`)
  if (escapes(path.relative(root, file))) throw outside
  let real: string
  try {
    real = await fs.realpath(file)
  } catch {
    throw new Error(`${value} does not exist in the project: pass the path of an existing file, relative to the project root.`)
  }
  // Checked again once symbolic links are resolved: a link may lead out.
  const relative = path.relative(root, real)
  if (escapes(relative)) throw outside
  if ((await fs.stat(real)).isDirectory()) {
    throw new Error(`${value} is a folder: pass the path of a file inside it.`)
  }
  return relative.split(path.sep).join('/')
}

// escapes reports whether a path relative to the checkout leaves it (or is
// the checkout itself).
function escapes(relative: string): boolean {
  return relative === '' || relative === '..' || relative.startsWith('..' + path.sep) || path.isAbsolute(relative)
}

function httpURL(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : ''
  if (!text) throw new Error('`url` is missing: pass an absolute http(s) URL, e.g. "https://example.com".')
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new Error(`url ${JSON.stringify(text)} is not a URL: pass an absolute http(s) URL, e.g. "https://example.com".`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`url ${JSON.stringify(text)} is not http or https: pass an http(s) URL.`)
  }
  return text
}

function listItems(value: unknown): unknown[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw new Error('type list takes `items`, an array of strings or objects: pass at least one item.')
  }
  value.forEach((item, index) => {
    if (typeof item !== 'string' && (typeof item !== 'object' || item === null || Array.isArray(item))) {
      const kind = item === null ? 'null' : Array.isArray(item) ? 'an array' : `a ${typeof item}`
      throw new Error(`items[${index}] is ${kind}: each item must be a string or an object.`)
    }
  })
  return value
}
