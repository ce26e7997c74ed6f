// Adapter, not from the origin: calls the filesystem server's library the
// way its read_text_file handler in src/filesystem/index.ts does, with the
// project folder as the one allowed directory.
import path from 'node:path'
import { setAllowedDirectories, validatePath, headFile, tailFile } from './lib.js'

export default {
  description: 'The read_text_file tool of the MCP filesystem server',
  parameters: { type: 'object' },
  async execute(args: any, context: { directory: string }) {
    setAllowedDirectories([context.directory])
    const validPath = await validatePath(path.join(context.directory, args.path))
    return { head: await headFile(validPath, args.head), tail: await tailFile(validPath, args.tail) }
  },
}
