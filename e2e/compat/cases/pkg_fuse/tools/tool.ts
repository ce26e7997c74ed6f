// fuse.js: fuzzy search over records.
import Fuse from 'fuse.js'

export default {
  description: 'Fuzzy search with fuse.js',
  parameters: { type: 'object', properties: { q: { type: 'string' } } },
  async execute(args: { q?: string }) {
    const books = [{ title: 'Old Man’s War', author: 'John Scalzi' }, { title: 'The Lock Artist', author: 'Steve Hamilton' }, { title: 'HTML5', author: 'Remy Sharp' }, { title: 'Right Ho Jeeves', author: 'P.D. Woodhouse' }]
    const fuse = new Fuse(books, { keys: ['title', 'author'], includeScore: true, threshold: 0.4 })
    return fuse.search(args.q ?? 'jon scalzy').map((r) => ({ title: r.item.title, score: Math.round((r.score ?? 0) * 1000) / 1000 }))
  },
}
