import { slug } from 'tiny-slug'
import { suffix } from './suffix'

export default {
  description: 'Slugify a title.',
  parameters: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] },
  execute(args: { title: string }) {
    return slug(args.title) + suffix
  },
}
