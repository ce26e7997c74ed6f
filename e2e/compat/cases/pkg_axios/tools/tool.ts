// axios against the loopback stub: GET JSON, POST, an error status.
import axios from 'axios'

export default {
  description: 'HTTP with axios',
  parameters: { type: 'object', properties: {} },
  async execute(_args: unknown, context: { env: Record<string, string> }) {
    const api = axios.create({ baseURL: context.env.COMPAT_HTTP, headers: { 'X-Trace': 'axios-1' }, timeout: 5000 })
    const got = await api.get('/json')
    const posted = await api.post('/echo/items', { name: 'Ada' }, { params: { b: 2, a: 1 } })
    const failed = await api.get('/status/404').then(() => 'no error', (e) => ({ message: e.message, status: e.response?.status, code: e.code, body: e.response?.data }))
    return { status: got.status, data: got.data, type: got.headers['content-type'], posted: posted.data, failed }
  },
}
