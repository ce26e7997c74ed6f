// gray-matter: front matter of a Markdown note.
import matter from 'gray-matter'

const DOC = `---
title: Release notes
tags: [tools, agents]
draft: false
date: 2024-01-02
---
# Hello

Body text.
`

export default {
  description: 'Front matter with gray-matter',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const file = matter(DOC)
    return { data: file.data, content: file.content, isEmpty: file.isEmpty, stringified: matter.stringify('Body\n', { title: 'New', n: 1 }), excerpt: matter('---\na: 1\n---\nfirst\n---\nrest', { excerpt: true }).excerpt }
  },
}
