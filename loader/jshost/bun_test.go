package jshost

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"testing"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// evalTool runs the expression a.code (a promise is awaited) and answers
// its JSON, or "throws: <code|name>: <message>".
const evalTool = `async execute(a) {
	try { return JSON.stringify(await (0, eval)(a.code)) } catch (e) { return 'throws: ' + (e.code || e.name) + ': ' + e.message }
}`

// TestBunAPIs: each Bun API answers what Bun answers (Bun 1.x's outputs,
// as golden/ of the compat corpus holds them where it has them).
func TestBunAPIs(t *testing.T) {
	root := project(t, map[string]string{
		"tools/e.ts":          tool(evalTool),
		"tools/named.ts":      "import { sleep, env, version, Glob, file, write, inspect } from 'bun'\n" + tool(`async execute() { await sleep(1); return [typeof env, version === Bun.version, typeof Glob, file === Bun.file, write === Bun.write, inspect === Bun.inspect, require('bun') === Bun].join(',') }`),
		"notes.txt":           "first line\nsecond line\n",
		"data.json":           `{"items":[1,2,3]}`,
		"docs/a.md":           "# A",
		"docs/deep/b.md":      "# B",
		"docs/c.txt":          "x",
		".hidden/h.md":        "# H",
		"weird/[x].md":        "",
		"tools/nested/n.json": "{}",
	})
	s, _ := loadTools(t, root, Options{Directory: root}, "tools/e.ts", "tools/named.ts")
	mustLoad(t, s)
	if r := call(t, s, "named", "{}"); r.Output != "object,true,function,true,true,true,true" {
		t.Fatalf("named imports from 'bun' = %+v", r)
	}
	cases := []struct{ name, code, want string }{
		{"version", "[Bun.version, process.versions.bun, typeof Bun.revision]", `["` + rt.BunVersion + `","` + rt.BunVersion + `","string"]`},
		{"env is process.env", "Bun.env === process.env && Bun.env.HOME === process.env.HOME", "true"},
		{"main", "Bun.main", `"` + filepath.Join(root, "tools/e.ts") + `"`},
		{"nanoseconds grow", "(() => { const a = Bun.nanoseconds(); for (let i = 0; i < 1e4; i++); return Bun.nanoseconds() > a && Number.isInteger(a) })()", "true"},
		{"sleep", "(async () => { const t = Date.now(); await Bun.sleep(30); return Date.now() - t >= 29 })()", "true"},
		{"sleep until a Date", "(async () => { const t = Date.now(); await Bun.sleep(new Date(Date.now() + 30)); return Date.now() - t >= 25 })()", "true"},
		{"sleepSync", "(() => { const t = Date.now(); Bun.sleepSync(30); return Date.now() - t >= 29 })()", "true"},
		{"inspect nested", "Bun.inspect({ a: [1, { b: 'x' }] })", `"{\n  a: [ 1, {\n      b: \"x\",\n    } ],\n}"`},
		{"inspect scalars", "[Bun.inspect('s'), Bun.inspect(1), Bun.inspect(null), Bun.inspect([]), Bun.inspect({}), Bun.inspect(['a'])]", `["s","1","null","[]","{}","[ \"a\" ]"]`},
		{"inspect collections", "[Bun.inspect(new Map([['a', 1]])), Bun.inspect(new Set([1, 2])), Bun.inspect(new Uint8Array([1, 2])), Bun.inspect(new Map())]", `["Map(1) {\n  \"a\": 1,\n}","Set(2) {\n  1,\n  2,\n}","Uint8Array(2) [ 1, 2 ]","Map(0) {}"]`},
		{"inspect circular", "(() => { const o = {}; o.o = o; return Bun.inspect(o) })()", `"{\n  o: [Circular],\n}"`},
		{"deepEquals", "[Bun.deepEquals({ a: [1] }, { a: [1] }), Bun.deepEquals({ a: 1 }, { a: 2 }), Bun.deepEquals({ a: undefined }, {}), Bun.deepEquals({ a: undefined }, {}, true), Bun.deepEquals(new Map([[1, 2]]), new Map([[1, 2]]))]", "[true,false,true,false,true]"},
		{"escapeHTML", `Bun.escapeHTML('<a href="x">&\'</a>')`, `"&lt;a href=&quot;x&quot;&gt;&amp;&#x27;&lt;/a&gt;"`},
		{"stringWidth", `[Bun.stringWidth('日本a'), Bun.stringWidth('abc'), Bun.stringWidth('\u001b[31mred\u001b[0m'), Bun.stringWidth('e\u0301'), Bun.stringWidth('ｈｉ')]`, "[5,3,3,1,4]"},
		{"file text size type name", "(async () => { const f = Bun.file('notes.txt'); return [await f.text(), f.size, f.type, f.name, Bun.file('data.json').type, Bun.file('x.bin').type] })()", `["first line\nsecond line\n",23,"text/plain;charset=utf-8","notes.txt","application/json;charset=utf-8","application/octet-stream"]`},
		{"file json bytes arrayBuffer", "(async () => [await Bun.file('data.json').json(), [...await Bun.file('data.json').bytes()].length, (await Bun.file('notes.txt').arrayBuffer()).byteLength])()", `[{"items":[1,2,3]},17,23]`},
		{"file slice", "(async () => { const f = Bun.file('notes.txt'); return [await f.slice(0, 5).text(), await f.slice(6, 10).text(), await f.slice(-5).text(), f.slice(0, 5).size] })()", `["first","line","line\n",5]`},
		{"file exists", "(async () => [await Bun.file('notes.txt').exists(), await Bun.file('missing.txt').exists(), await Bun.file('docs').exists()])()", "[true,false,false]"},
		{"missing file rejects ENOENT", "Bun.file('missing.txt').text()", "throws: ENOENT: ENOENT: no such file or directory, open '" + filepath.Join(root, "missing.txt") + "'"},
		{"missing size is 0", "Bun.file('missing.txt').size", "0"},
		{"write forms", `(async () => {
			const n = [await Bun.write('out/a.txt', 'héllo'), await Bun.write('out/b.bin', new Uint8Array([0, 1, 255])), await Bun.write('out/c.bin', new Uint16Array([1]).buffer),
				await Bun.write('out/d.txt', Bun.file('notes.txt')), await Bun.write(Bun.file('out/e.txt'), new Response('resp')), await Bun.write('out/f.txt', Bun.file('notes.txt').slice(0, 5))]
			return [n, await Bun.file('out/a.txt').text(), [...await Bun.file('out/b.bin').bytes()], await Bun.file('out/d.txt').text(), await Bun.file('out/e.txt').text(), await Bun.file('out/f.txt').text()] })()`,
			`[[6,3,2,23,4,5],"héllo",[0,1,255],"first line\nsecond line\n","resp","first"]`},
		{"glob match", "['**/*.md', '*.md', 'docs/*.{md,txt}', 'docs/[ab].md', 'docs/?.md', 'docs/[!a].md'].map((p) => new Bun.Glob(p)).map((g) => [g.match('docs/a.md'), g.match('a.md')])", "[[true,true],[false,true],[true,false],[true,false],[true,false],[false,false]]"},
		{"glob scan", "(async () => { const out = []; const it = new Bun.Glob('**/*.md').scan({ cwd: '.' }); if (it[Symbol.for('Symbol.asyncIterator')]() !== it) return 'not async iterable'; for (;;) { const r = await it.next(); if (r.done) break; out.push(r.value) } return out.sort() })()", `["docs/a.md","docs/deep/b.md","weird/[x].md"]`},
		{"glob scan dot", "[...new Bun.Glob('**/*.md').scanSync({ cwd: '.', dot: true })].sort()", `[".hidden/h.md","docs/a.md","docs/deep/b.md","weird/[x].md"]`},
		{"glob scanSync folders", "[...new Bun.Glob('docs/*').scanSync({ onlyFiles: false })].sort()", `["docs/a.md","docs/c.txt","docs/deep"]`},
		{"glob scanSync absolute", "[...new Bun.Glob('*.json').scanSync({ cwd: 'tools/nested', absolute: true })]", `["` + filepath.Join(root, "tools/nested/n.json") + `"]`},
		{"spawn without a launcher", "Bun.spawn(['ls'])", "throws: Error: spawn ls: this host starts no processes"},
		{"shell without a launcher", "Bun.$`ls`", "throws: Error: Bun.$: ls: this host starts no processes"},
		{"bun:sqlite offered", "Object.keys(require('bun:sqlite')).sort()", `["Database","SQLiteError","Statement","__esModule","constants","default"]`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"code": c.code})
			r := call(t, s, "e", string(args))
			if r.IsError {
				t.Fatalf("error %s", r.Output)
			}
			got, want := r.Output, c.want
			if got != want {
				t.Errorf("%s\n got %s\nwant %s", c.code, got, want)
			}
		})
	}
}

