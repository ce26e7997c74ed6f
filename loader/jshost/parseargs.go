package jshost

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/dop251/goja"
)

// begin starts a call on the runtime: the module's parseArgs first when it
// exports one (SPEC-beyond §1.5), then the Check hook, then execute. All of
// it is one piece of work under the call's guard and deadline, on the
// context object execute gets too.
func (w *worker) begin(cctx context.Context, g *guard, args json.RawMessage, cc CallContext, st *argsStep) (goja.Value, *callContext, error) {
	if w.parseArgs == nil {
		return w.start(args, cc)
	}
	c := w.newCallContext(cc)
	// parseArgs gets a copy of its own: what it changes in place does not
	// reach execute unless it returns it.
	argsCopy, err := w.parseArgsJSON(args)
	if err != nil {
		return nil, c, err
	}
	v, err := w.parseArgs(w.export, argsCopy, c.obj)
	if err == nil {
		if pr, ok := asPromise(v); ok {
			v, err = w.await(cctx, g, pr, c)
		}
	}
	if cctx.Err() != nil {
		return nil, c, &notExecuted{}
	}
	if err != nil {
		var ex *goja.Exception
		var rej *rejection
		if !errors.As(err, &ex) && !errors.As(err, &rej) {
			return nil, c, err // an interrupt: the runtime goes
		}
		return nil, c, st.reject(st.parseArgsFailed(errorText(w.vm, err)))
	}

	var argv goja.Value
	checked := args
	switch {
	case v == nil || goja.IsUndefined(v):
		if argv, err = w.parseArgsJSON(args); err != nil {
			return nil, c, err
		}
	case isArgsObject(w.vm, v):
		s, err := w.jsonStringify(goja.Undefined(), v)
		if err != nil {
			return nil, c, st.reject(st.parseArgsFailed(errorText(w.vm, err)))
		}
		argv, checked = v, json.RawMessage(s.String())
	default:
		return nil, c, st.reject(st.parseArgsFailed(fmt.Sprintf(
			"parseArgs returned %s, not an object: return the arguments object, or nothing to keep them", valueKind(w.vm, v))))
	}
	if err := st.check(checked); err != nil {
		return nil, c, st.reject(err)
	}
	if cctx.Err() != nil {
		return nil, c, &notExecuted{}
	}
	v, err = w.execute(w.export, argv, c.obj)
	return v, c, err
}

// isArgsObject tells an object literal (or Object.create(null)) from
// arrays, functions and class instances.
func isArgsObject(vm *goja.Runtime, v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	if _, fn := goja.AssertFunction(o); fn {
		return false
	}
	proto := o.Prototype()
	return proto == nil || proto == vm.Get("Object").ToObject(vm).Get("prototype")
}

// valueKind names what parseArgs returned, for its error: array, string,
// null, number, boolean, function, or the class of an object.
func valueKind(vm *goja.Runtime, v goja.Value) string {
	switch {
	case goja.IsNull(v):
		return "null"
	}
	o, ok := v.(*goja.Object)
	if !ok {
		switch v.ExportType().Kind().String() {
		case "string":
			return "string"
		case "bool":
			return "boolean"
		case "int64", "float64":
			return "number"
		}
		return v.ExportType().String()
	}
	if _, fn := goja.AssertFunction(o); fn {
		return "function"
	}
	if o.ClassName() == "Array" {
		return "array"
	}
	if ctor, ok := o.Get("constructor").(*goja.Object); ok {
		if name := ctor.Get("name"); name != nil && name.String() != "" {
			return "a " + name.String()
		}
	}
	return "an object"
}
