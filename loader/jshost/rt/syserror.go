package rt

import (
	"errors"
	"strings"
	"syscall"

	"github.com/dop251/goja"
	"golang.org/x/sys/unix"
)

// SysError is Node's (and Bun's) error for a failed file operation:
// "ENOENT: no such file or directory, open '<path>'" with code, errno,
// syscall and path. An error that carries no errno is EIO.
func (r *Runtime) SysError(err error, syscallName, path string) *goja.Object {
	code, text, num := "EIO", err.Error(), -int(syscall.EIO)
	var errno syscall.Errno
	if errors.As(err, &errno) {
		code, text, num = ErrnoName(errno), errno.Error(), -int(errno)
	}
	return r.NodeError(code, num, code+": "+text+", "+syscallName+" '"+path+"'", syscallName, path)
}

// ErrnoName is the errno's name as Node gives it in code ("ENOENT").
func ErrnoName(e syscall.Errno) string {
	switch e {
	case syscall.ECONNREFUSED:
		return "ECONNREFUSED"
	case syscall.ECONNRESET:
		return "ECONNRESET"
	case syscall.EHOSTUNREACH:
		return "EHOSTUNREACH"
	case syscall.ENETUNREACH:
		return "ENETUNREACH"
	case syscall.ETIMEDOUT:
		return "ETIMEDOUT"
	case syscall.EPIPE:
		return "EPIPE"
	case syscall.ENOENT:
		return "ENOENT"
	case syscall.EEXIST:
		return "EEXIST"
	case syscall.ENOTDIR:
		return "ENOTDIR"
	case syscall.EISDIR:
		return "EISDIR"
	case syscall.EACCES:
		return "EACCES"
	case syscall.EPERM:
		return "EPERM"
	case syscall.ENOTEMPTY:
		return "ENOTEMPTY"
	case syscall.EXDEV:
		return "EXDEV"
	case syscall.ENOSPC:
		return "ENOSPC"
	}
	if name := unix.ErrnoName(e); name != "" {
		return name
	}
	return "E" + strings.ToUpper(strings.ReplaceAll(e.Error(), " ", "_"))
}