// TestBunFilePolicy: Bun.file, Bun.write and Bun.Glob ask the same policy
// as node:fs. Refusals are EACCES naming the path (a rejected promise for
// the async forms); a glob skips what the policy hides below its folder.
func TestBunFilePolicy(t *testing.T) {
	ws, private, elsewhere := t.TempDir(), t.TempDir(), t.TempDir()
	secret := filepath.Join(private, "signing.key")
	for p, c := range map[string]string{secret: "KEY", filepath.Join(ws, "a.md"): "A", filepath.Join(ws, "state/s.md"): "S"} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(c), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	root := project(t, map[string]string{"tools/e.ts": tool(evalTool)})
	tmp := t.TempDir()
	s, _ := loadTools(t, root, Options{Directory: ws, TempDir: tmp, Policy: policy.Config{Private: []string{private, filepath.Join(ws, "state")}}}, "tools/e.ts")
	mustLoad(t, s)
	release := filepath.Join(root, "tools/e.ts")
	fail := "(p) => p.then(() => 'ok', (e) => [e.code, e.syscall, e.path].join(','))"
	cases := []struct{ name, code, want string }{
		{"read private", "(" + fail + ")(Bun.file(" + q(secret) + ").text())", q("EACCES,open," + secret)},
		{"bytes private", "(" + fail + ")(Bun.file(" + q(secret) + ").bytes())", q("EACCES,open," + secret)},
		{"size private", "(() => { try { return Bun.file(" + q(secret) + ").size } catch (e) { return e.code } })()", q("EACCES")},
		{"exists private", "Bun.file(" + q(secret) + ").exists()", "false"},
		{"copy from private", "(" + fail + ")(Bun.write('copy.txt', Bun.file(" + q(secret) + ")))", q("EACCES,open," + secret)},
		{"write elsewhere", "(" + fail + ")(Bun.write(" + q(filepath.Join(elsewhere, "x")) + ", 'x'))", q("EACCES,open," + filepath.Join(elsewhere, "x"))},
		{"write the release", "(" + fail + ")(Bun.write(" + q(release) + ", 'x'))", q("EACCES,open," + release)},
		{"write workspace", "(" + fail + ")(Bun.write('new/notes.md', 'hi'))", q("ok")},
		{"write temp", "(" + fail + ")(Bun.write(" + q(filepath.Join(tmp, "t.txt")) + ", 'hi'))", q("ok")},
		{"glob skips private", "[...new Bun.Glob('**/*.md').scanSync()].sort()", `["a.md","new/notes.md"]`},
		{"glob in private", "(() => { try { return [...new Bun.Glob('*').scanSync(" + q(private) + ")] } catch (e) { return [e.code, e.path].join(',') } })()", q("EACCES," + private)},
		{"async glob in private", "(" + fail + ")(new Bun.Glob('*').scan({ cwd: " + q(private) + " }).next())", q("EACCES,scandir," + private)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			args, _ := json.Marshal(map[string]string{"code": c.code})
			if r := call(t, s, "e", string(args)); r.IsError || r.Output != c.want {
				t.Errorf("%s\n got %+v\nwant %s", c.code, r, c.want)
			}
		})
	}
	if b, err := os.ReadFile(filepath.Join(ws, "new/notes.md")); err != nil || string(b) != "hi" {
		t.Errorf("the workspace write: %q %v", b, err)
	}
	for _, p := range []string{filepath.Join(elsewhere, "x"), filepath.Join(ws, "copy.txt")} {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was written", p)
		}
	}
}

