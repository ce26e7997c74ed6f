// node:url's legacy API and file URL helpers.
import url, { fileURLToPath, pathToFileURL } from 'node:url'

export default {
  description: 'node:url legacy API',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const parsed = url.parse('https://user@host.example:8080/p/a/t/h?query=string&x=1#hash', true)
    return {
      parse: { protocol: parsed.protocol, host: parsed.host, pathname: parsed.pathname, query: { ...parsed.query }, hash: parsed.hash, auth: parsed.auth },
      format: url.format({ protocol: 'https', hostname: 'example.com', pathname: '/a b', query: { q: '1 2' } }),
      resolve: [url.resolve('http://h/a/b', 'c'), url.resolve('http://h/a/b/', '../c'), url.resolve('/one/two', 'three')],
      fileURLToPath: fileURLToPath('file:///tmp/a%20b/c.txt'),
      pathToFileURL: pathToFileURL('/tmp/a b/c#d.txt').href,
      URLisGlobal: url.URL === URL,
    }
  },
}
