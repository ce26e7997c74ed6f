// node:http as a client, against the loopback stub.
import http from 'node:http'

function request(url: string, options: http.RequestOptions, body?: string): Promise<{ status?: number; type?: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, options, (res) => {
      res.setEncoding('utf8')
      let data = ''
      res.on('data', (c) => (data += c))
      res.on('end', () => resolve({ status: res.statusCode, type: res.headers['content-type'], body: data }))
    })
    req.on('error', reject)
    if (body) req.write(body)
    req.end()
  })
}

export default {
  description: 'node:http client',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const base = context.env.COMPAT_HTTP
    const got = await new Promise<string>((resolve, reject) => {
      http.get(base + '/json', (res) => { let d = ''; res.on('data', (c) => (d += c)); res.on('end', () => resolve(`${res.statusCode} ${d.trim()}`)) }).on('error', reject)
    })
    const posted = await request(base + '/echo/post?b=2&a=1', { method: 'POST', headers: { 'content-type': 'application/json', 'x-trace': 't1' } }, JSON.stringify({ hi: 1 }))
    const missing = await request(base + '/status/404', { method: 'GET' })
    return { got, posted: { ...posted, body: JSON.parse(posted.body) }, missing: missing.status, methods: http.METHODS.includes('PATCH'), codes: http.STATUS_CODES[418] }
  },
}
