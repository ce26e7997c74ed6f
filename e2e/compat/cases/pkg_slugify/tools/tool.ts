// slugify: URL slugs from titles.
import slugify from 'slugify'

export default {
  description: 'Slugs with slugify',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return ['Hello World!', 'Crème brûlée & co.', 'Über größe', '  many   spaces  ', 'emoji 😀 here'].map((s) => slugify(s, { lower: true, strict: true }))
  },
}
