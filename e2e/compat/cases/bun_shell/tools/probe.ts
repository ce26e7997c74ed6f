// The Bun shell, imported from "bun", as opencode tools use it.
import { $ } from 'bun'

export default {
  description: 'Bun.$',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  async execute(args: { name?: string }, context: { directory: string }) {
    const name = args.name ?? 'a file; rm -rf /'
    const echoed = await $`echo ${name}`.text()
    const log = await $`git log --format=%s`.cwd(context.directory).text()
    const status = await $`sh -c "exit 3"`.nothrow().quiet()
    const thrown = await $`sh -c "echo bad >&2; exit 2"`.quiet().then(() => 'no throw', (e) => `exit ${e.exitCode}: ${e.stderr.toString().trim()}`)
    const lines: string[] = []
    for await (const line of $`printf 'one\ntwo\n'`.lines()) if (line) lines.push(line)
    const piped = await $`echo alpha beta | tr a-z A-Z`.text()
    const json = await $`echo '{"ok":true}'`.json()
    const envd = await $`echo $MY_VAR`.env({ ...process.env, MY_VAR: 'from env' }).text()
    return { echoed: echoed.trim(), log: log.trim(), status: status.exitCode, thrown, lines, piped: piped.trim(), json, envd: envd.trim(), same: $ === Bun.$, escape: $.escape('a b"c') }
  },
}
