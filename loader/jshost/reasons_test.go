package jshost

import (
	"strings"
	"testing"
)

// TestLoadReasons: a module that is not a tool gets a reason that names
// what was found and what to write instead; an error at import names the
// line of the file the user wrote (through the bundle's source map).
func TestLoadReasons(t *testing.T) {
	form := "write `export default { description, parameters, execute(args, context) { ... } }`"
	cases := []struct{ name, src, want string }{
		{"str", "export default 'hello'\n", `the default export is a string ("hello"): ` + form},
		{"num", "export default 42\n", "the default export is a number (42): " + form},
		{"null", "export default null\n", "the default export is null: " + form},
		{"arr", "export default [1, 2]\n", "the default export is an array: " + form},
		{"bool", "export default false\n", "the default export is a boolean (false): " + form},
		{"err", "export default new Error('x')\n", "the default export is an Error: " + form},
		{"date", "export default new Date(0)\n", "the default export is a Date: " + form},
		{"cjsstr", "module.exports = 'x'.repeat(50)\n", `the default export is a string ("xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."): ` + form},
		{"promise", "export default Promise.resolve({})\n", "the default export is a promise (await it in execute, not at import): " + form},
		{"fn", "export default function (args: any) { return 'x' }\n", "the default export is a function: a tool is an object, `export default { description, parameters, execute(args, context) { ... } }`, with the function as its execute"},
		{"arrow", "export default async () => 'x'\n", "the default export is a function: a tool is an object, `export default { description, parameters, execute(args, context) { ... } }`, with the function as its execute"},
		{"cls", "export default class Tool { execute() {} }\n", "the default export is a function: a tool is an object, `export default { description, parameters, execute(args, context) { ... } }`, with the function as its execute"},
		{"named", "export const description = 'x'\nexport function execute() {}\n", "no default export (the module exports description, execute): " + form},
		{"empty", "const x = 1\n", "no default export: " + form},
		{"zod4", "export default { description: 'd', parameters: { _zod: { def: { type: 'object' } }, type: 'object' }, execute() {} }\n",
			"parameters is a zod schema, not JSON Schema: the model reads JSON Schema, so write `parameters: z.toJSONSchema(yourSchema)` (zod 4)"},
		{"zod3", "export default { description: 'd', parameters: { _def: { typeName: 'ZodObject' }, safeParse() {} }, execute() {} }\n",
			"parameters is a zod schema, not JSON Schema: the model reads JSON Schema, so write `parameters: z.toJSONSchema(yourSchema)` (zod 4)"},
		{"valibot", "export default { description: 'd', parameters: { kind: 'schema', type: 'object', '~standard': { vendor: 'valibot' }, '~run'() {} }, execute() {} }\n",
			"parameters is a valibot schema, not JSON Schema: the model reads JSON Schema, so convert it (e.g. with valibot's JSON Schema converter) or write the JSON Schema itself"},
		{"opencode", "const tool = (t: any) => t\nexport default tool({ description: 'd', args: { q: {} }, async execute(args: any) { return args.q } })\n",
			"the default export is an opencode tool({ description, args, execute }), which only the default runtime loads, from harnesses/opencode/tools/: " +
				"replace `tool({ description, args, execute })` with a plain object whose `parameters` is JSON Schema, read secrets from `context.env`, and declare it under `tools:`"},
		// Errors at import, where the user wrote them, as Node points at
		// them (an Error where it is made): types that esbuild drops move
		// every line after them in the bundle.
		{"thrown", "interface A {\n  a: number\n}\ntype B = string\nconst x: A = { a: 1 }\n  throw new Error('at line 6 ' + x.a)\n",
			"error at import: tools/thrown.ts:6:9: at line 6 1"},
		{"json", "type T = { a: number }\nconst cfg: T =\n  JSON.parse('{bad')\nexport default cfg\n",
			"error at import: tools/json.ts:3:8: Expected property name or '}' in JSON at position 1"},
		{"str_thrown", "type T = 1\n\nthrow 'plain words'\n", "error at import: tools/str_thrown.ts:3:1: plain words"},
		{"inlib", "import { boom } from '../lib/boom'\ntype T = 1\nboom()\n", "error at import: lib/boom.ts:4:9: from the library"},
		{"inpkg", "import 'bad-pkg'\n", "error at import: node_modules/bad-pkg/index.js:2:11: Cannot read property 'x' of undefined"},
		{"metaline", "'use strict'; const u = import.meta.url; throw new Error('after the prefix')\n", "error at import: tools/metaline.ts:1:48: after the prefix"},
		{"typeerr", "const o: any = undefined\nexport default { description: o.x }\n", "error at import: tools/typeerr.ts:2:33: Cannot read property 'x' of undefined"},
		{"tla", "await Promise.resolve(1)\n" + tool("execute() {}"),
			"tools/tla.ts:1:1: Top-level await is not supported in tool modules: move the awaited work into execute(), or into a promise created at import and awaited in execute()"},
	}
	files := map[string]string{
		"lib/boom.ts":                   "interface X {}\ntype Y = X\nexport function boom(): never {\n  throw new Error('from the library')\n}\n",
		"node_modules/bad-pkg/index.js": "var o\nvar y = o.x\nmodule.exports = y\n",
	}
	var paths []string
	for _, c := range cases {
		files["tools/"+c.name+".ts"] = c.src
		paths = append(paths, "tools/"+c.name+".ts")
	}
	s, _ := loadTools(t, project(t, files), Options{}, paths...)
	got := map[string]string{}
	for _, f := range s.Failures() {
		got[f.Name] = f.Reason
	}
	for _, c := range cases {
		if got[c.name] != c.want {
			t.Errorf("%s:\n got %q\nwant %q", c.name, got[c.name], c.want)
		}
	}
}

// TestCompileErrorPosition: a syntax error goja finds in esbuild's output
// (esbuild accepted it, goja does not) names the line the user wrote. The
// bundle of a real module is spoiled where its own line 4 went.
func TestCompileErrorPosition(t *testing.T) {
	root := project(t, map[string]string{"tools/x.ts": "interface A {\n  a: number\n}\nconst answer = 42\nexport default { answer }\n"})
	h := newHost(withDefaults(Options{Root: root}))
	r, err := h.bundler.Bundle(root, "tools/x.ts")
	if err != nil {
		t.Fatal(err)
	}
	code := strings.Replace(string(r.Code), "answer = 42", "answer = @", 1)
	if code == string(r.Code) {
		t.Fatalf("no `answer = 42` in the bundle:\n%s", r.Code)
	}
	mod := &module{key: r.Key, file: "tools/x.ts"}
	_, err = h.compile(mod, []byte(code))
	if err == nil || !strings.HasPrefix(err.Error(), "tools/x.ts:4:16: SyntaxError: ") {
		t.Fatalf("compile error = %v, want it at tools/x.ts:4:16", err)
	}
}
