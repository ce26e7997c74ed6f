// Runs one corpus case on Bun or Node the way beeuni's executor calls a tool,
// and prints what the model would receive: the output on stdout (exit 0), or
// a thrown error's message on stderr (exit 1). The tool's own console output
// goes to stderr, as beeuni sends it to its log.
//
//   bun --no-install run.mjs DIR MODULE TOOL ARGS_JSON FORM
//   node run.mjs DIR MODULE TOOL ARGS_JSON FORM
//
// FORM is "beeuni" (the reference's default export { description,
// parameters, execute(args, context) }) or "opencode" (an opencode custom
// tool, tool({ description, args, execute }), called as opencode does: the
// args parsed through the zod shape, context per @opencode-ai/plugin's
// ToolContext, the model reads a string result or the result's `output`).
// On Node a module is first bundled with esbuild (packages stay external, so
// they resolve from DIR's node_modules); COMPAT_ESBUILD names esbuild's main.
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { format } from 'node:util'

const [dir, modulePath, toolName, argsJSON, form] = process.argv.slice(2)
const writeOut = process.stdout.write.bind(process.stdout)
for (const m of ['log', 'info', 'debug', 'warn', 'error', 'trace']) {
  console[m] = (...a) => process.stderr.write(format(...a) + '\n')
}
const isBun = typeof globalThis.Bun !== 'undefined'

function finish(code, text) {
  if (code === 0) writeOut(text + '\n', () => process.exit(0))
  else process.stderr.write('\n' + ERROR_MARK + text + '\n', () => process.exit(code))
}

// ERROR_MARK starts the line of stderr that carries a thrown error's message.
const ERROR_MARK = '\u0000compat-error:'

// errorText is what beeuni's host answers for a thrown value.
function errorText(e) {
  if (e === undefined) return 'undefined'
  if (e === null || typeof e !== 'object') return String(e)
  if (e instanceof Error || typeof e.message === 'string') return e.message !== '' ? String(e.message) : String(e)
  if (typeof e.toString === 'function' && e.toString !== Object.prototype.toString) {
    const s = String(e)
    if (s !== '[object Object]') return s
  }
  try { return JSON.stringify(e) } catch { return String(e) }
}

// output is what beeuni sends the model for a returned value.
function output(v) {
  if (v === undefined) return ''
  if (typeof v === 'string' || v instanceof String) return String(v)
  const s = JSON.stringify(v, null, 2)
  return s === undefined ? '' : s
}

async function load(file) {
  if (isBun) return import(pathToFileURL(file).href)
  const esbuild = await import(pathToFileURL(process.env.COMPAT_ESBUILD).href)
  const outDir = path.join(dir, '.compat-node')
  mkdirSync(outDir, { recursive: true })
  const outfile = path.join(outDir, path.basename(file).replace(/\.[^.]+$/, '') + '.mjs')
  await (esbuild.default ?? esbuild).build({
    entryPoints: [file], outfile, bundle: true, packages: 'external', format: 'esm',
    platform: 'node', target: 'node20', logLevel: 'silent',
    // The bundle lives in .compat-node/; import.meta.url still names the
    // module, as it does on Bun and beeuni.
    define: { 'import.meta.url': JSON.stringify(pathToFileURL(file).href) },
  })
  return import(pathToFileURL(outfile).href)
}

function contextFor(form) {
  const ctrl = new AbortController()
  if (form === 'opencode') {
    return {
      sessionID: 'local', messageID: 'msg_compat', agent: 'beeuni', directory: dir, worktree: dir,
      abort: ctrl.signal, metadata() {}, async ask() {},
    }
  }
  return { sessionId: 'local', agent: 'beeuni', directory: dir, env: { ...process.env }, signal: ctrl.signal }
}

async function main() {
  const args = JSON.parse(argsJSON)
  const mod = await load(path.resolve(dir, modulePath))
  if (form === 'opencode') {
    const base = path.basename(modulePath).replace(/\.[^.]+$/, '')
    const def = toolName === base ? mod.default : mod[toolName.slice(base.length + 1)]
    if (!def) throw new Error(`no opencode tool ${toolName} in ${modulePath}`)
    // The zod that @opencode-ai/plugin hands tools as tool.schema.
    const helper = path.join(dir, '.compat-opencode.mjs')
    writeFileSync(helper, 'export { tool } from "@opencode-ai/plugin/tool"\n')
    const { tool } = await import(pathToFileURL(helper).href)
    const parsed = tool.schema.object(def.args).parse(args)
    const res = await def.execute(parsed, contextFor(form))
    return typeof res === 'string' ? res : output(res?.output ?? res)
  }
  const def = mod.default
  if (!def || typeof def.execute !== 'function') throw new Error(`${modulePath} has no default export with execute`)
  return output(await def.execute(args, contextFor(form)))
}

main().then((text) => finish(0, text), (e) => finish(1, errorText(e)))
