// The Anthropic SDK's own local-filesystem memory tool, on the checkout.
import { BetaLocalFilesystemMemoryTool } from '@anthropic-ai/sdk/tools/memory/node'
import path from 'node:path'

export default {
  description: 'The SDK memory tool on files',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const fs = await BetaLocalFilesystemMemoryTool.init(path.join(context.directory, 'memory'))
    const out: unknown[] = []
    out.push(await fs.create({ command: 'create', path: '/memories/prefs.md', file_text: 'likes: TypeScript\n' } as any))
    out.push(await fs.str_replace({ command: 'str_replace', path: '/memories/prefs.md', old_str: 'TypeScript', new_str: 'TypeScript and Go' } as any))
    out.push(await fs.view({ command: 'view', path: '/memories/prefs.md' } as any))
    out.push(await fs.view({ command: 'view', path: '/memories' } as any).catch((e: Error) => 'error: ' + e.message))
    out.push(await fs.view({ command: 'view', path: '/memories/../etc/passwd' } as any).catch((e: Error) => 'error: ' + e.message))
    return out
  },
}
