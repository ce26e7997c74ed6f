package jshost

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"sync"

	"github.com/dop251/goja"

	"github.com/beeuni/beeuni/loader/jshost/rt"
)

// The default runtime's legacy folder (harnesses/opencode/tools/) loads
// opencode custom tools in their own form, as opencode does:
//
//	import { tool } from '@opencode-ai/plugin'
//	export default tool({ description, args: { q: tool.schema.string() }, execute(args, context) {...} })
//
// tool() returns its input and tool.schema is zod 4. args render to JSON
// Schema, and each call's arguments are parsed through z.object(args)
// (defaults apply; bad arguments get zod's words, as opencode gives them),
// both with the module's own zod: no zod of beeuni's is involved. A zod
// instance does not lead back to its namespace, so the host watches the
// module's import for the helper's `tool.schema = z` (an accessor on
// Function.prototype, there only while the module evaluates).

//go:embed js/opencode.js
var opencodeJS string

var opencodeProgram = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("beeuni:opencode.js", opencodeJS, true)
})

// opencodeTool is the opencode form of one runtime's module.
type opencodeTool struct {
	parameters json.RawMessage
	parse      goja.Callable // args -> parsed args, or throws zod's words
	result     goja.Callable // execute's answer -> the text the model reads
}

// opencodeHelpers are js/opencode.js's functions in this runtime, made
// once.
func (w *worker) opencodeHelpers() (*goja.Object, error) {
	if w.ocJS == nil {
		v, err := w.vm.RunProgram(opencodeProgram())
		if err != nil {
			return nil, err
		}
		w.ocJS = v.ToObject(w.vm)
	}
	return w.ocJS, nil
}

// watchToolSchema records the zod namespaces the module's import assigns
// as a function's schema (the plugin helper's tool.schema) until restore.
func (w *worker) watchToolSchema() (seen *goja.Object, restore func(), err error) {
	js, err := w.opencodeHelpers()
	if err != nil {
		return nil, nil, err
	}
	watch, _ := goja.AssertFunction(js.Get("watchToolSchema"))
	seen = w.vm.NewArray()
	undo, err := watch(goja.Undefined(), seen)
	if err != nil {
		return nil, nil, err
	}
	undoFn, _ := goja.AssertFunction(undo)
	return seen, func() { _, _ = undoFn(goja.Undefined()) }, nil
}

// opencode prepares the opencode form of the evaluated module: its
// parameters and its argument parser, with the zod the import showed.
func (w *worker) opencode(zods *goja.Object) (*opencodeTool, error) {
	js, err := w.opencodeHelpers()
	if err != nil {
		return nil, err
	}
	prepare, _ := goja.AssertFunction(js.Get("prepare"))
	v, err := prepare(goja.Undefined(), w.export, zods, w.vm.ToValue(w.tool))
	if err != nil {
		return nil, errors.New(rt.ErrorText(w.vm, err))
	}
	o := v.ToObject(w.vm)
	raw, err := o.Get("parameters").ToObject(w.vm).MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("args did not render to JSON Schema: %s", rt.FirstLine(err.Error()))
	}
	oc := &opencodeTool{parameters: raw}
	oc.parse, _ = goja.AssertFunction(o.Get("parse"))
	oc.result, _ = goja.AssertFunction(js.Get("result"))
	return oc, nil
}

// opencodeContext adds opencode's ToolContext names to a call's context:
// sessionID, messageID (beeuni has none: ""), abort (context.signal),
// worktree (the checkout, as directory), metadata() (kept nowhere) and
// ask() (granted: beeuni decides who may call a tool before the call).
func (c *callContext) opencodeContext(sessionID string) {
	o := c.obj
	_ = o.Set("sessionID", sessionID)
	_ = o.Set("messageID", "")
	_ = o.Set("worktree", c.w.h.opts.Directory)
	_ = o.Set("abort", c.getSignal(goja.FunctionCall{})) // opencode tools pass it on: no point in making it lazily
	// The helpers were made when the module loaded (w.oc is set).
	js := c.w.ocJS
	_ = o.Set("metadata", js.Get("metadata"))
	_ = o.Set("ask", js.Get("ask"))
}
