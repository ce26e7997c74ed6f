// fetch as tools use it: JSON, errors, redirects, compressed bodies, headers.
export default {
  description: 'fetch details',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string>; signal: AbortSignal }) {
    const base = context.env.COMPAT_HTTP
    const json = await fetch(`${base}/json`, { signal: context.signal })
    const missing = await fetch(`${base}/status/404`)
    const redirected = await fetch(`${base}/redirect`)
    const gz = await fetch(`${base}/gzip`)
    const posted = await fetch(`${base}/echo/form`, { method: 'POST', body: new URLSearchParams({ a: '1', b: 'two words' }) })
    const req = new Request(`${base}/echo/req`, { method: 'PUT', headers: { 'X-Trace': 'abc' }, body: 'raw body' })
    const viaRequest = await fetch(req.clone())
    const h = new Headers({ 'X-One': '1' })
    h.append('x-one', '2')
    h.set('Content-Type', 'text/plain')
    return {
      json: { status: json.status, ok: json.ok, type: json.headers.get('content-type'), body: await json.json() },
      missing: { status: missing.status, ok: missing.ok, statusText: missing.statusText, body: await missing.json() },
      redirected: { redirected: redirected.redirected, url: redirected.url, status: redirected.status },
      gzip: { encodingHeader: gz.headers.get('content-encoding'), text: (await gz.text()).split('\n').length },
      posted: await posted.json(),
      viaRequest: await viaRequest.json(),
      headers: [...h.entries()],
      refused: await fetch('http://127.0.0.1:1/').then(() => 'connected', (e) => (e as Error).name),
      timeoutSignal: typeof AbortSignal.timeout,
      responseJson: await Response.json({ a: 1 }).text(),
      badJson: await new Response('{oops').json().then(() => 'parsed', (e) => (e as Error).name),
    }
  },
}
