package jshost

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// TestFileDescriptors: fs.openSync and the descriptor calls, and
// fs/promises' FileHandle, answer what Node answers; opening asks the
// policy as every fs call does.
func TestFileDescriptors(t *testing.T) {
	ws, private := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(private, "key"), []byte("K"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("a.txt", filepath.Join(ws, "link")); err != nil {
		t.Fatal(err)
	}
	got := runJSON(t, Options{Directory: ws, Policy: policy.Config{Private: []string{private}}}, `async execute(a) {
		const fs = require('node:fs'), fsp = require('node:fs/promises')
		const out = {}
		const h = await fsp.open('a.txt', 'wx', 0o600)
		await h.writeFile('héllo', 'utf-8')
		await h.sync()
		await h.close()
		out.mode = (fs.statSync('a.txt').mode & 0o777).toString(8)
		out.exists = await fsp.open('a.txt', 'wx').catch((e) => [e.code, e.syscall])
		const r = await fsp.open('a.txt', fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW)
		out.read = [await r.readFile('utf8'), (await r.stat()).isFile(), (await r.read(Buffer.alloc(3), 0, 3, 1)).bytesRead]
		await r.close()
		out.loop = await fsp.open('link', fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW).catch((e) => e.code)
		const fd = fs.openSync('b.txt', 'w+')
		fs.writeSync(fd, 'abc')
		fs.writeSync(fd, Buffer.from('XY'), 0, 2, 0)
		const b = Buffer.alloc(5)
		out.sync = [fs.readSync(fd, b, 0, 5, 0), b.toString('utf8', 0, 3), fs.fstatSync(fd).size, typeof fd]
		fs.closeSync(fd)
		out.closed = (() => { try { fs.closeSync(fd) } catch (e) { return [e.code, e.message, e.syscall] } })()
		out.denied = await fsp.open(a.key).catch((e) => [e.code, e.syscall])
		out.callback = await new Promise((resolve) => fs.open('a.txt', 'r', (err, fd) => resolve([err, typeof fd])))
		return out
	}`, mustJSON(t, map[string]string{"key": filepath.Join(private, "key")}))
	want := map[string]any{
		"mode":     "600",
		"exists":   []any{"EEXIST", "open"},
		"read":     []any{"héllo", true, 3.0},
		"loop":     "ELOOP",
		"sync":     []any{3.0, "XYc", 3.0, "number"},
		"closed":   []any{"EBADF", "EBADF: bad file descriptor, close", "close"},
		"denied":   []any{"EACCES", "open"},
		"callback": []any{nil, "number"},
	}
	for k, w := range want {
		if g := mustJSON(t, got[k]); g != mustJSON(t, w) {
			t.Errorf("%s = %s, want %s", k, g, mustJSON(t, w))
		}
	}
}
