// minimatch: glob patterns on paths.
import { minimatch } from 'minimatch'

export default {
  description: 'Globs with minimatch',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const files = ['src/a.ts', 'src/deep/b.tsx', 'test/a.test.ts', '.env', 'README.md', 'docs/x.MD']
    return { ts: files.filter((f) => minimatch(f, '**/*.{ts,tsx}')), notTests: files.filter((f) => minimatch(f, '!**/*.test.ts')), dot: files.filter((f) => minimatch(f, '*', { dot: true })), nocase: files.filter((f) => minimatch(f, '**/*.md', { nocase: true })) }
  },
}
