export default {
  description: 'My web search.',
  parameters: { type: 'object', properties: {} },
  async execute() { return 'ok' },
}
