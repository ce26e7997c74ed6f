// WHATWG URL as fetch wrappers and scrapers use it: relative resolution,
// slashes kept, search params.
export default {
  description: 'URL resolution',
  parameters: { type: 'object', properties: {} },
  async execute() {
    const base = 'http://h.example/a/b/c?q=1#f'
    const rel = ['d', './d', '../d', '../../../../d', '/d', '//other.example/x', '?z=2', '#g', '', 'd/', 'https://x.example', 'd?e#f']
    const u = new URL('https://user:pw@Example.COM:443/p//a/./b/../c/?x=1&y=%20z&x=2#frag')
    u.searchParams.append('n', 'a b&c')
    u.searchParams.delete('y')
    const p = new URLSearchParams({ b: '2', a: '1 2', c: 'é' })
    p.sort()
    return {
      resolved: rel.map((r) => new URL(r, base).href),
      trailing: new URL('http://h.example/dir/').href,
      doubleSlash: new URL('http://h.example//a//b').pathname,
      parts: { href: u.href, origin: u.origin, host: u.host, port: u.port, pathname: u.pathname, search: u.search, hash: u.hash, username: u.username },
      params: [...u.searchParams.entries()],
      searchParams: p.toString(),
      getAll: new URLSearchParams('a=1&a=2&b').getAll('a'),
      canParse: [URL.canParse?.('nope'), URL.canParse?.('b', 'http://h/a')],
      idn: new URL('http://münchen.example/').host,
      file: new URL('file:///tmp/a%20b.txt').pathname,
      port80: new URL('http://h:80/').href,
      invalid: (() => { try { new URL('not a url'); return 'parsed' } catch (e) { return (e as Error).name } })(),
    }
  },
}
