// node:child_process: the sync and async forms tools run git and CLIs with.
import { execSync, execFileSync, spawnSync, spawn, exec, execFile } from 'node:child_process'
import { promisify } from 'node:util'

export default {
  description: 'node:child_process',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const execP = promisify(exec)
    const execFileP = promisify(execFile)
    const streamed = await new Promise<string>((resolve, reject) => {
      const p = spawn('sh', ['-c', 'echo out; echo err >&2; exit 4'])
      let out = ''
      p.stdout.on('data', (c) => (out += c))
      p.stderr.on('data', (c) => (out += '[err]' + c))
      p.on('error', reject)
      p.on('close', (code) => resolve(`${out.trim().replace(/\n/g, ' ')} code=${code}`))
    })
    const failed = (() => { try { execSync('exit 3', { stdio: 'pipe' }); return 'ok' } catch (e: any) { return `status=${e.status}` } })()
    return {
      execSync: execSync('echo hello from sh').toString().trim(),
      execFileSync: execFileSync('git', ['log', '-1', '--format=%s'], { cwd: context.directory, encoding: 'utf8' }).trim(),
      spawnSync: (() => { const r = spawnSync('sh', ['-c', 'printf abc; exit 2'], { encoding: 'utf8' }); return [r.status, r.stdout] })(),
      streamed,
      failed,
      exec: (await execP('echo promisified')).stdout.trim(),
      execFile: (await execFileP('printf', ['%s-%s', 'a', 'b'])).stdout,
      missingBinary: await execFileP('no-such-binary-xyz').then(() => 'ran', (e) => e.code),
      cwd: execSync('pwd', { cwd: context.directory }).toString().trim(),
    }
  },
}
