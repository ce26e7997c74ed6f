package node

import (
	"context"
	"errors"
	"io"
	"os"
	"syscall"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/policy"
	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// File descriptors of node:fs (openSync, readSync, writeSync, fstatSync,
// fsyncSync, ftruncateSync, closeSync; the callback forms and fs/promises'
// FileHandle are made from them in js/node.js). A descriptor is a file
// the policy let the tool open, kept in the runtime's table under its
// real number; the host closes what the tool left open when the call
// ends.

type fdKey struct{}

// openFlags are Node's string flags.
var openFlags = map[string]int{
	"r": os.O_RDONLY, "rs": os.O_RDONLY | os.O_SYNC, "sr": os.O_RDONLY | os.O_SYNC,
	"r+": os.O_RDWR, "rs+": os.O_RDWR | os.O_SYNC, "sr+": os.O_RDWR | os.O_SYNC,
	"w": os.O_TRUNC | os.O_CREATE | os.O_WRONLY, "wx": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xw": os.O_TRUNC | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"w+": os.O_TRUNC | os.O_CREATE | os.O_RDWR, "wx+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"xw+": os.O_TRUNC | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"a":   os.O_APPEND | os.O_CREATE | os.O_WRONLY, "ax": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL,
	"xa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_EXCL, "as": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC,
	"sa": os.O_APPEND | os.O_CREATE | os.O_WRONLY | os.O_SYNC,
	"a+": os.O_APPEND | os.O_CREATE | os.O_RDWR, "ax+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL,
	"xa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_EXCL, "as+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC,
	"sa+": os.O_APPEND | os.O_CREATE | os.O_RDWR | os.O_SYNC,
}

// openConstants are fs.constants' open flags (Linux values).
var openConstants = map[string]int{
	"O_RDONLY": syscall.O_RDONLY, "O_WRONLY": syscall.O_WRONLY, "O_RDWR": syscall.O_RDWR, "O_CREAT": syscall.O_CREAT,
	"O_EXCL": syscall.O_EXCL, "O_NOCTTY": syscall.O_NOCTTY, "O_TRUNC": syscall.O_TRUNC, "O_APPEND": syscall.O_APPEND,
	"O_DIRECTORY": syscall.O_DIRECTORY, "O_NOATIME": syscall.O_NOATIME, "O_NOFOLLOW": syscall.O_NOFOLLOW,
	"O_SYNC": syscall.O_SYNC, "O_DSYNC": syscall.O_DSYNC, "O_NONBLOCK": syscall.O_NONBLOCK,
}

func (f fsys) files() map[int]*os.File {
	return rt.Local(f.r, fdKey{}, func() map[int]*os.File { return map[int]*os.File{} })
}

// fdError is Node's error of a descriptor operation: "EBADF: bad file
// descriptor, close", with no path.
func (f fsys) fdError(err error, syscallName string) *goja.Object {
	if errors.Is(err, os.ErrClosed) {
		err = syscall.EBADF
	}
	e := f.r.SysError(err, syscallName, "")
	msg := e.Get("message").String()
	_ = e.Set("message", msg[:len(msg)-3]) // without the empty path's " ''"
	_ = e.Delete("path")
	return e
}

func (f fsys) file(v goja.Value, syscallName string) *os.File {
	file, ok := f.files()[int(v.ToInteger())]
	if !ok {
		panic(f.fdError(syscall.EBADF, syscallName))
	}
	return file
}

// position is a read's or write's position argument: -1 for the file's
// own (null, undefined, -1).
func position(v goja.Value) int64 {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return -1
	}
	return v.ToInteger()
}

// span is b[offset:offset+length] of a read's or write's arguments
// (offset 0 and the rest of b by default), or Node's ERR_OUT_OF_RANGE.
func (f fsys) span(b []byte, offset, length goja.Value) []byte {
	off := int64(0)
	if offset != nil && !goja.IsUndefined(offset) && !goja.IsNull(offset) {
		off = offset.ToInteger()
	}
	n := int64(len(b)) - off
	if length != nil && !goja.IsUndefined(length) && !goja.IsNull(length) {
		n = length.ToInteger()
	}
	if off < 0 || n < 0 || off+n > int64(len(b)) {
		e := f.r.RangeError(`The value of "length" is out of range.`)
		_ = e.Set("code", "ERR_OUT_OF_RANGE")
		panic(e)
	}
	return b[off : off+n]
}

