'use strict'
// The module-calling half of a JavaScript runtime's baseline server, kept
// apart from the HTTP half (node_server.cjs) so another runtime's server can
// require it as it is. It does what beeuni's host does per call and no more:
// context.env and context.signal are built on first read (most calls read
// neither), exactly as beeuni's call context builds them, and the answer is
// beeuni's bytes: {"output","is_error","release"} and a newline.

// load requires each bundled tool (name -> CommonJS file).
function load(files) {
  const tools = {}
  for (const [name, file] of Object.entries(files)) {
    const m = require(file)
    tools[name] = m.default || m
  }
  return tools
}

// settle makes name a plain data property of the context holding v, as if
// it had always been one (beeuni's settle).
function settle(ctx, name, v) {
  Object.defineProperty(ctx, name, { value: v, writable: true, enumerable: true, configurable: true })
}

// lazy are the accessors of context.env and context.signal, shared by every
// call: a getter builds on first read and settles; assignment settles.
const lazy = {
  env: {
    get() { const env = { ...process.env }; settle(this, 'env', env); return env },
    set(v) { settle(this, 'env', v) },
    enumerable: true, configurable: true,
  },
  signal: {
    get() { const signal = new AbortController().signal; settle(this, 'signal', signal); return signal },
    set(v) { settle(this, 'signal', v) },
    enumerable: true, configurable: true,
  },
}

// answer is a response: status and body text.
function answer(status, obj) {
  return { status, body: JSON.stringify(obj) + '\n' }
}

// call runs tool name of tools with the request body's text, as beeuni's
// POST /beeuni/tools/{name} does, and returns the answer.
async function call(tools, name, body, sessionId, agent, cfg) {
  const tool = tools[name]
  if (!tool) return answer(404, { error: 'no tool named ' + name + ' is loaded' })
  let args
  try {
    args = body.trim() === '' ? {} : JSON.parse(body)
  } catch (e) {
    return answer(400, { error: 'the body is not valid JSON' })
  }
  const context = { sessionId: sessionId || '', agent: agent || 'beeuni', directory: cfg.dir }
  Object.defineProperties(context, lazy)
  try {
    const v = await tool.execute(args, context)
    const output = typeof v === 'string' ? v : JSON.stringify(v, null, 2)
    return answer(200, { output, is_error: false, release: cfg.release })
  } catch (e) {
    return answer(200, { output: String((e && e.message) || e), is_error: true, release: cfg.release })
  }
}

module.exports = { load, call }
