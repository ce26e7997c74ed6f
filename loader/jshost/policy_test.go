package jshost

import (
	"context"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// TestFilePolicy: every form of node:fs (sync, callback, promise) asks
// the policy; refusals are Node's EACCES errors naming the path and what
// is allowed; what the policy allows still works.
func TestFilePolicy(t *testing.T) {
	root := project(t, map[string]string{"tools/t.ts": tool(`async execute(a) {
		const fs = require('node:fs'), fsp = require('node:fs/promises')
		const out = []
		const probe = (what, f) => { try { f(); out.push(what + ':ok') } catch (e) { out.push(what + ':' + e.code + ',' + e.errno + ',' + e.syscall + ',' + (e.path === a.path)) } }
		probe('read', () => fs.readFileSync(a.secret))
		probe('stat', () => fs.statSync(a.secret))
		probe('readdir', () => fs.readdirSync(a.private))
		probe('link', () => fs.readFileSync(a.ws + '/link'))
		probe('write release', () => fs.writeFileSync(a.release, 'x'))
		probe('chmod release', () => fs.chmodSync(a.release, 0o777))
		probe('write elsewhere', () => fs.writeFileSync(a.elsewhere, 'x'))
		probe('write workspace', () => fs.writeFileSync(a.ws + '/notes.md', 'hi'))
		probe('read release', () => fs.readFileSync(a.release, 'utf8'))
		out.push('exists:' + fs.existsSync(a.secret))
		out.push(await new Promise((r) => fs.readFile(a.secret, (e) => r('callback:' + (e && e.code)))))
		out.push(await fsp.readFile(a.secret).then(() => 'promise:ok', (e) => 'promise:' + e.code))
		try { fs.readFileSync(a.secret) } catch (e) { out.push(e.message) }
		return out.join('\n') }`)})
	ws, private, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(private, "signing.key")
	if err := os.WriteFile(secret, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	s, _ := loadTools(t, root, Options{Directory: ws, Policy: policy.Config{Private: []string{private}}}, "tools/t.ts")
	mustLoad(t, s)
	release := filepath.Join(root, "tools/t.ts")
	args := `{"secret":"` + secret + `","private":"` + private + `","ws":"` + ws + `","release":"` + release + `","elsewhere":"` + elsewhere + `/x","path":"` + secret + `"}`
	r := call(t, s, "t", args)
	got := strings.Split(r.Output, "\n")
	want := []string{
		"read:EACCES,-13,open,true", "stat:EACCES,-13,stat,true", "readdir:EACCES,-13,scandir,false", "link:EACCES,-13,open,false",
		"write release:EACCES,-13,open,false", "chmod release:EACCES,-13,chmod,false", "write elsewhere:EACCES,-13,open,false",
		"write workspace:ok", "read release:ok", "exists:false", "callback:EACCES", "promise:EACCES",
	}
	if r.IsError || len(got) != len(want)+1 {
		t.Fatalf("got %+v", r)
	}
	for i, w := range want {
		if got[i] != w {
			t.Errorf("line %d: %q, want %q", i, got[i], w)
		}
	}
	msg := got[len(want)]
	if !strings.HasPrefix(msg, "EACCES: permission denied, open '"+secret+"': tools may not read beeuni's own state; tools may write under ") || !strings.Contains(msg, ws) {
		t.Errorf("message %q", msg)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "notes.md")); err != nil || string(b) != "hi" {
		t.Errorf("the workspace write: %q %v", b, err)
	}
}

// TestDialPolicy: fetch to an address beeuni listens on is refused before
// anything reaches it, by IP, by name and through a redirect; another
// server on loopback answers.
func TestDialPolicy(t *testing.T) {
	var hits atomic.Int64
	own := httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { hits.Add(1) }))
	other := httpServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
			return
		}
		_, _ = w.Write([]byte("other"))
	}))
	_, port, _ := net.SplitHostPort(own)
	s, _ := loadTools(t, project(t, map[string]string{"tools/f.ts": tool(`async execute(a) {
		const out = []
		for (const u of a.urls) { try { out.push(await (await fetch(u)).text()) } catch (e) { out.push(String(e.message || e)) } }
		return out.join('\n') }`)}), Options{Policy: policy.Config{DenyDial: []string{own}}}, "tools/f.ts")
	mustLoad(t, s)
	urls := []string{"http://" + own + "/beeuni/tools", "http://localhost:" + port + "/", "http://[::1]:" + port + "/", "http://0.0.0.0:" + port + "/",
		"http://" + other + "/redirect?to=http://127.0.0.1:" + port + "/", "http://" + other + "/"}
	r := call(t, s, "f", `{"urls":["`+strings.Join(urls, `","`)+`"]}`)
	got := strings.Split(r.Output, "\n")
	if len(got) != len(urls) || got[len(got)-1] != "other" {
		t.Fatalf("got %+v", r)
	}
	for i, g := range got[:len(got)-1] {
		if !strings.Contains(g, "EACCES") || !strings.Contains(g, "beeuni's own address "+own) {
			t.Errorf("fetch %s: %q, want refused", urls[i], g)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the denied server got %d requests", n)
	}
}

