// fast-glob: find files in the checkout.
import fg from 'fast-glob'

export default {
  description: 'Find files with fast-glob',
  parameters: { type: 'object', properties: { pattern: { type: 'string' } } },
  async execute(args: { pattern?: string }, context: { directory: string }) {
    const files = await fg(args.pattern ?? '**/*.{md,txt}', { cwd: context.directory, ignore: ['node_modules/**'], dot: false })
    const withStats = await fg('docs/*', { cwd: context.directory, onlyFiles: true, stats: true })
    return { files: files.sort(), sync: fg.sync('docs/**', { cwd: context.directory }).sort(), sizes: withStats.map((e: any) => [e.path, e.stats.size]).sort(), escaped: fg.escapePath('a(b)*.md') }
  },
}
