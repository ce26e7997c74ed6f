// Bun.file and Bun.write, as Bun-written tools read and write the checkout.
import path from 'node:path'

export default {
  description: 'Bun.file and Bun.write',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { directory: string }) {
    const p = (name: string) => path.join(context.directory, name)
    const wrote = await Bun.write(p('notes.txt'), 'first line\nsecond line\n')
    await Bun.write(p('data.json'), JSON.stringify({ items: [1, 2, 3] }))
    await Bun.write(p('bytes.bin'), new Uint8Array([0, 1, 2, 255]))
    await Bun.write(p('copy.txt'), Bun.file(p('notes.txt')))
    await Bun.write(p('from-response.txt'), new Response('response body'))
    const f = Bun.file(p('notes.txt'))
    const missing = Bun.file(p('missing.txt'))
    return {
      wrote,
      text: await f.text(),
      size: f.size,
      type: f.type,
      jsonType: Bun.file(p('data.json')).type,
      json: await Bun.file(p('data.json')).json(),
      bytes: [...new Uint8Array(await Bun.file(p('bytes.bin')).arrayBuffer())],
      copy: await Bun.file(p('copy.txt')).text(),
      fromResponse: await Bun.file(p('from-response.txt')).text(),
      exists: [await f.exists(), await missing.exists()],
      missingRead: await missing.text().then(() => 'read', (e) => (e as any).code),
      slice: await f.slice(0, 5).text(),
      name: f.name?.replace(context.directory, '$DIR'),
      viaReadme: (await Bun.file(p('README.md')).text()).trim(),
    }
  },
}
