// fs.promises and node:fs/promises on the checkout, as file tools use them.
import fs from 'node:fs'
import { mkdir, readFile, readdir, rm, stat, writeFile, appendFile, rename, access, copyFile } from 'node:fs/promises'
import path from 'node:path'

export default {
  description: 'fs.promises',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const dir = path.join(context.directory, 'scratch')
    await mkdir(path.join(dir, 'sub'), { recursive: true })
    await writeFile(path.join(dir, 'a.txt'), 'alpha\n')
    await appendFile(path.join(dir, 'a.txt'), 'beta\n')
    await fs.promises.writeFile(path.join(dir, 'sub', 'b.json'), JSON.stringify({ ok: true }))
    await copyFile(path.join(dir, 'a.txt'), path.join(dir, 'c.txt'))
    await rename(path.join(dir, 'c.txt'), path.join(dir, 'd.txt'))
    const st = await stat(path.join(dir, 'a.txt'))
    const entries = await readdir(dir, { withFileTypes: true })
    const missing = await access(path.join(dir, 'nope')).then(() => 'exists', (e) => e.code)
    const readErr = await readFile(path.join(dir, 'nope.txt'), 'utf8').catch((e) => [e.code, e.syscall, e.message.replace(context.directory, '$DIR')])
    const recursive = (await readdir(dir, { recursive: true } as any)).map(String).sort()
    const out = {
      same: fs.promises.readFile === readFile,
      text: await readFile(path.join(dir, 'a.txt'), 'utf8'),
      json: JSON.parse(await fs.promises.readFile(path.join(dir, 'sub', 'b.json'), 'utf8')),
      size: st.size, isFile: st.isFile(), isDir: st.isDirectory(), mtimeIsDate: st.mtime instanceof Date,
      entries: entries.map((e) => `${e.name}${e.isDirectory() ? '/' : ''}`).sort(),
      recursive, missing, readErr,
      bytes: (await readFile(path.join(dir, 'a.txt'))).length,
    }
    await rm(dir, { recursive: true, force: true })
    out['removed'] = !fs.existsSync(dir)
    return out
  },
}
