// memory: read and write notes under memory/ in the project checkout.
//
// This is the Beeuni source of the tool. `beeuni tools eject memory` writes it
// into a project as tools/memory.ts, and from then on it is yours to change.
// Keep the name and the arguments (`command`, `path`, ...): the web UI view
// reads them.
//
// Paths are written from the checkout's root and must stay inside memory/:
// "memory/notes/a.md". A path that leaves it (absolute, with "..", or through
// a symbolic link that points elsewhere) is refused. The check resolves
// symbolic links with realpath before each command; it does not guard against
// another process swapping a folder for a link while the command runs.

import * as fs from 'node:fs/promises'
import * as path from 'node:path'
import { randomUUID } from 'node:crypto'

interface MemoryArgs {
  command?: string
  path?: string
  file_text?: string
  old_str?: string
  new_str?: string
  insert_line?: number
  insert_text?: string
  old_path?: string
  new_path?: string
}

interface ToolContext {
  sessionId: string
  agent: string
  directory: string
  env: Record<string, string | undefined>
  signal: AbortSignal
}

const ROOT = 'memory'
const COMMANDS = ['view', 'create', 'str_replace', 'insert', 'delete', 'rename']

export default {
  description:
    'Keep notes that last across sessions, as files under memory/ in the project. Paths start with "memory/", e.g. "memory/notes/decisions.md". ' +
    'Commands: view {path} shows a file, or lists a folder (view "memory" lists everything); ' +
    'create {path, file_text} writes a file, replacing one that exists; ' +
    'str_replace {path, old_str, new_str} replaces text that occurs exactly once; ' +
    'insert {path, insert_line, insert_text} inserts lines after line insert_line (0: at the top); ' +
    'delete {path} deletes a file or a folder; rename {old_path, new_path} moves a file or a folder.',
  parameters: {
    type: 'object',
    properties: {
      command: { type: 'string', enum: COMMANDS, description: 'What to do.' },
      path: { type: 'string', description: 'A file or folder under memory/, e.g. "memory/notes/a.md" (view, create, str_replace, insert, delete).' },
      file_text: { type: 'string', description: 'The whole text of the file (create).' },
      old_str: { type: 'string', description: 'The exact text to replace; it must occur exactly once in the file (str_replace).' },
      new_str: { type: 'string', description: 'The text that replaces old_str; "" deletes it (str_replace).' },
      insert_line: { type: 'integer', description: 'The line after which insert_text goes; 0 inserts at the top (insert).' },
      insert_text: { type: 'string', description: 'The lines to insert (insert).' },
      old_path: { type: 'string', description: 'The file or folder to move (rename).' },
      new_path: { type: 'string', description: 'Where it goes; must not exist yet (rename).' },
    },
    required: ['command'],
  },
  // It changes files: in a batch call it runs alone, after the calls before it.
  concurrent: false,
  async execute(args: MemoryArgs, context: ToolContext): Promise<string> {
    const memory = new Memory(context.directory)
    switch (args.command) {
      case 'view':
        return memory.view(args.path)
      case 'create':
        return memory.create(args.path, args.file_text)
      case 'str_replace':
        return memory.replace(args.path, args.old_str, args.new_str)
      case 'insert':
        return memory.insert(args.path, args.insert_line, args.insert_text)
      case 'delete':
        return memory.remove(args.path)
      case 'rename':
        return memory.rename(args.old_path, args.new_path)
      default: {
        const what = args.command ? `unknown command ${JSON.stringify(args.command)}` : 'command is missing'
        throw new Error(`${what}: pass \`command\`, one of ${COMMANDS.join(', ')}.`)
      }
    }
  },
}

// A resolved path: `name` as the model writes it ("memory/a.md"), `file` on disk.
interface Target {
  name: string
  file: string
}

class Memory {
  constructor(private readonly directory: string) {
    if (!directory) throw new Error('context.directory is empty: the memory tool needs the project checkout.')
  }

