// handlebars: templates with helpers.
import Handlebars from 'handlebars'

export default {
  description: 'Templates with handlebars',
  parameters: { type: 'object', properties: {} },
  async execute() {
    Handlebars.registerHelper('upper', (s: string) => s.toUpperCase())
    const t = Handlebars.compile('Hi {{upper name}}!\n{{#each items}}- {{this.n}}: {{this.v}}\n{{/each}}{{#if admin}}admin{{else}}user{{/if}} {{{raw}}} {{esc}}')
    return t({ name: 'ada', items: [{ n: 'a', v: 1 }, { n: 'b', v: 2 }], admin: false, raw: '<b>', esc: '<i>' })
  },
}