func q(s string) string { b, _ := json.Marshal(s); return string(b) }

// TestBunFileMemory: reading a file larger than the call's memory fails
// with a RangeError before it is read, and the runtime keeps answering.
func TestBunFileMemory(t *testing.T) {
	root := project(t, map[string]string{"tools/e.ts": tool(evalTool)})
	big := filepath.Join(root, "big.bin")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(256 << 20); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	s, _ := loadTools(t, root, Options{Directory: root, CallMemory: 32 << 20, MaxMemory: 512 << 20}, "tools/e.ts")
	mustLoad(t, s)
	for _, code := range []string{"Bun.file('big.bin').text()", "Bun.file('big.bin').arrayBuffer()", "Bun.write('copy.bin', Bun.file('big.bin'))"} {
		args, _ := json.Marshal(map[string]string{"code": code})
		r := call(t, s, "e", string(args))
		if r.IsError || !strings.HasPrefix(r.Output, "throws: RangeError: this allocation (256 MiB) is over the tool's memory limit of 32 MiB") {
			t.Errorf("%s = %+v", code, r)
		}
	}
	args, _ := json.Marshal(map[string]string{"code": "Bun.file('big.bin').slice(0, 4).bytes().then((b) => b.length)"})
	if r := call(t, s, "e", string(args)); r.Output != "4" {
		t.Errorf("a small slice of the big file = %+v", r)
	}
}

// TestBunSleepSyncDeadline: Bun.sleepSync blocks the runtime, but never
// past the call's deadline: the call times out on time and the set keeps
// answering.
func TestBunSleepSyncDeadline(t *testing.T) {
	s, _ := loadTools(t, project(t, map[string]string{
		"tools/nap.ts": tool("timeout: 100, execute() { Bun.sleepSync(60000); return 'woke' }"),
		"tools/ok.ts":  tool("execute() { return 'fine' }"),
	}), Options{}, "tools/nap.ts", "tools/ok.ts")
	mustLoad(t, s)
	start := time.Now()
	r := call(t, s, "nap", "{}")
	if !r.IsError || !strings.Contains(r.Output, "timed out after 100ms") {
		t.Fatalf("nap = %+v", r)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("nap took %v", d)
	}
	if r := call(t, s, "ok", "{}"); r.Output != "fine" {
		t.Fatalf("ok after nap = %+v", r)
	}
}
