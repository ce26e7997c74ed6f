// diff: unified patches and word diffs.
import { createTwoFilesPatch, diffWords, applyPatch, structuredPatch } from 'diff'

export default {
  description: 'Diffs with diff',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const a = 'one\ntwo\nthree\nfour\n', b = 'one\n2\nthree\nfour\nfive\n'
    const patch = createTwoFilesPatch('a.txt', 'b.txt', a, b, 'old', 'new')
    return { patch, applied: applyPatch(a, patch) === b, words: diffWords('the quick fox', 'the slow fox').map((p) => (p.added ? '+' : p.removed ? '-' : '=') + p.value), hunks: structuredPatch('a', 'b', a, b).hunks.length }
  },
}
