package bun

import (
	"context"
	"errors"
	"io"
	"math"
	"mime"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// installFiles adds the file bindings of Bun.file and Bun.write. Every
// path is asked of the policy first (r.Path: EACCES naming the path) and
// only the path it answers is used. Reads and writes run on a goroutine
// of their own and settle a promise on the loop.
func installFiles(r *rt.Runtime, set func(string, any)) {
	vm := r.VM
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(r.Host.Directory, p)
		}
		return p
	}
	set("size", func(p string) int64 {
		name := r.Path(abs(p), policy.Read, "stat")
		fi, err := os.Stat(name)
		if err != nil || fi.IsDir() {
			return 0 // Bun: a missing file's size is 0
		}
		return fi.Size()
	})
	set("mtime", func(p string) float64 {
		name := r.Path(abs(p), policy.Read, "stat")
		fi, err := os.Stat(name)
		if err != nil {
			return 0
		}
		return float64(fi.ModTime().UnixMilli())
	})
	set("exists", func(p string) bool {
		// As fs.existsSync: a path the tool may not look at does not exist.
		name, err := r.Host.Policy.Check(abs(p), policy.Read)
		if err != nil {
			return false
		}
		fi, err := os.Stat(name)
		return err == nil && !fi.IsDir()
	})
	set("mime", func(p string) string { return mimeType(p) })
	set("utf8", func(v goja.Value) string {
		b, _ := v.Export().([]byte)
		if utf8.Valid(b) {
			return string(b)
		}
		return strings.ToValidUTF8(string(b), "\uFFFD")
	})
	set("read", func(p string, start, end int64) goja.Value {
		name := r.Path(abs(p), policy.Read, "open")
		limit := int64(r.Host.CallMemory)
		if limit <= 0 {
			limit = math.MaxInt64 - 1
		}
		if fi, err := os.Stat(name); err == nil && fi.Mode().IsRegular() {
			n := fi.Size() - start
			if end >= 0 {
				n = min(n, end-start)
			}
			r.Alloc(max(n, 0)) // before reading: a RangeError, not a stopped call
		}
		ctx := r.Loop.Context()
		return settleAsync(r, func() (any, error) {
			return readRange(ctx, name, start, end, limit)
		}, func(v any) goja.Value {
			b := v.([]byte)
			if int64(len(b)) > limit {
				r.Alloc(int64(len(b))) // a device or FIFO with no size: throws
			}
			return r.Uint8Array(b)
		}, "open", name)
	})
	set("write", func(p string, data goja.Value) goja.Value {
		name := r.Path(abs(p), policy.Write, "open")
		var b []byte
		switch x := data.Export().(type) {
		case []byte:
			b = append([]byte(nil), x...) // the tool may change its array meanwhile
		case goja.ArrayBuffer:
			b = append([]byte(nil), x.Bytes()...)
		default:
			s := data.String()
			r.Alloc(3 * int64(len(s)))
			b = []byte(s)
		}
		// Bun creates the missing folders of the path: those lie in the
		// file's own writable root, asked of the policy as the folder.
		dir := filepath.Dir(name)
		if _, err := os.Stat(dir); err != nil {
			dir = r.Path(dir, policy.Write|policy.NoFollow, "mkdir")
		}
		return settleAsync(r, func() (any, error) {
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			return len(b), os.WriteFile(name, b, 0o644)
		}, func(v any) goja.Value { return vm.ToValue(v) }, "open", name)
	})
}

// readRange reads name from start to end (-1: its end), at most limit+1
// bytes. A pipe or device read stops when ctx ends (the call did).
func readRange(ctx context.Context, name string, start, end, limit int64) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	stop := context.AfterFunc(ctx, func() { _ = f.SetReadDeadline(time.Now()) })
	defer stop()
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, syscall.EISDIR
	}
	if start > 0 {
		if _, err := f.Seek(start, io.SeekStart); err != nil {
			return nil, err
		}
	}
	n := limit + 1
	if end >= 0 {
		n = min(n, max(end-start, 0))
	}
	return io.ReadAll(io.LimitReader(f, n))
}

// settleAsync runs work on a goroutine of its own (ended with the call)
// and answers a promise that done's value fulfills, or that Bun's system
// error rejects (code, errno, syscall, path).
func settleAsync(r *rt.Runtime, work func() (any, error), done func(any) goja.Value, syscallName, path string) goja.Value {
	vm, l := r.VM, r.Loop
	p, resolve, reject := vm.NewPromise()
	gen := l.Generation()
	ctx := l.Context()
	go func() {
		v, err := work()
		if ctx.Err() != nil {
			return
		}
		l.Post(gen, func() error {
			var ex *goja.Exception
			jerr := func() (e error) {
				defer func() {
					if x := recover(); x != nil {
						if o, ok := x.(*goja.Object); ok {
							e = reject(o)
							return
						}
						panic(x)
					}
				}()
				if err != nil {
					return reject(sysError(r, err, syscallName, path))
				}
				return resolve(done(v))
			}()
			if errors.As(jerr, &ex) {
				return nil
			}
			return rt.Uncatchable(jerr)
		})
	}()
	return vm.ToValue(p)
}

// sysError is Bun's error for a failed file operation, Node's shape.
func sysError(r *rt.Runtime, err error, syscallName, path string) *goja.Object {
	return r.SysError(err, syscallName, path)
}

// bunTypes are the MIME types Bun gives the extensions tools read most,
// with its spelling (";charset=utf-8", no space).
var bunTypes = map[string]string{
	".txt": "text/plain;charset=utf-8", ".json": "application/json;charset=utf-8",
	".html": "text/html;charset=utf-8", ".htm": "text/html;charset=utf-8",
	".css": "text/css;charset=utf-8", ".js": "text/javascript;charset=utf-8",
	".mjs": "text/javascript;charset=utf-8", ".cjs": "text/javascript;charset=utf-8",
	".ts": "text/javascript;charset=utf-8", ".md": "text/markdown;charset=utf-8",
	".csv": "text/csv;charset=utf-8", ".xml": "text/xml;charset=utf-8",
	".svg": "image/svg+xml", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".gif": "image/gif", ".webp": "image/webp", ".pdf": "application/pdf",
	".wasm": "application/wasm", ".zip": "application/zip", ".yaml": "text/yaml;charset=utf-8",
	".yml": "text/yaml;charset=utf-8", ".toml": "application/toml",
}

// mimeType is a BunFile's type from its extension, as Bun spells it;
// application/octet-stream when unknown.
func mimeType(p string) string {
	ext := strings.ToLower(filepath.Ext(p))
	if t, ok := bunTypes[ext]; ok {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		t = strings.ReplaceAll(t, "; ", ";")
		if strings.HasPrefix(t, "text/") && !strings.Contains(t, "charset") {
			t += ";charset=utf-8"
		}
		return t
	}
	return "application/octet-stream"
}
