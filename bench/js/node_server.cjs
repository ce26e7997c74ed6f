'use strict'
// The Node.js baseline: the bench's modules behind Node's own http server.
// What a user would write without beeuni; the calling is call.cjs's.
// argv[2]: {"tools": {name: file}, "dir": context.directory, "release": id}.
const http = require('node:http')
const { load, call } = require('./call.cjs')

const cfg = JSON.parse(process.argv[2])
const tools = load(cfg.tools)
const prefix = '/beeuni/tools/'

const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', async () => {
    const name = req.url.startsWith(prefix) ? req.url.slice(prefix.length) : ''
    const a = await call(tools, name, Buffer.concat(chunks).toString(),
      req.headers['x-beeuni-session'], req.headers['x-beeuni-agent'], cfg)
    res.writeHead(a.status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(a.body) })
    res.end(a.body)
  })
})
server.keepAliveTimeout = 120000
server.listen(0, '127.0.0.1', () => { console.log(server.address().port) })
