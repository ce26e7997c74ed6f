// Adapter, not from the origin: calls the filesystem server's library the
// way its search_files handler in src/filesystem/index.ts does, with the
// project folder as the one allowed directory.
import path from 'node:path'
import { setAllowedDirectories, validatePath, searchFilesWithValidation } from './lib.js'

export default {
  description: 'The search_files tool of the MCP filesystem server',
  parameters: { type: 'object' },
  async execute(args: any, context: { directory: string }) {
    setAllowedDirectories([context.directory])
    const validPath = await validatePath(path.join(context.directory, args.path))
    const found = await searchFilesWithValidation(validPath, args.pattern, [context.directory], { excludePatterns: args.excludePatterns })
    // readdir order is the file system's, not the runtime's: sorted.
    return found.map((p) => path.relative(context.directory, p)).sort().join('\n')
  },
}
