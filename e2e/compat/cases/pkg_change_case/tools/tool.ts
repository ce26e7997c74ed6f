// change-case: identifiers in every case.
import { camelCase, snakeCase, kebabCase, pascalCase, constantCase, sentenceCase, capitalCase } from 'change-case'

export default {
  description: 'Identifiers with change-case',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const s = 'lookupOrder by ID v2'
    return [camelCase, snakeCase, kebabCase, pascalCase, constantCase, sentenceCase, capitalCase].map((f) => f(s))
  },
}
