package executor

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// vproject is a release for the validation tests: the reference's
// lookup_order (it writes a file when execute runs), an echo with optional
// properties, a parseArgs that coerces, a 1 ms tool, a schema that does not
// compile, and the builtin memory.
func vproject() map[string]string {
	return map[string]string{
		"beeuni.yaml": `tools:
  memory: beeuni:memory
  lookup_order: tools/lookup_order.ts
  opt: tools/opt.ts
  coerce: tools/coerce.ts
  quick: tools/quick.ts
  remote: tools/remote.ts
agents:
  beeuni:
    tools: all
`,
		"tools/lookup_order.ts": `import { writeFileSync } from 'node:fs'
export default {
  description: 'Look up an order.',
  parameters: { type: 'object', properties: { id: { type: 'string' }, include_items: { type: 'boolean' } }, required: ['id'] },
  execute(args: { id: string }, context: { directory: string }) {
    writeFileSync(context.directory + '/called-' + args.id, '')
    return 'order ' + args.id
  },
}
`,
		"tools/opt.ts": `export default {
  description: 'Echo, with optional properties.',
  parameters: { type: 'object', properties: { need: { type: 'string' }, path: { type: 'string' }, line: { type: 'integer' }, nul: { type: ['string', 'null'] } }, required: ['need'] },
  execute(args: Record<string, unknown>) { return JSON.stringify(args) },
}
`,
		"tools/coerce.ts": `export default {
  description: 'Coerce order_id to a number.',
  parameters: { type: 'object', properties: { order_id: { type: 'integer' } }, required: ['order_id'] },
  parseArgs(args: { order_id: unknown }) { if (args.order_id === 'undefined') return; return { order_id: Number(args.order_id) } },
  execute(args: { order_id: number }) { return typeof args.order_id + ' ' + args.order_id },
}
`,
		"tools/quick.ts": `export default {
  description: 'Has 1 ms.',
  timeout: 1,
  parameters: { type: 'object', properties: { items: { type: 'array', items: { type: 'integer' } } } },
  execute() { return 'ran' },
}
`,
		"tools/remote.ts": `export default {
  description: 'Its schema refers to another document.',
  parameters: { type: 'object', properties: { a: { $ref: 'https://example.com/s.json' } } },
  execute() { return 'ran' },
}
`,
	}
}

