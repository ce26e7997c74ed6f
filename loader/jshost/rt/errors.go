package rt

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dop251/goja"
)

// ErrorText is the message of a JS error: an Error's message, a thrown
// string as is, another value's string form (JSON for plain objects).
func ErrorText(vm *goja.Runtime, err error) string {
	var ex *goja.Exception
	if errors.As(err, &ex) {
		return ValueText(vm, ex.Value())
	}
	var so *goja.StackOverflowError
	if errors.As(err, &so) {
		return "RangeError: Maximum call stack size exceeded"
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		if e, ok := ie.Value().(error); ok {
			return e.Error()
		}
		return fmt.Sprint(ie.Value())
	}
	return FirstLine(err.Error())
}

// ValueText is the message of a thrown value (see ErrorText).
func ValueText(vm *goja.Runtime, v goja.Value) string {
	if v == nil || goja.IsUndefined(v) {
		return "undefined"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		return v.String()
	}
	if IsError(vm, o) {
		msg := o.Get("message")
		if msg != nil && !goja.IsUndefined(msg) && msg.String() != "" {
			return msg.String()
		}
		return o.String()
	}
	if ts := o.Get("toString"); ts != nil && ts != vm.Get("Object").ToObject(vm).Get("prototype").ToObject(vm).Get("toString") {
		if s := o.String(); s != "[object Object]" {
			return s
		}
	}
	if b, err := o.MarshalJSON(); err == nil {
		return string(b)
	}
	return o.String()
}

// IsError tells an Error (or an object with a string message).
func IsError(vm *goja.Runtime, o *goja.Object) bool {
	ctor, _ := vm.Get("Error").(*goja.Object)
	if ctor != nil && vm.InstanceOf(o, ctor) {
		return true
	}
	msg := o.Get("message")
	if msg == nil {
		return false
	}
	_, hasMsg := msg.Export().(string)
	return hasMsg
}

// FirstLine is s up to its first line break.
func FirstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
