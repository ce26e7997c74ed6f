// ini: config files.
import ini from 'ini'

export default {
  description: 'Config with ini',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const cfg = ini.parse('; comment\nscope = global\n\n[database]\nuser = dbuser\npassword = "s3cr=t"\n\n[paths.default]\ndatadir = /var/lib/data\narray[] = first\narray[] = second\n')
    return { cfg, back: ini.stringify({ section: { a: 1, b: 'two' }, top: true }) }
  },
}