// httpServer serves h on loopback and returns its address.
func httpServer(tb testing.TB, h http.Handler) string {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	})
	return ln.Addr().String()
}

// TestEnvPolicy: beeuni's credentials are in neither process.env nor
// context.env; the Beeuni API token (BEEUNI_TOKEN) is.
func TestEnvPolicy(t *testing.T) {
	t.Setenv("BEEUNI_EXECUTOR_TOKEN", "exec-secret")
	t.Setenv("BEEUNI_TOKEN", "api-token")
	t.Setenv("SOME_COPY", "exec-secret")
	s, _ := loadTools(t, project(t, map[string]string{"tools/e.ts": tool(`execute(a, c) {
		return [process.env.BEEUNI_EXECUTOR_TOKEN, process.env.SOME_COPY, process.env.BEEUNI_TOKEN,
			c.env.BEEUNI_EXECUTOR_TOKEN, c.env.BEEUNI_CONTROLLER_TOKEN, c.env.BEEUNI_TOKEN, c.env.GRANTED,
			JSON.stringify(process.env).includes('exec-secret'), JSON.stringify(c.env).includes('exec-secret')].join() }`)}),
		Options{Policy: policy.Config{HideValues: []string{"exec-secret"}}}, "tools/e.ts")
	mustLoad(t, s)
	env := map[string]string{"BEEUNI_EXECUTOR_TOKEN": "exec-secret", "BEEUNI_CONTROLLER_TOKEN": "c", "BEEUNI_TOKEN": "api-token", "GRANTED": "g"}
	r, err := s.Call(t.Context(), "e", nil, CallContext{Env: env})
	if err != nil || r.Output != ",,api-token,,,api-token,g,false,false" {
		t.Fatalf("got %+v %v", r, err)
	}
}

// TestRecursiveReaddirPolicy: readdir { recursive } asks the policy for
// every folder it opens: a private folder inside a readable one is
// refused, not listed.
func TestRecursiveReaddirPolicy(t *testing.T) {
	ws := t.TempDir()
	private := filepath.Join(ws, "b", "private")
	for _, d := range []string{filepath.Join(ws, "a"), private} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(private, "signing.key"), []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	root := project(t, map[string]string{"tools/t.ts": tool(`async execute(a) {
		const fs = require('node:fs')
		const out = [fs.readdirSync(a.ws + '/a', { recursive: true }).length]
		try { out.push(fs.readdirSync(a.ws, { recursive: true }).join(',')) } catch (e) { out.push(e.code + ' ' + e.path) }
		out.push(await fs.promises.readdir(a.ws, { recursive: true }).then((l) => l.join(','), (e) => e.code))
		return out.join('\n') }`)})
	s, _ := loadTools(t, root, Options{Directory: ws, Policy: policy.Config{Private: []string{private}}}, "tools/t.ts")
	mustLoad(t, s)
	r := call(t, s, "t", `{"ws":"`+ws+`"}`)
	want := "0\nEACCES " + private + "\nEACCES"
	if r.IsError || r.Output != want {
		t.Fatalf("got %+v, want %q", r, want)
	}
}
