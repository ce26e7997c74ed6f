// Requires that never run must not fail the load; when they run, they
// throw "Cannot find module". Packages do this for optional dependencies.
function neverCalled() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('some-optional-native-addon')
}

let optional: unknown = null
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  optional = require('an-optional-peer-dependency')
} catch {
  optional = 'absent'
}

export default {
  description: 'lazy and optional require',
  parameters: { type: 'object', properties: { call: { type: 'boolean' } } },
  async execute(args: { call?: boolean }) {
    const out: Record<string, unknown> = { optional, neverCalled: typeof neverCalled }
    try { neverCalled(); out.called = 'loaded' } catch (e) { out.called = (e as Error).message.split('\n')[0]; out.code = (e as any).code }
    out.dynamic = await import('another-missing-package').then(() => 'loaded', (e) => (e as any).code ?? (e as Error).name)
    return out
  },
}
