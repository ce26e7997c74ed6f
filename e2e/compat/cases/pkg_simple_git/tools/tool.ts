// simple-git on the checkout (a real repository with one commit).
import { simpleGit } from 'simple-git'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'

export default {
  description: 'git with simple-git',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const git = simpleGit(context.directory)
    await writeFile(path.join(context.directory, 'new.txt'), 'new file\n')
    const status = await git.status()
    const log = await git.log()
    await git.add('new.txt')
    await git.commit('add new.txt', undefined, { '--author': 'Ada <ada@example.com>' })
    const after = await git.log({ maxCount: 2 })
    return {
      branch: status.current, untracked: status.not_added, isClean: status.isClean(),
      first: { hash: log.latest?.hash, message: log.latest?.message, author: log.latest?.author_name, date: log.latest?.date },
      after: after.all.map((c) => c.message), total: after.total,
      branches: (await git.branchLocal()).all,
      revparse: (await git.revparse(['--abbrev-ref', 'HEAD'])).trim(),
    }
  },
}
