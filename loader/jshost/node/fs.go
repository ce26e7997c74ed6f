package node

import (
	"errors"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"github.com/dop251/goja"
	"github.com/dop251/goja_nodejs/buffer"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// fsModule is node:fs: the synchronous API below, with the callback forms
// made from it in js/node.js.
func fsModule(r *rt.Runtime) goja.Value {
	fs := jsModule(r, "fsCallbacks", fsys{r}.syncModule()).ToObject(r.VM)
	// fs.promises is node:fs/promises itself (the same functions).
	promises := r.VM.ToValue(func() goja.Value { return r.Require("fs/promises") })
	_ = fs.DefineAccessorProperty("promises", promises, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return fs
}

// fsPromisesModule is node:fs/promises over node:fs, made in js/node.js.
func fsPromisesModule(r *rt.Runtime) goja.Value {
	return jsModule(r, "fsPromises", r.Require("fs"))
}

// fsys is the file system of one runtime; relative paths resolve against
// the checkout.
type fsys struct{ r *rt.Runtime }

// syncModule is node:fs's synchronous API on the real file system. Every
// operation asks the host's policy first (fsys.path) and acts on the
// path it answers; the callback and promise forms are made from these.
func (f fsys) syncModule() *goja.Object {
	vm := f.r.VM
	o := vm.NewObject()
	set := func(name string, fn any) { _ = o.Set(name, fn) }
	read := func(v goja.Value, syscall string) string { return f.path(v, policy.Read, syscall) }
	write := func(v goja.Value, syscall string) string { return f.path(v, policy.Write, syscall) }
	set("existsSync", func(v goja.Value) (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false // Node answers false for a path it may not look at
			}
		}()
		_, err := os.Stat(read(v, "access"))
		return err == nil
	})
	set("readFileSync", func(v, opts goja.Value) goja.Value {
		name := read(v, "open")
		b := f.readFile(name)
		if enc := encodingOf(vm, opts); enc != nil {
			return encodeBytes(vm, b, codecOf(f.r, enc))
		}
		return buffer.WrapBytes(vm, b)
	})
	writeFile := func(flag int) func(v, data, opts goja.Value) {
		return func(v, data, opts goja.Value) {
			name := write(v, "open")
			var b []byte
			if _, ok := data.(goja.String); ok {
				b = decodeString(data, codecOf(f.r, encodingOf(vm, opts)))
			} else {
				b = buffer.DecodeBytes(vm, data, goja.Undefined())
			}
			file, err := os.OpenFile(name, flag, 0o644)
			f.fsCheck(err, "open", name)
			_, err = file.Write(b)
			if cerr := file.Close(); err == nil {
				err = cerr
			}
			f.fsCheck(err, "write", name)
		}
	}
	set("writeFileSync", writeFile(os.O_WRONLY|os.O_CREATE|os.O_TRUNC))
	set("appendFileSync", writeFile(os.O_WRONLY|os.O_CREATE|os.O_APPEND))
	set("mkdirSync", func(v, opts goja.Value) goja.Value {
		name := f.path(v, policy.Write|policy.NoFollow, "mkdir")
		if optBool(vm, opts, "recursive") {
			first := firstMissing(name)
			f.fsCheck(os.MkdirAll(name, 0o755), "mkdir", name)
			if first == "" {
				return goja.Undefined()
			}
			return vm.ToValue(first)
		}
		f.fsCheck(os.Mkdir(name, 0o755), "mkdir", name)
		return goja.Undefined()
	})
	set("readdirSync", func(v, opts goja.Value) goja.Value {
		name := read(v, "scandir")
		types := optBool(vm, opts, "withFileTypes")
		var out []any
		// recursive lists folders breadth first, as Node, names relative
		// to name; it does not descend into symbolic links, and asks the
		// policy for every folder it opens (one may be private).
		queue := []string{""}
		for len(queue) > 0 {
			rel := queue[0]
			queue = queue[1:]
			dir, real := name, name
			if rel != "" {
				dir = filepath.Join(name, rel)
				real = read(vm.ToValue(dir), "scandir")
			}
			ents, err := os.ReadDir(real)
			f.fsCheck(err, "scandir", dir)
			f.r.Alloc(int64(len(out)+len(ents)) * 64)
			for _, e := range ents {
				if types {
					out = append(out, f.dirent(e.Name(), dir, e.Type()))
				} else {
					out = append(out, filepath.Join(rel, e.Name()))
				}
				if e.IsDir() && optBool(vm, opts, "recursive") {
					queue = append(queue, filepath.Join(rel, e.Name()))
				}
			}
		}
		if out == nil {
			out = []any{}
		}
		return vm.ToValue(out)
	})
	stat := func(follow bool) func(v, opts goja.Value) goja.Value {
		return func(v, opts goja.Value) goja.Value {
			var fi os.FileInfo
			var err error
			var name string
			if follow {
				name = read(v, "stat")
				fi, err = os.Stat(name)
			} else {
				name = f.path(v, policy.Read|policy.NoFollow, "lstat")
				fi, err = os.Lstat(name)
			}
			if err != nil && errors.Is(err, fs.ErrNotExist) && optHas(vm, opts, "throwIfNoEntry") && !optBool(vm, opts, "throwIfNoEntry") {
				return goja.Undefined()
			}
			f.fsCheck(err, map[bool]string{true: "stat", false: "lstat"}[follow], name)
			return f.stats(fi)
		}
	}
	set("statSync", stat(true))
	set("lstatSync", stat(false))
	// Removing or moving a folder acts on all it holds: policy.Tree.
	set("rmSync", func(v, opts goja.Value) {
		name := f.path(v, policy.Write|policy.NoFollow|policy.Tree, "rm")
		fi, err := os.Lstat(name)
		if err != nil {
			if optBool(vm, opts, "force") && errors.Is(err, fs.ErrNotExist) {
				return
			}
			f.fsCheck(err, "rm", name)
		}
		if fi.IsDir() {
			if !optBool(vm, opts, "recursive") {
				panic(f.r.NodeError("ERR_FS_EISDIR", 0, "Path is a directory: rm returned EISDIR (is a directory) "+name, "rm", name))
			}
			f.fsCheck(os.RemoveAll(name), "rm", name)
			return
		}
		f.fsCheck(os.Remove(name), "rm", name)
	})
	set("rmdirSync", func(v, opts goja.Value) {
		name := f.path(v, policy.Write|policy.NoFollow|policy.Tree, "rmdir")
		if optBool(vm, opts, "recursive") {
			f.fsCheck(os.RemoveAll(name), "rmdir", name)
			return
		}
		f.fsCheck(syscall.Rmdir(name), "rmdir", name)
	})
	set("unlinkSync", func(v goja.Value) {
		name := f.path(v, policy.Write|policy.NoFollow, "unlink")
		f.fsCheck(syscall.Unlink(name), "unlink", name)
	})
	set("renameSync", func(a, b goja.Value) {
		from := f.path(a, policy.Write|policy.NoFollow|policy.Tree, "rename")
		to := f.path(b, policy.Write|policy.NoFollow|policy.Tree, "rename")
		f.fsCheck(os.Rename(from, to), "rename", from)
	})
	set("copyFileSync", func(a, b goja.Value) {
		from := read(a, "copyfile")
		to := write(b, "copyfile")
		data := f.readFile(from)
		fi, err := os.Stat(from)
		f.fsCheck(err, "copyfile", from)
		f.fsCheck(os.WriteFile(to, data, fi.Mode().Perm()), "copyfile", to)
	})
	set("accessSync", func(v, mode goja.Value) {
		a := policy.Read
		if m := mode; m != nil && !goja.IsUndefined(m) && m.ToInteger()&2 != 0 {
			a = policy.Write // W_OK
		}
		name := f.path(v, a, "access")
		_, err := os.Stat(name)
		f.fsCheck(err, "access", name)
	})
	set("realpathSync", func(v goja.Value) string {
		name := read(v, "realpath")
		r, err := filepath.EvalSymlinks(name)
		f.fsCheck(err, "realpath", name)
		return r
	})
	set("mkdtempSync", func(prefix string) string {
		full := f.fsPath(vm.ToValue(prefix))
		dir := f.path(vm.ToValue(filepath.Dir(full)), policy.Write, "mkdtemp")
		d, err := os.MkdirTemp(dir, filepath.Base(full)+"*")
		f.fsCheck(err, "mkdtemp", full)
		return d
	})
	set("chmodSync", func(v goja.Value, mode int64) {
		name := write(v, "chmod")
		f.fsCheck(os.Chmod(name, os.FileMode(mode)), "chmod", name)
	})
	set("utimesSync", func(v goja.Value, at, mt float64) {
		name := write(v, "utime")
		f.fsCheck(os.Chtimes(name, time.UnixMilli(int64(at*1000)), time.UnixMilli(int64(mt*1000))), "utime", name)
	})
	set("truncateSync", func(v goja.Value, n int64) {
		name := write(v, "open")
		f.r.Alloc(n)
		f.fsCheck(os.Truncate(name, n), "open", name)
	})
	set("symlinkSync", func(target string, v goja.Value) {
		name := f.path(v, policy.Write|policy.NoFollow, "symlink")
		f.fsCheck(os.Symlink(target, name), "symlink", name)
	})
	set("readlinkSync", func(v goja.Value) string {
		name := f.path(v, policy.Read|policy.NoFollow, "readlink")
		t, err := os.Readlink(name)
		f.fsCheck(err, "readlink", name)
		return t
	})
	consts := vm.NewObject()
	for k, v := range map[string]int{"F_OK": 0, "R_OK": 4, "W_OK": 2, "X_OK": 1} {
		_ = consts.Set(k, v)
	}
	f.installFds(set, consts)
	set("constants", consts)
	return o
}