// installFds adds the descriptor functions to o (node:fs's sync API).
func (f fsys) installFds(set func(string, any), consts *goja.Object) {
	vm := f.r.VM
	for k, v := range openConstants {
		_ = consts.Set(k, v)
	}
	set("openSync", func(v, flags, mode goja.Value) int {
		fl := os.O_RDONLY
		if flags != nil && !goja.IsUndefined(flags) && !goja.IsNull(flags) {
			if s, ok := flags.Export().(string); ok {
				n, known := openFlags[s]
				if !known {
					e := vm.NewTypeError("The value \"" + s + "\" is invalid for option \"flags\"")
					_ = e.Set("code", "ERR_INVALID_ARG_VALUE")
					panic(e)
				}
				fl = n
			} else {
				fl = int(flags.ToInteger())
			}
		}
		a := policy.Read
		if fl&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
			a = policy.Write
		}
		if fl&syscall.O_NOFOLLOW != 0 {
			a |= policy.NoFollow
		}
		perm := os.FileMode(0o666)
		if mode != nil && !goja.IsUndefined(mode) && !goja.IsNull(mode) {
			perm = os.FileMode(mode.ToInteger()) & os.ModePerm
		}
		name := f.path(v, a, "open")
		file, err := os.OpenFile(name, fl, perm)
		f.fsCheck(err, "open", name)
		fd := int(file.Fd())
		f.files()[fd] = file
		// What the tool leaves open is closed when the call ends.
		context.AfterFunc(f.r.Loop.Context(), func() { file.Close() })
		return fd
	})
	set("closeSync", func(v goja.Value) {
		file := f.file(v, "close")
		delete(f.files(), int(v.ToInteger()))
		if err := file.Close(); err != nil {
			panic(f.fdError(err, "close"))
		}
	})
	set("readSync", func(v, buf, offset, length, pos goja.Value) int {
		file := f.file(v, "read")
		o, _ := buf.(*goja.Object)
		var b []byte
		if o != nil {
			b, _ = exportBytes(o)
		}
		if o == nil || b == nil {
			panic(vm.NewTypeError(`The "buffer" argument must be an instance of Buffer, TypedArray, or DataView.`))
		}
		if opts, ok := offset.(*goja.Object); ok { // readSync(fd, buffer, {offset, length, position})
			offset, length, pos = opts.Get("offset"), opts.Get("length"), opts.Get("position")
		}
		b = f.span(b, offset, length)
		var got int
		var err error
		if p := position(pos); p >= 0 {
			got, err = file.ReadAt(b, p)
		} else {
			got, err = file.Read(b)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			panic(f.fdError(err, "read"))
		}
		return got
	})
	set("writeSync", func(v, data, a, b, c goja.Value) int {
		file := f.file(v, "write")
		var p []byte
		var pos int64
		if _, ok := data.(goja.String); ok {
			p = decodeString(data, codecOf(f.r, encodingOf(vm, b)))
			pos = position(a)
		} else {
			o, _ := data.(*goja.Object)
			if o != nil {
				p, _ = exportBytes(o)
			}
			if p == nil {
				panic(vm.NewTypeError(`The "buffer" argument must be of type string or an instance of Buffer, TypedArray, or DataView.`))
			}
			p, pos = f.span(p, a, b), position(c)
		}
		var n int
		var err error
		if pos >= 0 {
			n, err = file.WriteAt(p, pos)
		} else {
			n, err = file.Write(p)
		}
		if err != nil {
			panic(f.fdError(err, "write"))
		}
		return n
	})
	set("fstatSync", func(v goja.Value) *goja.Object {
		fi, err := f.file(v, "fstat").Stat()
		if err != nil {
			panic(f.fdError(err, "fstat"))
		}
		return f.stats(fi)
	})
	for _, name := range []string{"fsync", "fdatasync"} {
		set(name+"Sync", func(v goja.Value) {
			if err := f.file(v, name).Sync(); err != nil {
				panic(f.fdError(err, name))
			}
		})
	}
	set("ftruncateSync", func(v, n goja.Value) {
		size := int64(0)
		if n != nil && !goja.IsUndefined(n) {
			size = n.ToInteger()
		}
		if err := f.file(v, "ftruncate").Truncate(size); err != nil {
			panic(f.fdError(err, "ftruncate"))
		}
	})
}
