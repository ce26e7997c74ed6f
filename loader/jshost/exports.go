package jshost

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dop251/goja"
)

// exportOf is the module's export name: the module namespace's (a named
// export, `export const timeout = 1500`), else the default export's field
// (`export default { timeout: 1500, ... }`); nil when neither has one
// (undefined counts as none). Every module-level setting reads through it.
func (w *worker) exportOf(name string) goja.Value {
	if ns, ok := w.ns.(*goja.Object); ok && ns != w.export {
		if v := ns.Get(name); present(v) {
			return v
		}
	}
	if w.export != nil {
		if v := w.export.Get(name); present(v) {
			return v
		}
	}
	return nil
}

func present(v goja.Value) bool { return v != nil && !goja.IsUndefined(v) }

// isESModule tells an ES module's namespace (esbuild marks it) from a
// CommonJS module.exports, which is itself the default export.
func isESModule(ns *goja.Object) bool {
	if esm := ns.Get("__esModule"); esm != nil && esm.ToBoolean() {
		return true
	}
	return present(ns.Get("default"))
}

func isCallable(o *goja.Object) bool {
	_, ok := goja.AssertFunction(o)
	return ok
}

// isPlainObject tells an object a tool can be (a literal, a class
// instance) from functions, arrays, promises and other built-ins.
func isPlainObject(o *goja.Object) bool {
	return o.ClassName() == "Object" && !isCallable(o) && o.ExportType() != typePromise
}

// objectForm is what every message about the default export shows.
const objectForm = "`export default { description, parameters, execute(args, context) { ... } }`"

// checkDefault says what the default export is when it is not the object
// a tool is, and what to write instead.
func (w *worker) checkDefault() error {
	if w.export != nil {
		if isOpencodeForm(w.export) && w.oc == nil {
			return errors.New(opencodeAdvice)
		}
		return nil
	}
	if !present(w.def) {
		if names := w.namedExports(); len(names) > 0 {
			return fmt.Errorf("no default export (the module exports %s): write %s", strings.Join(names, ", "), objectForm)
		}
		return fmt.Errorf("no default export: write %s", objectForm)
	}
	if o, ok := w.def.(*goja.Object); ok && isCallable(o) {
		return fmt.Errorf("the default export is a function: a tool is an object, %s, with the function as its execute", objectForm)
	}
	return fmt.Errorf("the default export is %s: write %s", kindOf(w.vm, w.def), objectForm)
}

// namedExports are the first names a module without a default exports.
func (w *worker) namedExports() []string {
	ns, ok := w.ns.(*goja.Object)
	if !ok {
		return nil
	}
	var names []string
	for _, k := range ns.Keys() {
		if k == "__esModule" {
			continue
		}
		if len(names) == 5 {
			return append(names, "...")
		}
		names = append(names, k)
	}
	return names
}

// kindOf names a JS value for a message: `a string ("hello")`, `a number
// (-5)`, `null`, `an array`.
func kindOf(vm *goja.Runtime, v goja.Value) string {
	switch {
	case !present(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	switch x := v.Export().(type) {
	case string:
		if len(x) > 40 {
			x = x[:37] + "..."
		}
		return "a string (" + strconv.Quote(x) + ")"
	case bool:
		return fmt.Sprintf("a boolean (%v)", x)
	case int64, float64:
		return "a number (" + v.String() + ")"
	}
	o, ok := v.(*goja.Object)
	switch {
	case !ok:
		if _, sym := v.(*goja.Symbol); sym {
			return "a symbol"
		}
		return "a bigint (" + v.String() + "n)"
	case isCallable(o):
		return "a function"
	case o.ExportType() == typePromise:
		return "a promise (await it in execute, not at import)"
	case o.ClassName() == "Object":
		return "an object"
	case o.ClassName() == "Array":
		return "an array"
	}
	if cn := o.ClassName(); cn != "" && strings.ContainsRune("AEIOU", rune(cn[0])) {
		return "an " + cn
	}
	return "a " + o.ClassName()
}

// isOpencodeForm tells opencode's tool({ description, args, execute })
// (its helper returns its input) from the reference's object: args and
// no parameters.
func isOpencodeForm(o *goja.Object) bool {
	args, ok := o.Get("args").(*goja.Object)
	return ok && args != nil && !present(o.Get("parameters"))
}

// opencodeAdvice is the reference's conversion advice, for the opencode
// form anywhere but the default runtime's legacy folder.
const opencodeAdvice = "the default export is an opencode tool({ description, args, execute }), which only the default runtime loads, from harnesses/opencode/tools/: " +
	"replace `tool({ description, args, execute })` with a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`"

// isSchemaLibrary tells a schema object of a validation library (zod 4 by
// its _zod, zod 3 by its safeParse, valibot by its ~run) from JSON Schema.
// (zod 4's toJSONSchema answers JSON Schema that carries a "~standard" of
// its own: that alone says nothing.)
func isSchemaLibrary(o *goja.Object) bool {
	if present(o.Get("_zod")) {
		return true
	}
	if _, parses := goja.AssertFunction(o.Get("safeParse")); parses {
		return true
	}
	return present(o.Get("~standard")) && present(o.Get("~run"))
}

// schemaLibraryAdvice says how to turn such a schema into JSON Schema.
func schemaLibraryAdvice(o *goja.Object) string {
	vendor := "zod"
	if std, ok := o.Get("~standard").(*goja.Object); ok {
		if v := std.Get("vendor"); present(v) {
			vendor = v.String()
		}
	}
	if vendor == "zod" {
		return "parameters is a zod schema, not JSON Schema: the model reads JSON Schema, so write `parameters: z.toJSONSchema(yourSchema)` (zod 4)"
	}
	return fmt.Sprintf("parameters is a %s schema, not JSON Schema: the model reads JSON Schema, so convert it (e.g. with %s's JSON Schema converter) or write the JSON Schema itself", vendor, vendor)
}

// The optional exports of SPEC-beyond §0 besides timeout: parseArgs,
// concurrent and maxResultChars, read through exportOf; null means not
// given. A wrong type fails the load with the reason below.
var (
	errParseArgsType      = errors.New("parseArgs must be a function: parseArgs(args, context) returns the arguments to use, or nothing to keep them")
	errConcurrentType     = errors.New("concurrent must be true or false: false makes the tool a barrier in batch calls")
	errMaxResultCharsType = errors.New("maxResultChars must be a positive whole number of characters")
)

// givenExport is exportOf, with null as not given.
func (w *worker) givenExport(name string) goja.Value {
	if v := w.exportOf(name); v != nil && !goja.IsNull(v) {
		return v
	}
	return nil
}

// describeOptional reads parseArgs, concurrent and maxResultChars into m.
func (w *worker) describeOptional(m *meta) error {
	m.concurrent = true
	if v := w.givenExport("parseArgs"); v != nil {
		if _, ok := goja.AssertFunction(v); !ok {
			return errParseArgsType
		}
		m.hasParseArgs = true
	}
	if v := w.givenExport("concurrent"); v != nil {
		b, ok := v.Export().(bool)
		if !ok {
			return errConcurrentType
		}
		m.concurrent = b
	}
	if v := w.givenExport("maxResultChars"); v != nil {
		var n float64
		switch x := v.Export().(type) {
		case int64:
			n = float64(x)
		case float64:
			n = x
		default:
			return errMaxResultCharsType
		}
		if n < 1 || n != math.Trunc(n) || n > math.MaxInt32 {
			return errMaxResultCharsType
		}
		m.maxResultChars = int(n)
	}
	return nil
}