// path is a path argument resolved against the checkout, allowed by the
// policy for access a (else Node's EACCES is thrown), and resolved.
func (f fsys) path(v goja.Value, a policy.Access, syscall string) string {
	return f.r.Path(f.fsPath(v), a, syscall)
}

// readFile reads a whole file, at most the call's memory limit: a file
// larger than that (or endless, as /dev/zero) throws a RangeError.
func (f fsys) readFile(name string) []byte {
	file, err := os.Open(name)
	f.fsCheck(err, "open", name)
	defer file.Close()
	if fi, err := file.Stat(); err == nil && fi.Mode().IsRegular() {
		f.r.Alloc(fi.Size())
	}
	limit := int64(f.r.Host.CallMemory)
	if limit <= 0 {
		limit = math.MaxInt64 - 1
	}
	b, err := io.ReadAll(io.LimitReader(file, limit+1))
	f.fsCheck(err, "read", name)
	if int64(len(b)) > limit {
		f.r.Alloc(int64(len(b)))
	}
	return b
}

// fsPath resolves a path argument (string, Buffer or file: URL) against the checkout.
func (f fsys) fsPath(v goja.Value) string {
	if v == nil {
		panic(f.r.VM.NewTypeError(`The "path" argument must be of type string or an instance of Buffer or URL`))
	}
	var s string
	switch x := v.Export().(type) {
	case string:
		s = x
	case []byte:
		s = string(x)
	default:
		if o, ok := v.(*goja.Object); ok && o.Get("href") != nil {
			s = o.Get("pathname").String()
		} else {
			panic(f.r.VM.NewTypeError(`The "path" argument must be of type string or an instance of Buffer or URL`))
		}
	}
	if !filepath.IsAbs(s) {
		s = filepath.Join(f.r.Host.Directory, s)
	}
	return s
}

