// Bun.Glob, which opencode plugins use to find files.
import { Glob } from 'bun'

export default {
  description: 'Bun.Glob',
  parameters: { type: 'object', properties: { pattern: { type: 'string' } } },
  async execute(args: { pattern?: string }, context: { directory: string }) {
    const glob = new Glob(args.pattern ?? '**/*.md')
    const found: string[] = []
    for await (const f of glob.scan({ cwd: context.directory })) found.push(f)
    return { found: found.sort(), match: [glob.match('docs/a.md'), glob.match('a.txt')], sync: [...new Glob('*.yaml').scanSync({ cwd: context.directory })] }
  },
}
