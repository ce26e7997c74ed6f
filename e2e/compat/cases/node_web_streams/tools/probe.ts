// Web streams: ReadableStream, TransformStream, WritableStream, and a
// Response body read as a stream.
export default {
  description: 'Web streams',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const source = new ReadableStream<string>({ start(c) { for (const w of ['alpha', 'beta', 'gamma']) c.enqueue(w); c.close() } })
    const upper = new TransformStream<string, string>({ transform(chunk, c) { c.enqueue(chunk.toUpperCase()) } })
    const seen: string[] = []
    await source.pipeThrough(upper).pipeTo(new WritableStream({ write(chunk) { seen.push(chunk) } }))
    const res = await fetch(context.env.COMPAT_HTTP + '/page.html')
    const reader = res.body!.getReader()
    let bytes = 0, chunks = 0
    for (;;) { const { done, value } = await reader.read(); if (done) break; bytes += value.length; chunks++ }
    const text = await new Response(new ReadableStream({ start(c) { c.enqueue(new TextEncoder().encode('from a stream')); c.close() } })).text()
    const decoded: string[] = []
    await new Blob(['a', 'b']).stream().pipeThrough(new TextDecoderStream()).pipeTo(new WritableStream({ write(s) { decoded.push(s) } }))
    return { seen, bodyBytes: bytes, gotChunks: chunks > 0, text, decoded: decoded.join(''), tee: source.locked }
  },
}
