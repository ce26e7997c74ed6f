// Adapter, not from the origin: calls the filesystem server's library the
// way its edit_file handler in src/filesystem/index.ts does, with the
// project folder as the one allowed directory.
import path from 'node:path'
import { setAllowedDirectories, validatePath, applyFileEdits } from './lib.js'

export default {
  description: 'The edit_file tool of the MCP filesystem server',
  parameters: { type: 'object' },
  async execute(args: any, context: { directory: string }) {
    setAllowedDirectories([context.directory])
    const validPath = await validatePath(path.join(context.directory, args.path))
    const diff = await applyFileEdits(validPath, args.edits, args.dryRun)
    const fs = await import('node:fs/promises')
    return { diff, after: await fs.readFile(validPath, 'utf8'), files: (await fs.readdir(path.dirname(validPath))).sort() }
  },
}
