// mime: types from names and extensions from types.
import mime from 'mime'

export default {
  description: 'Content types with mime',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return { types: ['a.json', 'b.PNG', 'c.tar.gz', 'd.md', 'noext', 'e.ts', 'f.webp'].map((f) => mime.getType(f)), ext: [mime.getExtension('text/html'), mime.getExtension('application/pdf'), mime.getExtension('image/svg+xml')] }
  },
}
