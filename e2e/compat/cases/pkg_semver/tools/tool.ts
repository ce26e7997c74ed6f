// semver: compare, satisfy, bump.
import semver from 'semver'

export default {
  description: 'Versions with semver',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const vs = ['1.2.3', '1.10.0', '1.2.3-beta.1', '2.0.0-rc.1', '0.9.9']
    return {
      sorted: semver.sort([...vs]),
      max: semver.maxSatisfying(vs, '^1.2.0'),
      satisfies: vs.map((v) => semver.satisfies(v, '>=1.2.0 <2')),
      inc: [semver.inc('1.2.3', 'minor'), semver.inc('1.2.3', 'prerelease', 'beta')],
      coerce: semver.coerce('v3.4 final')?.version,
      diff: semver.diff('1.2.3', '1.3.0'),
      valid: [semver.valid('1.2'), semver.clean('  =v1.2.3 ')],
    }
  },
}