func TestValidateEnforce(t *testing.T) {
	e := start(t, Options{ValidateArgs: ValidateEnforce})
	ts := e.switchTo("v1", vproject())
	called := func(id string) bool {
		_, err := os.Stat(filepath.Join(ts.Dir(), "called-"+id))
		return err == nil
	}

	// §1.7 test 1: the exact text, and execute not called.
	r := e.mustDo("POST", "/beeuni/tools/lookup_order", `{}`)
	var cr CallResponse
	if err := json.Unmarshal(r.body, &cr); err != nil || r.status != http.StatusOK {
		t.Fatalf("%d %s", r.status, r.body)
	}
	want := "invalid arguments for tool lookup_order: 1 problem; fix them and call again.\n- at (arguments): missing property 'id'\nlookup_order takes: {\"id\": string (required), \"include_items\": boolean}"
	if !cr.IsError || cr.Output != want || cr.Release != "v1" {
		t.Fatalf("answer = %+v, want the message %q", cr, want)
	}
	if len(cr.InvalidArguments) != 1 || cr.InvalidArguments[0].Keyword != "required" || cr.InvalidArguments[0].Path != "" {
		t.Fatalf("invalid_arguments = %+v", cr.InvalidArguments)
	}
	// The field is in the JSON only on this failure.
	if !strings.Contains(string(r.body), `"invalid_arguments":[{"path":"","keyword":"required","message":"missing property 'id'"}]`) {
		t.Fatalf("body = %s", r.body)
	}
	if called("undefined") {
		t.Fatal("execute ran for rejected arguments")
	}
	if r := e.call("lookup_order", `{"id":"A7"}`); r.IsError || r.Output != "order A7" || r.InvalidArguments != nil || !called("A7") {
		t.Fatalf("valid call = %+v", r)
	}
	if body := e.mustDo("POST", "/beeuni/tools/lookup_order", `{"id":"A8"}`).body; strings.Contains(string(body), "invalid_arguments") {
		t.Fatalf("invalid_arguments on success: %s", body)
	}
	// Two problems, the type one at its path.
	if r := e.call("lookup_order", `{"include_items":"yes"}`); !strings.Contains(r.Output, "2 problems") || !strings.Contains(r.Output, `- at "/include_items": got string, want boolean`) {
		t.Fatalf("two problems = %q", r.Output)
	}

	// §1.7 test 6: null for an optional property is absent; for a required one it fails.
	if r := e.call("opt", `{"need":"x","path":null,"line":null,"nul":null}`); r.IsError || r.Output != `{"need":"x","nul":null}` {
		t.Fatalf("nulls for optional = %+v", r)
	}
	if r := e.call("opt", `{"need":null}`); !r.IsError || !strings.Contains(r.Output, `- at "/need": got null, want string`) {
		t.Fatalf("null for required = %+v", r)
	}
	if r := e.call("memory", `{"command":"view","path":"memory","file_text":null,"insert_line":null}`); r.IsError {
		t.Fatalf("memory with nulls = %+v", r)
	}
	// §3.7 test 5: a strict-rendered memory call round-trips.
	if r := e.call("memory", `{"command":"view","path":"memory","file_text":null,"old_str":null,"new_str":null,"insert_line":null,"insert_text":null,"old_path":null,"new_path":null}`); r.IsError {
		t.Fatalf("strict memory call = %+v", r)
	}
	// §1.7 test 3 through the route.
	if r := e.call("memory", `{"command":"list"}`); !strings.Contains(r.Output, `- at "/command": value must be one of 'view', 'create', 'str_replace', 'insert', 'delete', 'rename'`) {
		t.Fatalf("memory enum = %q", r.Output)
	}

	// §1.7 test 7: parseArgs coerces before validation; undefined keeps the args.
	if r := e.call("coerce", `{"order_id":"42"}`); r.IsError || r.Output != "number 42" {
		t.Fatalf("coerce = %+v", r)
	}
	if r := e.call("coerce", `{"order_id":"undefined"}`); !r.IsError || !strings.Contains(r.Output, `- at "/order_id": got string, want integer`) {
		t.Fatalf("coerce keeping args = %+v", r)
	}

	// §1.7 test 5: duplicate keys, one problem naming the key.
	if r := e.call("opt", `{"need":"A","need":"B"}`); !r.IsError || !strings.Contains(r.Output, `- at (arguments): key "need" appears more than once; send each key once`) {
		t.Fatalf("duplicate = %+v", r)
	}

	// §1.7 test 16: checking a large body counts against the 1 ms deadline.
	items := strings.Repeat("1,", 100000)
	if r := e.call("quick", `{"items":[`+items+`1]}`); !r.IsError || r.Output != "tool quick timed out after 1ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Fatalf("quick = %.200s", r.Output)
	}

	// §1.7 test 12: a schema that does not compile: the tool is called unchecked.
	if r := e.call("remote", `{"a":1}`); r.IsError || r.Output != "ran" {
		t.Fatalf("remote = %+v", r)
	}
	if !strings.Contains(e.logs.String(), msgSchemaNotCompiled) || !strings.Contains(e.logs.String(), "tool=remote") {
		t.Fatalf("no record for the schema that did not compile:\n%s", e.logs.String())
	}
	body := e.mustDo("GET", "/beeuni/tools", "").body
	var list ToolList
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	status := map[string]ToolInfo{}
	for _, ti := range list.Tools {
		status[ti.Name] = ti
	}
	if v := status["remote"].Validation; !strings.HasPrefix(v, "off: ") || !strings.Contains(v, "https://example.com/s.json") {
		t.Fatalf("remote validation = %q", v)
	}
	// §2.9 test 15: memory is a barrier; the others are concurrent; each says whether it is validated.
	if status["memory"].Concurrent || !status["opt"].Concurrent || status["opt"].Validation != "on" {
		t.Fatalf("tools = %s", body)
	}
	for _, part := range []string{`"concurrent":false`, `"validation":"on"`} {
		if !strings.Contains(string(body), part) {
			t.Fatalf("GET /beeuni/tools lacks %s: %s", part, body)
		}
	}

	metrics := string(e.mustDo("GET", "/metrics", "").body)
	if !strings.Contains(metrics, `beeuni_executor_calls_total{outcome="invalid_args",tool="lookup_order"} 2`) {
		t.Fatalf("metrics lack invalid_args:\n%s", metrics)
	}
}

