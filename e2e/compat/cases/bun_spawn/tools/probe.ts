// Bun.spawn and Bun.spawnSync, as Bun tools run git and CLIs.
export default {
  description: 'Bun.spawn',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const proc = Bun.spawn(['git', 'log', '-1', '--format=%s|%an'], { cwd: context.directory, stdout: 'pipe' })
    const out = await new Response(proc.stdout).text()
    const code = await proc.exited
    const failing = Bun.spawn(['sh', '-c', 'echo oops >&2; exit 5'], { stderr: 'pipe' })
    const err = await new Response(failing.stderr).text()
    const sync = Bun.spawnSync(['sh', '-c', 'printf "%s" "$GREETING"'], { env: { ...process.env, GREETING: 'hi from env' } })
    const withStdin = Bun.spawnSync(['tr', 'a-z', 'A-Z'], { stdin: new TextEncoder().encode('shout') })
    const missing = (() => { try { Bun.spawnSync(['no-such-binary-xyz']); return 'spawned' } catch (e) { return (e as any).code ?? (e as Error).name } })()
    return {
      log: out.trim(), code,
      failing: { code: await failing.exited, stderr: err.trim() },
      sync: { code: sync.exitCode, stdout: sync.stdout.toString(), success: sync.success },
      stdin: withStdin.stdout.toString(),
      missing,
      pidIsNumber: typeof proc.pid,
    }
  },
}
