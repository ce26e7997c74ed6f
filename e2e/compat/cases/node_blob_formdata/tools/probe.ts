// Blob, File and FormData, as upload tools build request bodies.
export default {
  description: 'Blob, File, FormData',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const blob = new Blob(['hello ', new Uint8Array([119, 111]), 'rld'], { type: 'text/plain' })
    const file = new File(['{"a":1}'], 'a.json', { type: 'application/json', lastModified: 0 })
    const fd = new FormData()
    fd.append('name', 'Ada')
    fd.append('file', file)
    fd.append('name', 'Grace')
    fd.set('single', 'x')
    const body = await new Response(fd).text()
    const boundary = body.split('\r\n')[0]
    return {
      blob: { size: blob.size, type: blob.type, text: await blob.text(), slice: await blob.slice(6, 11).text(), bytes: new Uint8Array(await blob.arrayBuffer()).length },
      file: { name: file.name, type: file.type, size: file.size, lastModified: file.lastModified, isBlob: file instanceof Blob, json: JSON.parse(await file.text()) },
      formData: { names: fd.getAll('name'), has: fd.has('file'), entries: [...fd.keys()], fileName: (fd.get('file') as File).name },
      multipart: body.split(boundary).length - 1,
      multipartHasFile: body.includes('filename="a.json"'),
      urlencoded: await new Response(new URLSearchParams({ q: 'a b' })).text(),
      blobStream: typeof blob.stream === 'function',
    }
  },
}
