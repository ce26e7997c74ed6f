// debug: namespaced logging that goes to stderr, never into the answer.
import createDebug from 'debug'

export default {
  description: 'Logging with debug',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const log = createDebug('compat:tool')
    log('called with %o', { a: 1 })
    const other = createDebug('other')
    return { enabled: log.enabled, otherEnabled: other.enabled, namespace: log.namespace, enabledFn: createDebug.enabled('compat:x') }
  },
}
