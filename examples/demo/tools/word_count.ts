// tools/word_count.ts: count the words, lines and characters of a text.

export default {
  description: 'Count the words, lines and characters of a text.',
  parameters: {
    type: 'object',
    properties: {
      text: { type: 'string', description: 'The text to count' },
    },
    required: ['text'],
  },
  async execute(args: { text?: unknown }) {
    if (typeof args.text !== 'string') throw new Error('text must be a string: pass the text to count as {"text": "..."}')
    const text = args.text
    const words = text.split(/\s+/).filter(Boolean).length
    const lines = text === '' ? 0 : text.split('\n').length
    return { words, lines, characters: Array.from(text).length }
  },
}
