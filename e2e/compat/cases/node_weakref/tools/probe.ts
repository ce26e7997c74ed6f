// WeakRef, FinalizationRegistry, structuredClone: what caches and SDKs use.
export default {
  description: 'WeakRef and structuredClone',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const target = { id: 1 }
    const ref = new WeakRef(target)
    const registry = new FinalizationRegistry<string>(() => {})
    registry.register(target, 'token', target)
    const clone = structuredClone({ when: new Date(0), map: new Map([['a', [1, 2]]]), set: new Set(['x']), bytes: new Uint8Array([1, 2]), nested: { deep: [1, { a: 2 }] } })
    return {
      deref: ref.deref()?.id,
      unregister: registry.unregister(target),
      cloneDate: clone.when instanceof Date && clone.when.getTime(),
      cloneMap: [...clone.map.entries()],
      cloneSet: [...clone.set],
      cloneBytes: [...clone.bytes],
      cloneNested: clone.nested,
      cloneFunction: (() => { try { structuredClone({ f() {} }); return 'cloned' } catch (e) { return (e as Error).name } })(),
      weakMap: (() => { const wm = new WeakMap(); wm.set(target, 5); return wm.get(target) })(),
      toStringTag: Object.prototype.toString.call(ref),
    }
  },
}
