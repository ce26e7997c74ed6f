// ajv: validate arguments against the tool's own JSON Schema.
import Ajv from 'ajv'

const schema = { type: 'object', properties: { id: { type: 'string', pattern: '^A-\\d+$' }, qty: { type: 'integer', minimum: 1 }, tags: { type: 'array', items: { type: 'string' }, maxItems: 2 } }, required: ['id'], additionalProperties: false }

export default {
  description: 'Validate with ajv',
  parameters: schema,
  async execute(args: unknown) {
    const ajv = new Ajv({ allErrors: true, useDefaults: true })
    const validate = ajv.compile(schema)
    const ok = validate(args)
    const bad = { id: 'B', qty: 0, tags: ['a', 'b', 'c'], extra: 1 }
    validate(bad)
    return { ok, badErrors: validate.errors?.map((e) => `${e.instancePath || '/'} ${e.keyword}: ${e.message}`), text: ajv.errorsText(validate.errors) }
  },
}