  async view(value: unknown): Promise<string> {
    const target = await this.resolve(value, 'path')
    const info = await statOrNull(target.file)
    if (!info) {
      if (target.name === ROOT) {
        return 'memory/ has no files yet: create one with {"command": "create", "path": "memory/notes.md", "file_text": "..."}.'
      }
      throw new Error(`${target.name} does not exist: view "memory" to list what there is.`)
    }
    if (!info.isDirectory()) return fs.readFile(target.file, 'utf8')
    const entries = await this.list(target.file, target.name)
    if (entries.length === 0) return `${target.name}/ is empty.`
    return entries.join('\n')
  }

  async create(value: unknown, text: unknown): Promise<string> {
    const target = await this.resolveEntry(value, 'path')
    if (typeof text !== 'string') throw new Error('file_text is missing: pass `file_text`, the whole text of the file.')
    if ((await statOrNull(target.file))?.isDirectory()) {
      throw new Error(`${target.name} is a folder: pass a file path, e.g. "${target.name}/notes.md".`)
    }
    await fs.mkdir(path.dirname(target.file), { recursive: true })
    await writeAtomic(target.file, text)
    return `Created ${target.name}.`
  }

  async replace(value: unknown, oldStr: unknown, newStr: unknown): Promise<string> {
    const target = await this.resolveEntry(value, 'path')
    if (typeof oldStr !== 'string' || oldStr === '') throw new Error('old_str is missing: pass `old_str`, the exact text to replace.')
    if (typeof newStr !== 'string') throw new Error('new_str is missing: pass `new_str`, the text that replaces old_str ("" to delete it).')
    const text = await this.readFile(target)
    const count = text.split(oldStr).length - 1
    if (count === 0) {
      throw new Error(`old_str does not occur in ${target.name}: view the file and copy the exact text, whitespace included.`)
    }
    if (count > 1) {
      throw new Error(`old_str occurs ${count} times in ${target.name}: include more of the text around it so it occurs exactly once.`)
    }
    const at = text.indexOf(oldStr)
    await writeAtomic(target.file, text.slice(0, at) + newStr + text.slice(at + oldStr.length))
    return `Replaced the text in ${target.name}.`
  }

  async insert(value: unknown, lineValue: unknown, insertText: unknown): Promise<string> {
    const target = await this.resolveEntry(value, 'path')
    if (typeof insertText !== 'string') throw new Error('insert_text is missing: pass `insert_text`, the lines to insert.')
    const text = await this.readFile(target)
    // A final newline ends the last line; it does not start another one.
    const lines = text === '' ? [] : text.replace(/\n$/, '').split('\n')
    const line = typeof lineValue === 'string' && lineValue.trim() !== '' ? Number(lineValue) : lineValue
    if (typeof line !== 'number' || !Number.isInteger(line) || line < 0 || line > lines.length) {
      throw new Error(
        `insert_line ${JSON.stringify(lineValue ?? null)} is not a line of ${target.name}: pass a number from 0 (the top) to ${lines.length} (after the last line).`,
      )
    }
    const inserted = insertText.replace(/\n$/, '').split('\n')
    lines.splice(line, 0, ...inserted)
    await writeAtomic(target.file, lines.join('\n') + (text === '' || text.endsWith('\n') ? '\n' : ''))
    return `Inserted ${inserted.length} line${inserted.length === 1 ? '' : 's'} after line ${line} of ${target.name}.`
  }

  async remove(value: unknown): Promise<string> {
    const target = await this.resolveEntry(value, 'path')
    if (!(await lstatOrNull(target.file))) throw new Error(`${target.name} does not exist: view "memory" to list what there is.`)
    await fs.rm(target.file, { recursive: true, force: true })
    return `Deleted ${target.name}.`
  }

  async rename(oldValue: unknown, newValue: unknown): Promise<string> {
    const from = await this.resolveEntry(oldValue, 'old_path')
    const to = await this.resolveEntry(newValue, 'new_path')
    if (!(await lstatOrNull(from.file))) throw new Error(`${from.name} does not exist: view "memory" to list what there is.`)
    if (await lstatOrNull(to.file)) throw new Error(`${to.name} exists: delete it first, or pass another new_path.`)
    if ((to.file + path.sep).startsWith(from.file + path.sep)) {
      throw new Error(`${to.name} is inside ${from.name}: pass a new_path outside the folder you move.`)
    }
    await fs.mkdir(path.dirname(to.file), { recursive: true })
    await fs.rename(from.file, to.file)
    return `Renamed ${from.name} to ${to.name}.`
  }

