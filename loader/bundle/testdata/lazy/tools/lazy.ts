import { hasCanvas } from 'opt-canvas'
import { parse, duplexStreamer } from 'lazy-stream'
import * as missing from 'lazy-missing'

function local() {
  return require('./nothing-here')
}

export default {
  description: 'Lazy and optional requires that never run',
  parameters: { type: 'object' },
  execute(args: { run?: string }) {
    if (args.run === 'stream') return duplexStreamer()
    if (args.run === 'pkg') return missing.pkg()
    if (args.run === 'file') return missing.file()
    if (args.run === 'local') return local()
    if (args.run === 'dyn') return missing.dyn()
    return { canvas: hasCanvas(), parsed: parse('a,b'), ok: missing.ok }
  },
}
