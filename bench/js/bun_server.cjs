'use strict'
// The Bun baseline: the bench's modules behind Bun.serve, as a user would
// write it without beeuni. Bun runs the TypeScript modules as they are (no
// bundle); the calling is call.cjs's, the same as the Node.js baseline's.
// argv[2]: {"tools": {name: file}, "dir": context.directory, "release": id}.
const { load, call } = require('./call.cjs')

const cfg = JSON.parse(process.argv[2])
const tools = load(cfg.tools)
const headers = { 'Content-Type': 'application/json' }

async function tool(req) {
  const a = await call(tools, req.params.name, await req.text(),
    req.headers.get('x-beeuni-session'), req.headers.get('x-beeuni-agent'), cfg)
  return new Response(a.body, { status: a.status, headers })
}

const server = Bun.serve({
  hostname: '127.0.0.1',
  port: 0,
  development: false, // as deployed: no development error pages
  idleTimeout: 120, // seconds: keep-alive clients stay connected between rounds
  routes: { '/beeuni/tools/:name': { POST: tool } },
  fetch() { return new Response('not found\n', { status: 404 }) },
})
console.log(server.port)
