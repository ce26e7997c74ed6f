package jshost

import (
	"compress/gzip"
	"context"
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/hex"
	"encoding/json"
	"hash"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestNodeFS(t *testing.T) {
	root := project(t, map[string]string{"data/in.txt": "hello\n", "tools/files.ts": `
import fs from 'node:fs'
import { readFile, writeFile, mkdir, readdir, stat, rm, rename, appendFile, unlink } from 'node:fs/promises'
import { join } from 'path'
export default {
  description: 'files', parameters: { type: 'object' },
  async execute(args: any, ctx: any) {
    const out: Record<string, unknown> = {}
    out.read = await readFile('data/in.txt', 'utf8')
    out.readBuf = (await readFile(join(ctx.directory, 'data/in.txt'))).length
    await mkdir('out/deep/er', { recursive: true })
    await writeFile('out/deep/er/a.txt', 'A')
    await appendFile('out/deep/er/a.txt', 'B')
    out.ab = fs.readFileSync('out/deep/er/a.txt', { encoding: 'utf8' })
    await rename('out/deep/er/a.txt', 'out/b.txt')
    out.exists = [fs.existsSync('out/b.txt'), fs.existsSync('out/deep/er/a.txt')]
    out.list = (await readdir('out', { withFileTypes: true })).map((d: any) => d.name + (d.isDirectory() ? '/' : ''))
    const st = await stat('out/b.txt')
    out.stat = [st.size, st.isFile(), st.isDirectory(), st.mtime instanceof Date]
    try { await readFile('nope.txt') } catch (e: any) { out.enoent = e.code }
    fs.writeFileSync('out/c.txt', new Uint8Array([104, 105]))
    out.c = fs.readFileSync('out/c.txt').toString()
    await unlink('out/c.txt')
    await rm('out/deep', { recursive: true, force: true })
    out.after = fs.readdirSync('out')
    out.cb = await new Promise((resolve) => fs.readFile('data/in.txt', 'utf8', (err: any, s: string) => resolve(err ? 'err' : s.trim())))
    return out
  },
}`})
	s, _ := loadTools(t, root, Options{}, "tools/files.ts")
	mustLoad(t, s)
	r := call(t, s, "files", "{}")
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil || r.IsError {
		t.Fatalf("files = %+v", r)
	}
	want := `{"ab":"AB","after":["b.txt"],"c":"hi","cb":"hello","enoent":"ENOENT","exists":[true,false],"list":["b.txt","deep/"],"read":"hello\n","readBuf":6,"stat":[2,true,false,true]}`
	if b, _ := json.Marshal(got); string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if b, err := os.ReadFile(filepath.Join(root, "out/b.txt")); err != nil || string(b) != "AB" {
		t.Fatalf("out/b.txt = %q %v", b, err)
	}
}

func TestNodeCrypto(t *testing.T) {
	root := project(t, map[string]string{"tools/hash.ts": `
import crypto, { createHash, createHmac, randomBytes, randomUUID } from 'node:crypto'
export default {
  description: 'hash', parameters: { type: 'object' },
  execute(args: { text: string }) {
    const out: Record<string, string> = {}
    for (const alg of ['md5', 'sha1', 'sha256', 'sha512']) out[alg] = createHash(alg).update(args.text).digest('hex')
    out.b64 = createHash('sha256').update(Buffer.from(args.text)).digest('base64')
    out.hmac = createHmac('sha256', 'key').update(args.text, 'utf8').digest('hex')
    out.rb = String(randomBytes(16).length)
    out.uuid = randomUUID()
    const v = new Uint8Array(8); crypto.getRandomValues(v); out.grv = String(v.some((x) => x !== 0))
    const w = new Uint32Array(4); crypto.webcrypto.getRandomValues(w); globalThis.crypto.getRandomValues(w)
    out.global = globalThis.crypto.randomUUID().length.toString()
    return out
  },
}`})
	s, _ := loadTools(t, root, Options{}, "tools/hash.ts")
	mustLoad(t, s)
	text := "héllo wörld"
	r := call(t, s, "hash", `{"text":"`+text+`"}`)
	var got map[string]string
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil {
		t.Fatalf("hash = %+v", r)
	}
	for alg, h := range map[string]func() hash.Hash{"md5": md5.New, "sha1": sha1.New, "sha256": sha256.New, "sha512": sha512.New} {
		x := h()
		io.WriteString(x, text)
		if got[alg] != hex.EncodeToString(x.Sum(nil)) {
			t.Errorf("%s = %s", alg, got[alg])
		}
	}
	m := hmac.New(sha256.New, []byte("key"))
	io.WriteString(m, text)
	if got["hmac"] != hex.EncodeToString(m.Sum(nil)) {
		t.Errorf("hmac = %s", got["hmac"])
	}
	if got["rb"] != "16" || len(got["uuid"]) != 36 || got["uuid"][14] != '4' || got["grv"] != "true" || got["global"] != "36" {
		t.Errorf("random: %v", got)
	}
}

func TestGlobalsAndModules(t *testing.T) {
	root := project(t, map[string]string{"tools/g.ts": `
import os from 'node:os'
import path from 'node:path'
import { URL as NodeURL, fileURLToPath } from 'node:url'
import { Buffer as B } from 'node:buffer'
import util from 'node:util'
import { EventEmitter, once } from 'node:events'
export default {
  description: 'g', parameters: { type: 'object' },
  async execute(args: any, ctx: any) {
    const out: Record<string, unknown> = {}
    const u = new URL('https://example.com/a/b?x=1&y=2#h')
    u.searchParams.append('z', '3')
    out.url = [u.host, u.pathname, u.searchParams.get('y'), u.toString(), new NodeURL('/c', u).href, fileURLToPath('file:///tmp/x')]
    out.usp = new URLSearchParams({ a: '1', b: 'two words' }).toString()
    out.text = new TextDecoder().decode(new TextEncoder().encode('añb€'))
    out.b64 = [btoa('hi!'), atob('aGkh'), B.from('hi!').toString('base64'), Buffer.from('aGkh', 'base64').toString()]
    out.hex = Buffer.from([1, 255]).toString('hex')
    const src = { d: new Date(0), m: new Map([[1, { x: 1 }]]), arr: [1, 2] } as any
    src.self = src
    const c = structuredClone(src)
    out.clone = [c !== src, c.self === c, c.d instanceof Date, c.m.get(1).x, c.arr.length]
    out.path = [path.join('/a', '../b', 'c/'), path.resolve('x'), path.basename('/q/r.ts', '.ts'), path.extname('f.tar.gz'), path.dirname('/a/b/'), path.relative('/a/b', '/a/c/d'), path.isAbsolute('a')]
    out.os = [os.EOL, typeof os.platform(), os.tmpdir().length > 0, os.cpus().length > 0]
    out.util = [util.format('%s=%d %j', 'a', 5, { k: 1 }), util.inspect({ a: [1] }), await util.promisify((x: number, cb: any) => cb(null, x * 2))(21)]
    const e = new EventEmitter()
    let seen = 0
    e.on('ev', (n: number) => { seen += n })
    e.emit('ev', 2); e.emit('ev', 3)
    setTimeout(() => e.emit('later', 'ok'), 1)
    out.events = [seen, (await once(e, 'later'))[0]]
    out.timers = await new Promise((resolve) => {
      let n = 0
      const id = setInterval(() => { if (++n === 3) { clearInterval(id); resolve(n) } }, 1)
      const never = setTimeout(() => resolve('cleared timer fired'), 5)
      clearTimeout(never)
    })
    const order: string[] = []
    queueMicrotask(() => order.push('micro'))
    await null
    out.micro = order
    const ac = new AbortController()
    ac.abort()
    out.abort = [ac.signal.aborted, ac.signal.reason.name, AbortSignal.abort().aborted]
    out.timeoutSignal = await new Promise((resolve) => AbortSignal.timeout(5).addEventListener('abort', (ev: any) => resolve(ev.target.reason.name)))
    out.env = [typeof process.env.PATH, ctx.env.K]
    const h = new Headers({ 'X-A': '1' }); h.append('x-a', '2')
    out.headers = [h.get('x-a'), h.has('X-A')]
    const resp = new Response('{"j":1}', { status: 201 })
    out.response = [resp.status, resp.ok, (await resp.json()).j]
    console.log('hello from %s', 'g', { n: 1 })
    return out
  },
}`})
	s, logs := loadTools(t, root, Options{}, "tools/g.ts")
	mustLoad(t, s)
	r := call(t, s, "g", "{}")
	if r.IsError {
		t.Fatalf("g = %+v", r)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(got)
	want := `{"abort":[true,"AbortError",true],"b64":["aGkh","hi!","aGkh","hi!"],"clone":[true,true,true,1,2],"env":["string","v"],"events":[5,"ok"],"headers":["1, 2",true],"hex":"01ff","micro":["micro"],"os":["\n","string",true,true],"path":["/b/c/","` + root + `/x","r",".gz","/a","../c/d",false],"response":[201,true,1],"text":"añb€","timeoutSignal":"TimeoutError","timers":3,"url":["example.com","/a/b","2","https://example.com/a/b?x=1\u0026y=2\u0026z=3#h","https://example.com/c","/tmp/x"],"usp":"a=1\u0026b=two+words","util":["a=5 {\"k\":1}","{ a: [ 1 ] }",42]}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	if !strings.Contains(logs.String(), `"msg":"tool console","tool":"g","text":"hello from g {\"n\":1}"`) {
		t.Fatalf("console record missing: %s", logs.String())
	}
}

func TestFetch(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/json":
			body, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("X-Seen-Auth", r.Header.Get("Authorization"))
			w.WriteHeader(201)
			json.NewEncoder(w).Encode(map[string]string{"method": r.Method, "body": string(body), "q": r.URL.Query().Get("q")})
		case "/bytes":
			w.Write([]byte{0, 1, 2, 255})
		case "/gzip":
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			zw.Write([]byte("unpacked"))
			zw.Close()
		case "/slow":
			select {
			case <-r.Context().Done():
			case <-release:
			}
		case "/missing":
			http.Error(w, "no such order", 404)
		}
	}))
	t.Cleanup(srv.Close)
	root := project(t, map[string]string{"tools/f.ts": `
export default {
  description: 'fetch', parameters: { type: 'object' },
  async execute(args: any, ctx: any) {
    const base = args.base
    if (args.mode === 'slow') {
      const r = await fetch(base + '/slow', { signal: ctx.signal })
      return 'unexpected ' + r.status
    }
    if (args.mode === 'abort') {
      const ac = new AbortController()
      setTimeout(() => ac.abort(), 10)
      try { await fetch(base + '/slow', { signal: ac.signal }); return 'not aborted' } catch (e: any) { return 'caught ' + e.name }
    }
    if (args.mode === 'timeout') {
      try { await fetch(base + '/slow', { signal: AbortSignal.timeout(10) }); return 'not aborted' } catch (e: any) { return 'caught ' + e.name }
    }
    const r = await fetch(base + '/json?q=a%20b', { method: 'POST', headers: { authorization: 'Bearer t' }, body: JSON.stringify({ a: 1 }) })
    const j = await r.json()
    const bytes = new Uint8Array(await (await fetch(new Request(base + '/bytes'))).arrayBuffer())
    const miss = await fetch(base + '/missing')
    const gz = await fetch(base + '/gzip')
    let refused = ''
    try { await fetch('http://127.0.0.1:1/') } catch (e: any) { refused = e.name }
    return { status: r.status, ok: r.ok, ct: r.headers.get('content-type'), auth: r.headers.get('x-seen-auth'), j, bytes: [...bytes], miss: [miss.status, miss.ok, (await miss.text()).trim()], refused, gz: [gz.headers.get('content-encoding'), await gz.text()] }
  },
}`})
	s, _ := loadTools(t, root, Options{}, "tools/f.ts")
	mustLoad(t, s)
	r := call(t, s, "f", `{"base":"`+srv.URL+`"}`)
	var got map[string]any
	if err := json.Unmarshal([]byte(r.Output), &got); err != nil {
		t.Fatalf("f = %+v", r)
	}
	b, _ := json.Marshal(got)
	want := `{"auth":"Bearer t","bytes":[0,1,2,255],"ct":"application/json","gz":["gzip","unpacked"],"j":{"body":"{\"a\":1}","method":"POST","q":"a b"},"miss":[404,false,"no such order"],"ok":true,"refused":"TypeError","status":201}`
	if string(b) != want {
		t.Fatalf("got  %s\nwant %s", b, want)
	}
	for mode, out := range map[string]string{"abort": "caught AbortError", "timeout": "caught TimeoutError"} {
		if r := call(t, s, "f", `{"base":"`+srv.URL+`","mode":"`+mode+`"}`); r.Output != out {
			t.Errorf("%s = %+v", mode, r)
		}
	}
	// The caller's cancel aborts the request through context.signal.
	ctx, cancel := context.WithCancel(t.Context())
	time.AfterFunc(20*time.Millisecond, cancel)
	start := time.Now()
	r, err := s.Call(ctx, "f", json.RawMessage(`{"base":"`+srv.URL+`","mode":"slow"}`), CallContext{})
	if err != nil || !r.IsError || r.Output != "tool f was canceled before it finished" || time.Since(start) > 5*time.Second {
		t.Fatalf("slow = %+v %v", r, err)
	}
}