// fsCheck throws err as Node does: an Error with code, errno, syscall, path.
func (f fsys) fsCheck(err error, syscallName, path string) {
	if err != nil {
		panic(f.r.SysError(err, syscallName, path))
	}
}

func firstMissing(dir string) string {
	first := ""
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			return first
		}
		first = d
		if filepath.Dir(d) == d {
			return first
		}
	}
}

func (f fsys) dirent(name, parent string, mode fs.FileMode) *goja.Object {
	o := f.r.VM.NewObject()
	_ = o.Set("name", name)
	_ = o.Set("parentPath", parent)
	_ = o.Set("path", parent)
	setKinds(o, mode)
	return o
}

// setKinds puts Node's type predicates of Dirent and Stats on o. Every
// one is there: libraries copy them all (@nodelib/fs.stat binds each).
func setKinds(o *goja.Object, mode fs.FileMode) {
	dev := mode&fs.ModeDevice != 0
	char := mode&fs.ModeCharDevice != 0
	for k, v := range map[string]bool{
		"isFile":            mode.IsRegular(),
		"isDirectory":       mode.IsDir(),
		"isSymbolicLink":    mode&fs.ModeSymlink != 0,
		"isFIFO":            mode&fs.ModeNamedPipe != 0,
		"isSocket":          mode&fs.ModeSocket != 0,
		"isCharacterDevice": dev && char,
		"isBlockDevice":     dev && !char,
	} {
		_ = o.Set(k, func() bool { return v })
	}
}