  // list returns every entry under folder, depth first and sorted, as paths
  // from the checkout's root; folders end with "/". Symbolic links are listed,
  // not followed.
  private async list(folder: string, name: string): Promise<string[]> {
    const out: string[] = []
    for (const entry of (await fs.readdir(folder)).sort()) {
      const file = path.join(folder, entry)
      const entryName = `${name}/${entry}`
      if ((await fs.lstat(file)).isDirectory()) {
        out.push(entryName + '/', ...(await this.list(file, entryName)))
      } else {
        out.push(entryName)
      }
    }
    return out
  }

  private async readFile(target: Target): Promise<string> {
    const info = await statOrNull(target.file)
    if (!info) throw new Error(`${target.name} does not exist: create it with the create command.`)
    if (info.isDirectory()) throw new Error(`${target.name} is a folder: pass a file path.`)
    return fs.readFile(target.file, 'utf8')
  }

  // resolveEntry is resolve for the commands that change something: they
  // take a file or folder inside memory/, never memory/ itself.
  private async resolveEntry(value: unknown, arg: string): Promise<Target> {
    const target = await this.resolve(value, arg)
    if (target.name === ROOT) throw new Error(`${arg} is memory/ itself: pass a path inside it, e.g. "memory/notes.md".`)
    return target
  }

  // resolve checks that value names memory/ or a path inside it, and that
  // no symbolic link on the way leads out of it.
  private async resolve(value: unknown, arg: string): Promise<Target> {
    const raw = typeof value === 'string' ? value.trim() : ''
    if (!raw) throw new Error(`${arg} is missing: pass \`${arg}\`, a path under memory/, e.g. "memory/notes.md".`)
    const refused = new Error(
      `${arg} ${JSON.stringify(raw)} is outside memory/: paths must start with \`memory/\` (e.g. "memory/notes.md") and stay inside it.`,
    )
    const parts = raw.split('/').filter((part) => part !== '' && part !== '.')
    if (raw.startsWith('/') || raw.includes('\u0000') || parts[0] !== ROOT || parts.includes('..')) throw refused
    const name = parts.join('/')
    const file = path.join(this.directory, ...parts)

    const root = path.join(await fs.realpath(this.directory), ROOT)
    const real = await realpathOf(file)
    if (real === null || (real !== root && !real.startsWith(root + path.sep))) throw refused
    return { name, file }
  }
}

// realpathOf resolves the symbolic links of file. For a path that does not
// exist yet it resolves the nearest existing folder and appends the rest; a
// dangling link on the way gives null, since where it would write is unknown.
async function realpathOf(file: string): Promise<string | null> {
  const rest: string[] = []
  let current = file
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...rest.reverse())
    } catch (error) {
      if (!isNotFound(error)) throw error
      if ((await lstatOrNull(current))?.isSymbolicLink()) return null
      const parent = path.dirname(current)
      if (parent === current) throw error
      rest.push(path.basename(current))
      current = parent
    }
  }
}

// writeAtomic writes a temporary file next to file and renames it over file,
// so a crash never leaves half a note.
async function writeAtomic(file: string, text: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${randomUUID()}.tmp`)
  try {
    await fs.writeFile(temp, text, 'utf8')
    await fs.rename(temp, file)
  } catch (error) {
    await fs.rm(temp, { force: true })
    throw error
  }
}

async function statOrNull(file: string) {
  try {
    return await fs.stat(file)
  } catch (error) {
    if (isNotFound(error)) return null
    throw error
  }
}

async function lstatOrNull(file: string) {
  try {
    return await fs.lstat(file)
  } catch (error) {
    if (isNotFound(error)) return null
    throw error
  }
}

function isNotFound(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === 'ENOENT'
}
