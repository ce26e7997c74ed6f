// mustache: logic-less templates.
import Mustache from 'mustache'

export default {
  description: 'Templates with mustache',
  parameters: { type: 'object', properties: {} },
  async execute() {
    return Mustache.render('{{#people}}{{name}} ({{age}}){{^last}}, {{/last}}{{/people}} {{&html}} {{html}}', { people: [{ name: 'Ada', age: 36 }, { name: 'Grace', age: 85, last: true }], html: '<b>x</b>' })
  },
}