// modeBits is st_mode as Node shows it: the permission bits and the type.
func modeBits(mode fs.FileMode) uint32 {
	t := uint32(0o100000)
	switch {
	case mode.IsDir():
		t = 0o040000
	case mode&fs.ModeSymlink != 0:
		t = 0o120000
	case mode&fs.ModeNamedPipe != 0:
		t = 0o010000
	case mode&fs.ModeSocket != 0:
		t = 0o140000
	case mode&fs.ModeCharDevice != 0:
		t = 0o020000
	case mode&fs.ModeDevice != 0:
		t = 0o060000
	}
	return t | uint32(mode.Perm())
}

func (f fsys) stats(fi os.FileInfo) *goja.Object {
	vm := f.r.VM
	o := vm.NewObject()
	mode := fi.Mode()
	ms := float64(fi.ModTime().UnixNano()) / 1e6
	date := func() goja.Value { d, _ := vm.New(vm.Get("Date"), vm.ToValue(ms)); return d }
	_ = o.Set("size", fi.Size())
	_ = o.Set("mode", modeBits(mode))
	for _, k := range []string{"mtimeMs", "ctimeMs", "atimeMs", "birthtimeMs"} {
		_ = o.Set(k, ms)
	}
	for _, k := range []string{"mtime", "ctime", "atime", "birthtime"} {
		_ = o.Set(k, date())
	}
	setKinds(o, mode)
	return o
}

// encodingOf reads an encoding from a string or { encoding } option.
func encodingOf(vm *goja.Runtime, opts goja.Value) goja.Value {
	if opts == nil || goja.IsUndefined(opts) || goja.IsNull(opts) {
		return nil
	}
	if _, ok := opts.Export().(string); ok {
		return opts
	}
	if o, ok := opts.(*goja.Object); ok {
		if e := o.Get("encoding"); e != nil && !goja.IsUndefined(e) && !goja.IsNull(e) {
			return e
		}
	}
	return nil
}

func optBool(vm *goja.Runtime, opts goja.Value, key string) bool {
	if o, ok := opts.(*goja.Object); ok {
		if v := o.Get(key); v != nil {
			return v.ToBoolean()
		}
	}
	return false
}

func optHas(vm *goja.Runtime, opts goja.Value, key string) bool {
	if o, ok := opts.(*goja.Object); ok {
		v := o.Get(key)
		return v != nil && !goja.IsUndefined(v)
	}
	return false
}