func TestValidateWarn(t *testing.T) {
	e := start(t, Options{ValidateArgs: ValidateWarn})
	ts := e.switchTo("v1", vproject())
	// §1.7 test 8: the tool runs; one record with tool, agent, session and paths, no values.
	r := e.call("lookup_order", `{"id":"W1","include_items":"secret-value-123"}`, HeaderAgent, "beeuni", HeaderSession, "s-42")
	if r.IsError || r.Output != "order W1" {
		t.Fatalf("warned call = %+v", r)
	}
	if _, err := os.Stat(filepath.Join(ts.Dir(), "called-W1")); err != nil {
		t.Fatal("execute did not run in warn mode")
	}
	logs := e.logs.String()
	var records []string
	for _, line := range strings.Split(logs, "\n") {
		if strings.Contains(line, msgArgsMismatch) {
			records = append(records, line)
		}
	}
	if len(records) != 1 {
		t.Fatalf("%d records, want 1:\n%s", len(records), logs)
	}
	if !containsAll(records[0], "tool=lookup_order", "agent=beeuni", "session=s-42", "/include_items type") {
		t.Fatalf("record = %s", records[0])
	}
	if strings.Contains(logs, "secret-value-123") {
		t.Fatalf("an argument value reached the log:\n%s", logs)
	}
	// Warn normalizes too (D2), and rejects what parseArgs or duplicates reject.
	if r := e.call("opt", `{"need":"x","path":null}`); r.Output != `{"need":"x"}` {
		t.Fatalf("warn nulls = %+v", r)
	}
	if r := e.call("opt", `{"need":"x","need":"y"}`); !r.IsError || r.InvalidArguments == nil {
		t.Fatalf("warn duplicate = %+v", r)
	}
	metrics := string(e.mustDo("GET", "/metrics", "").body)
	if !strings.Contains(metrics, `beeuni_executor_calls_total{outcome="invalid_args_warned",tool="lookup_order"} 1`) {
		t.Fatalf("metrics lack invalid_args_warned:\n%s", metrics)
	}
}

func TestValidateOff(t *testing.T) {
	for _, mode := range []ValidateMode{ValidateDefault, ValidateOff} {
		t.Run(mode.String(), func(t *testing.T) {
			e := start(t, Options{ValidateArgs: mode})
			e.switchTo("v1", vproject())
			// §1.7 test 9: invalid arguments reach execute unchanged, nulls included (D2).
			if r := e.call("opt", `{"need":3,"path":null,"extra":[1]}`); r.IsError || r.Output != `{"need":3,"path":null,"extra":[1]}` {
				t.Fatalf("off = %+v", r)
			}
			// §1.7 test 5: duplicate keys are refused in every mode.
			if r := e.call("opt", `{"need":"A","need":"B"}`); !r.IsError || len(r.InvalidArguments) != 1 || r.InvalidArguments[0].Keyword != "duplicate_key" {
				t.Fatalf("off duplicate = %+v", r)
			}
			// parseArgs runs in off mode too.
			if r := e.call("coerce", `{"order_id":"5"}`); r.Output != "number 5" {
				t.Fatalf("off coerce = %+v", r)
			}
			if strings.Contains(e.logs.String(), msgArgsMismatch) {
				t.Fatal("off mode logged a mismatch")
			}
		})
	}
}

func TestValidatorReusedAcrossReleases(t *testing.T) {
	// §1.7 test 15, its release half: an unchanged module's schema is
	// compiled once, whatever release loads it.
	e := start(t, Options{})
	a := e.load("r1", vproject())
	defer a.Discard()
	files := vproject()
	files["tools/opt.ts"] += "// a change to another module\n"
	b := e.load("r2", files)
	defer b.Discard()
	if a.validators["lookup_order"] == nil || a.validators["lookup_order"] != b.validators["lookup_order"] {
		t.Fatal("the unchanged module's schema was compiled again")
	}
	if a.validators["opt"] != b.validators["opt"] {
		t.Fatal("a module whose schema did not change compiled its schema again")
	}
	if a.validators["opt"] == a.validators["lookup_order"] {
		t.Fatal("two schemas share one validator")
	}
}

func TestParseValidateMode(t *testing.T) {
	for in, want := range map[string]ValidateMode{"": ValidateDefault, "off": ValidateOff, "warn": ValidateWarn, "enforce": ValidateEnforce} {
		if got, err := ParseValidateMode(in); err != nil || got != want {
			t.Errorf("%q = %v %v", in, got, err)
		}
	}
	if _, err := ParseValidateMode("strict"); err == nil || err.Error() != `unknown mode "strict": use off, warn or enforce` {
		t.Fatalf("strict: %v", err)
	}
	if ValidateDefault.forREST() != ValidateOff || ValidateDefault.forMCP() != ValidateEnforce || ValidateWarn.forMCP() != ValidateEnforce || ValidateOff.forMCP() != ValidateOff {
		t.Fatal("route modes")
	}
}
