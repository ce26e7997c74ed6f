package rt

import "github.com/dop251/goja"

// DOMError makes a DOMException (the global one) with msg and name, or a
// TypeError when the global is gone.
func (r *Runtime) DOMError(msg, name string) *goja.Object {
	vm := r.VM
	o, err := vm.New(vm.Get("DOMException"), vm.ToValue(msg), vm.ToValue(name))
	if err != nil {
		return vm.NewTypeError(msg)
	}
	return o
}

// Uint8Array wraps data (no copy) in a Uint8Array.
func (r *Runtime) Uint8Array(data []byte) goja.Value {
	vm := r.VM
	o, err := vm.New(vm.Get("Uint8Array"), vm.ToValue(vm.NewArrayBuffer(data)))
	if err != nil {
		panic(err)
	}
	return o
}
