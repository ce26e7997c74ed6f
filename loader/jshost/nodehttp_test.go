package jshost

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// TestNodeHTTPClient runs node:http requests against a loopback server:
// what the server receives (no header Node would not send), the response
// as Node shows it (status message, lowercased headers, body as sent:
// gzip not unpacked, redirects not followed), and Node's errors.
func TestNodeHTTPClient(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/echo":
			body, _ := io.ReadAll(r.Body)
			w.Header().Add("Set-Cookie", "a=1")
			w.Header().Add("Set-Cookie", "b=2")
			w.Header().Add("X-Many", "1")
			w.Header().Add("X-Many", "2")
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"method": r.Method, "uri": r.RequestURI, "host": r.Host,
				"ct": r.Header.Get("Content-Type"), "auth": r.Header.Get("Authorization"), "ua": r.Header.Get("User-Agent"),
				"accept": r.Header.Get("Accept"), "ae": r.Header.Get("Accept-Encoding"), "body": string(body), "len": r.ContentLength})
		case "/gzip":
			w.Header().Set("Content-Encoding", "gzip")
			zw := gzip.NewWriter(w)
			_, _ = io.WriteString(zw, "packed")
			_ = zw.Close()
		case "/redirect":
			http.Redirect(w, r, "/echo", http.StatusFound)
		case "/teapot":
			w.WriteHeader(418)
		case "/hang":
			w.(http.Flusher).Flush()
			<-r.Context().Done()
		}
	}))
	t.Cleanup(srv.Close)
	// A port nothing listens on: a listener taken and closed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	root := project(t, map[string]string{"tools/h.ts": `
import http from 'node:http'
import https from 'node:https'
import zlib from 'node:zlib'
function send(url: string, opts: any, body?: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, opts, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode, message: res.statusMessage, headers: res.headers, body: Buffer.concat(chunks) }))
    })
    req.on('error', (e: any) => resolve({ error: e.message, code: e.code, syscall: e.syscall, port: e.port }))
    if (body) req.write(body)
    req.end()
  })
}
export default {
  description: 'http', parameters: { type: 'object' },
  async execute(a: any) {
    switch (a.mode) {
      case 'post': {
        const r = await send(a.base + '/echo?x=1', { method: 'POST', headers: { 'Content-Type': 'application/json' }, auth: 'ada:pw' }, '{"hi":1}')
        return { status: r.status, message: r.message, cookies: r.headers['set-cookie'], many: r.headers['x-many'], ct: r.headers['content-type'], got: JSON.parse(r.body) }
      }
      case 'gzip': {
        const r = await send(a.base + '/gzip', {})
        return [r.headers['content-encoding'], zlib.gunzipSync(r.body).toString()]
      }
      case 'redirect': {
        const r = await send(a.base + '/redirect', {})
        return [r.status, r.headers.location]
      }
      case 'teapot': {
        const r = await send(a.base + '/teapot', {})
        return [r.status, r.message, http.STATUS_CODES[418]]
      }
      case 'options': {
        const u = new URL(a.base)
        const r = await new Promise<any>((resolve) => http.get({ host: u.hostname, port: u.port, path: '/echo?y=2', headers: { Host: 'example.test' } }, (res) => {
          let d = ''; res.setEncoding('utf8'); res.on('data', (c) => (d += c)); res.on('end', () => resolve(JSON.parse(d)))
        }))
        return [r.uri, r.host, r.method]
      }
      case 'refused':
        return send('http://' + a.closed + '/', {})
      case 'denied':
        return send(a.base + '/echo', {})
      case 'timeout':
        return new Promise((resolve) => {
          const req = http.get(a.base + '/hang', { timeout: 50 }, (res) => {
            res.on('data', () => {})
            res.on('error', (e: any) => resolve('res ' + e.code + ' ' + e.message))
          })
          req.on('timeout', () => req.destroy())
          req.on('error', (e: any) => resolve('req ' + e.code + ' ' + e.message))
        })
      case 'protocol':
        try { https.request(a.base) } catch (e: any) { return e.code + ': ' + e.message }
        return 'no error'
      case 'server':
        try { http.createServer() } catch (e: any) { return e.message }
        return 'no error'
    }
  },
}`})
	s, _ := loadTools(t, root, Options{}, "tools/h.ts")
	mustLoad(t, s)
	// Denied: the server's own address is beeuni's (as the executor's API would be).
	sd, _ := loadTools(t, root, Options{Policy: policy.Config{DenyDial: []string{srv.Listener.Addr().String()}}}, "tools/h.ts")
	mustLoad(t, sd)
	for _, c := range []struct {
		mode string
		set  *Set
		want string
	}{
		{"post", s, `{"cookies":["a=1","b=2"],"ct":"application/json","got":{"accept":"","ae":"","auth":"Basic YWRhOnB3","body":"{\"hi\":1}","ct":"application/json","host":"` + srv.Listener.Addr().String() + `","len":8,"method":"POST","ua":"","uri":"/echo?x=1"},"many":"1, 2","message":"OK","status":200}`},
		{"gzip", s, `["gzip","packed"]`},
		{"redirect", s, `[302,"/echo"]`},
		{"teapot", s, `[418,"I'm a teapot","I'm a Teapot"]`},
		{"options", s, `["/echo?y=2","example.test","GET"]`},
		{"refused", s, `{"code":"ECONNREFUSED","error":"connect ECONNREFUSED ` + closed + `","port":` + closed[strings.LastIndex(closed, ":")+1:] + `,"syscall":"connect"}`},
		{"denied", sd, `{"code":"EACCES","error":"connect EACCES ` + srv.Listener.Addr().String() + `: tools may not connect to beeuni's own address ` + srv.Listener.Addr().String() + ` (the executor's API, the controller or NATS)","syscall":"connect"}`},
		{"timeout", s, `res ECONNRESET aborted`},
		{"protocol", s, `ERR_INVALID_PROTOCOL: Protocol "http:" not supported. Expected "https:"`},
		{"server", s, `http.createServer is not available to tools: they cannot listen for connections`},
	} {
		r := call(t, c.set, "h", `{"base":"`+srv.URL+`","closed":"`+closed+`","mode":"`+c.mode+`"}`)
		got := r.Output
		var v any
		if json.Unmarshal([]byte(r.Output), &v) == nil {
			b, _ := json.Marshal(v)
			got = string(b)
		}
		if r.IsError || got != c.want {
			t.Errorf("%s = %+v\nwant %s", c.mode, got, c.want)
		}
	}
}
