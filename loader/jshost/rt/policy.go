package rt

import (
	"errors"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/policy"
)

// errnoEACCES is Node's errno of EACCES (negative, as libuv reports it).
const errnoEACCES = -13

// Path asks the host's policy for access a to path (absolute, or taken
// from the checkout) on behalf of syscall ("open", "stat", "mkdir", ...)
// and returns the resolved path to act on. A refusal throws Node's
// EACCES error (code, errno, syscall, path). Every binding that touches a
// file calls it first and then uses only what it returns.
func (r *Runtime) Path(path string, a policy.Access, syscall string) string {
	got, err := r.Host.Policy.Check(path, a)
	if err != nil {
		var pe *policy.Error
		if errors.As(err, &pe) {
			panic(r.NodeError("EACCES", errnoEACCES, pe.Message(syscall), syscall, pe.Path))
		}
		panic(r.NodeError("EACCES", errnoEACCES, err.Error(), syscall, path))
	}
	return got
}

// NodeError makes Node's system error: an Error with code, errno,
// syscall and path (the last ones left out when empty or zero).
func (r *Runtime) NodeError(code string, errno int, msg, syscall, path string) *goja.Object {
	vm := r.VM
	e, err := vm.New(vm.Get("Error"), vm.ToValue(msg))
	if err != nil {
		e = vm.NewGoError(errors.New(msg))
	}
	_ = e.Set("code", code)
	if errno != 0 {
		_ = e.Set("errno", errno)
	}
	if syscall != "" {
		_ = e.Set("syscall", syscall)
	}
	if path != "" {
		_ = e.Set("path", path)
	}
	return e
}
