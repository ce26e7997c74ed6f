package schema_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/beeuni/beeuni/loader/schema"
)

// message validates args against params the way an enforcing route does
// (normalize, then validate) and returns the §1.6 text ("" when valid).
func message(tb testing.TB, tool, params, args string) string {
	tb.Helper()
	v := schema.Compile([]byte(params))
	if err := v.Err(); err != nil {
		tb.Fatalf("compile %s: %v", params, err)
	}
	norm, probs := v.Normalize([]byte(args))
	if len(probs) == 0 {
		probs = v.Validate(norm)
	}
	if len(probs) == 0 {
		return ""
	}
	return schema.Message(tool, v.Signature(), probs)
}

// §1.7 tests 1-4, 10, 11: the message and the problem lines.
func TestValidateMessages(t *testing.T) {
	memory := string(builtinTool(t, "memory").Parameters)
	nested := `{"type":"object","properties":{"items":{"type":"array","items":{"type":"object","properties":{"name":{"type":"string"}}}}}}`
	closed := `{"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false}`
	open := `{"type":"object","properties":{"a":{"type":"string"}}}`
	tuple := `"properties":{"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":[{"type":"string"},{"type":"integer"}]}}`
	draft7 := `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object",` + tuple + `}`
	draft2020 := `{"type":"object","properties":{"pair":{"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}]}}}`
	lookahead := `{"type":"object","properties":{"code":{"type":"string","pattern":"^(?=.*\\d)"}}}`
	anyOf := `{"type":"object","properties":{"v":{"anyOf":[{"type":"object","properties":{"n":{"type":"integer"}}},{"type":"string"}]}}}`
	cases := []struct {
		name, tool, params, args string
		want                     string // the whole message, or a line it holds when contains is set
		contains                 bool
	}{
		{"1 missing required", "lookup_order", lookupOrder, `{}`,
			"invalid arguments for tool lookup_order: 1 problem; fix them and call again.\n- at (arguments): missing property 'id'\nlookup_order takes: {\"id\": string (required), \"include_items\": boolean}", false},
		{"1 the SPEC example", "lookup_order", lookupOrder, `{"include_items":"yes"}`,
			"invalid arguments for tool lookup_order: 2 problems; fix them and call again.\n- at (arguments): missing property 'id'\n- at \"/include_items\": got string, want boolean\nlookup_order takes: {\"id\": string (required), \"include_items\": boolean}", false},
		{"1 valid", "lookup_order", lookupOrder, `{"id":"A-1042"}`, "", false},
		{"2 type error at depth", "t", nested, `{"items":[{"name":3}]}`, "\n- at \"/items/0/name\": got number, want string\n", true},
		{"3 enum", "memory", memory, `{"command":"list"}`,
			"\n- at \"/command\": value must be one of 'view', 'create', 'str_replace', 'insert', 'delete', 'rename'\n", true},
		{"4 additionalProperties false", "t", closed, `{"a":"x","b":1}`, "\n- at (arguments): additional properties 'b' not allowed\n", true},
		{"4 open by default", "t", open, `{"a":"x","b":1}`, "", false},
		{"10 draft-07 tuple items", "t", draft7, `{"pair":["a","b"]}`, "\n- at \"/pair/1\": got string, want integer\n", true},
		{"10 draft-07 ignores prefixItems", "t", strings.Replace(draft7, `"items":[{"type":"string"},{"type":"integer"}]`, `"items":{}`, 1), `{"pair":["a","b"]}`, "", false},
		{"10 no $schema is 2020-12", "t", draft2020, `{"pair":["a","b"]}`, "\n- at \"/pair/1\": got string, want integer\n", true},
		{"11 lookahead pattern applies", "t", lookahead, `{"code":"abc"}`, "\n- at \"/code\": 'abc' does not match pattern '^(?=.*\\\\d)'\n", true},
		{"11 lookahead pattern passes", "t", lookahead, `{"code":"ab1"}`, "", false},
		{"anyOf names the first branch's deepest problem", "t", anyOf, `{"v":{"n":"x"}}`,
			"\n- at \"/v\": does not match any of the allowed shapes\n  - at \"/v/n\": got string, want integer\n", true},
		{"const", "t", `{"type":"object","properties":{"k":{"const":"x"}}}`, `{"k":"y"}`, "\n- at \"/k\": value must be 'x'\n", true},
		{"not", "t", `{"type":"object","properties":{"k":{"not":{"type":"string"}}}}`, `{"k":"y"}`, "\n- at \"/k\": not allowed here\n", true},
		{"minLength", "t", `{"type":"object","properties":{"k":{"minLength":3}}}`, `{"k":"y"}`, "\n- at \"/k\": minLength: got 1, want 3\n", true},
		{"dependentRequired", "t", `{"type":"object","dependentRequired":{"a":["b"]}}`, `{"a":1}`, "\n- at (arguments): properties 'b' required, if 'a' exists\n", true},
		{"uniqueItems", "t", `{"type":"object","properties":{"k":{"uniqueItems":true}}}`, `{"k":[1,2,1]}`, "\n- at \"/k\": items at 0 and 2 are equal\n", true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := message(t, tc.tool, tc.params, tc.args)
			if tc.contains && !strings.Contains(got, tc.want) || !tc.contains && got != tc.want {
				t.Fatalf("message:\n%s\nwant (contains=%v):\n%s", got, tc.contains, tc.want)
			}
		})
	}
}

// §1.7 test 5: a duplicate key is rejected whatever the schema, even with
// no Validator (off mode) or one that did not compile.
func TestDuplicateKeys(t *testing.T) {
	args := []byte(`{"id":"A","nested":{"k":1,"k":2},"id":"B"}`)
	want := []schema.Problem{
		{Path: "", Keyword: "duplicate_key", Message: `key "id" appears more than once; send each key once`},
		{Path: "/nested", Keyword: "duplicate_key", Message: `key "k" appears more than once; send each key once`},
	}
	check := func(name string, got []schema.Problem) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: %+v, want %+v", name, got, want)
		}
	}
	check("DuplicateKeys (off)", schema.DuplicateKeys(args))
	var none *schema.Validator
	_, p := none.Normalize(args)
	check("nil Validator", p)
	_, p = schema.Compile([]byte(lookupOrder)).Normalize(args)
	check("compiled", p)
	broken := schema.Compile([]byte(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`))
	_, p = broken.Normalize(args)
	check("did not compile", p)
	// An escaped spelling is the same key.
	if p := schema.DuplicateKeys([]byte(`{"id":1,"i\u0064":2}`)); len(p) != 1 {
		t.Errorf("escaped duplicate: %+v", p)
	}
	msg := schema.Message("lookup_order", schema.Signature([]byte(lookupOrder)), schema.DuplicateKeys([]byte(`{"id":"A","id":"B"}`)))
	if !strings.Contains(msg, "\n- at (arguments): key \"id\" appears more than once; send each key once\n") {
		t.Errorf("message: %s", msg)
	}
}

// §1.7 test 6: null for an optional property is removed; for a required
// one it stays and fails.
func TestNullForOptional(t *testing.T) {
	v := schema.Compile(builtinTool(t, "memory").Parameters)
	out, probs := v.Normalize([]byte(`{"command":"view","path":"memory","file_text":null,"insert_line":null}`))
	if len(probs) > 0 {
		t.Fatalf("normalize: %+v", probs)
	}
	if string(out) != `{"command":"view","path":"memory"}` {
		t.Fatalf("normalized %s", out)
	}
	if p := v.Validate(out); p != nil {
		t.Fatalf("validate: %+v", p)
	}
	out, _ = v.Normalize([]byte(`{"command":null}`))
	if p := v.Validate(out); len(p) != 1 || p[0].Message != "got null, want string" || p[0].Path != "/command" {
		t.Fatalf("required null: %+v", p)
	}
	// §3.7 test 5: every optional memory key null, as openai-strict sends them.
	strict := `{"command":"view","path":"memory","file_text":null,"old_str":null,"new_str":null,"insert_line":null,"insert_text":null,"old_path":null,"new_path":null}`
	out, _ = v.Normalize([]byte(strict))
	if string(out) != `{"command":"view","path":"memory"}` || v.Validate(out) != nil {
		t.Fatalf("strict round trip: %s %+v", out, v.Validate(out))
	}
	// Nothing to remove: the same bytes come back.
	in := []byte(`{"command": "view",  "path": "memory"}`)
	if out, _ := v.Normalize(in); &out[0] != &in[0] {
		t.Errorf("unchanged arguments were copied")
	}

	deep := schema.Compile([]byte(`{"type":"object","properties":{
		"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"},"b":{"type":["string","null"]}},"required":["x"]}},
		"ref":{"$ref":"#/$defs/r"},
		"alt":{"anyOf":[{"type":"object","properties":{"z":{"type":"string"}}}]}},
		"$defs":{"r":{"type":"object","properties":{"q":{"type":"integer"}}}}}`))
	out, _ = deep.Normalize([]byte(`{"list":[{"a":null,"b":null,"x":null}],"ref":{"q":null},"alt":{"z":null}}`))
	// a: optional, rejects null -> removed; b accepts null -> kept; x required -> kept;
	// through $ref resolved -> removed; inside anyOf ambiguous -> kept.
	if want := `{"list":[{"b":null,"x":null}],"ref":{},"alt":{"z":null}}`; string(out) != want {
		t.Fatalf("deep normalize: %s, want %s", out, want)
	}
}

// §1.7 test 12: a remote $ref leaves the tool unvalidated with a reason,
// and nothing is fetched.
func TestRemoteRefNotFetched(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte(`{"type":"string"}`))
	}))
	defer srv.Close()
	for _, params := range []string{
		`{"type":"object","properties":{"a":{"$ref":"` + srv.URL + `/s.json"}}}`,
		`{"$schema":"` + srv.URL + `/meta.json","type":"object"}`,
		`{"$id":"` + srv.URL + `/root.json","type":"object","properties":{"a":{"$ref":"other.json"}}}`,
	} {
		v := schema.Compile([]byte(params))
		if v.Err() == nil || !strings.HasPrefix(v.Status(), "off: ") || strings.Contains(v.Status(), "\n") {
			t.Errorf("%s: status %q, want off: <one line>", params, v.Status())
		}
		if p := v.Validate([]byte(`{"a":1}`)); p != nil {
			t.Errorf("an uncompiled schema validated: %+v", p)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Fatalf("the schema server was asked %d times", n)
	}
	v := schema.Compile([]byte(`{"type":"object","properties":{"a":{"$ref":"https://example.com/s.json"}}}`))
	want := `off: $ref https://example.com/s.json is not local: beeuni fetches no schema; copy it under $defs and use "$ref": "#/$defs/..."`
	if v.Status() != want {
		t.Errorf("status %q, want %q", v.Status(), want)
	}
	if v := schema.Compile([]byte(lookupOrder)); v.Status() != "on" {
		t.Errorf("lookup_order: %s", v.Status())
	}
}

// §1.7 test 13: 25 problems give 10 lines and "… and 15 more"; a message
// never passes 4,000 bytes.
func TestMessageCaps(t *testing.T) {
	var props, args []string
	for i := range 25 {
		props = append(props, fmt.Sprintf(`"p%02d":{"type":"integer"}`, i))
		args = append(args, fmt.Sprintf(`"p%02d":"x"`, i))
	}
	params := `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	msg := message(t, "many", params, `{`+strings.Join(args, ",")+`}`)
	lines := strings.Split(msg, "\n")
	if lines[0] != "invalid arguments for tool many: 25 problems; fix them and call again." {
		t.Fatalf("header %q", lines[0])
	}
	if len(lines) != 13 || lines[11] != "- … and 15 more" || lines[1] != `- at "/p00": got string, want integer` || lines[10] != `- at "/p09": got string, want integer` {
		t.Fatalf("lines:\n%s", msg)
	}
	if sig := lines[12]; !strings.HasPrefix(sig, `many takes: {"p00": integer, "p01": integer`) {
		t.Fatalf("signature line %q", sig)
	}

	// Long patterns and property names: still at most 4,000 bytes.
	long := strings.Repeat("x", 700)
	props, args = nil, nil
	for i := range 30 {
		props = append(props, fmt.Sprintf(`"%s%02d":{"type":"string","pattern":"^%s$"}`, long, i, long))
		args = append(args, fmt.Sprintf(`"%s%02d":"y"`, long, i))
	}
	params = `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`
	msg = message(t, "big", params, `{`+strings.Join(args, ",")+`}`)
	if len(msg) > 4000 || !strings.Contains(msg, "more\nbig takes: ") {
		t.Fatalf("message of %d bytes:\n%s", len(msg), msg)
	}
	sig := strings.SplitN(msg, "big takes: ", 2)[1]
	if n := len([]rune(sig)); n != 600 || !strings.HasSuffix(sig, "…") {
		t.Fatalf("signature of %d characters", n)
	}
}

// §1.7 test 14: a pattern problem quotes at most 40 characters of a value.
func TestPatternQuoteCap(t *testing.T) {
	secret := strings.Repeat("s", 150) + strings.Repeat("k", 50)
	msg := message(t, "t", `{"type":"object","properties":{"token":{"type":"string","pattern":"^A-"}}}`, `{"token":"`+secret+`"}`)
	want := "- at \"/token\": '" + strings.Repeat("s", 39) + "…' does not match pattern '^A-'"
	if !strings.Contains(msg, want) || strings.Contains(msg, strings.Repeat("s", 40)) {
		t.Fatalf("message:\n%s\nwant the line %q", msg, want)
	}
}

func TestSignature(t *testing.T) {
	cases := []struct{ params, want string }{
		{lookupOrder, `{"id": string (required), "include_items": boolean}`},
		{`{"type":"object","properties":{"c":{"type":"string","enum":["view","create"]},"n":{"type":"object"},"l":{"type":"array","items":{"type":"integer"}},"u":{"type":["string","null"]},"x":{}}}`,
			`{"c": "view"|"create", "n": object, "l": array of integer, "u": string|null, "x": any}`},
		{`{"type":"object","properties":{"r":{"$ref":"#/$defs/d"}},"$defs":{"d":{"type":"number"}}}`, `{"r": number}`},
		{`not json`, `{}`},
	}
	for _, tc := range cases {
		if got := schema.Signature([]byte(tc.params)); got != tc.want {
			t.Errorf("Signature(%s) = %s, want %s", tc.params, got, tc.want)
		}
	}
}

// The structured list the route answers with (§1.6).
func TestProblemsJSON(t *testing.T) {
	v := schema.Compile([]byte(lookupOrder))
	b, err := json.Marshal(v.Validate([]byte(`{"id":"A","include_items":"yes"}`)))
	if err != nil {
		t.Fatal(err)
	}
	if want := `[{"path":"/include_items","keyword":"type","message":"got string, want boolean"}]`; string(b) != want {
		t.Fatalf("%s, want %s", b, want)
	}
}

// §1.7 test 15 (the part without the executor): a compiled schema is not
// compiled again per call: validating costs a small fraction of compiling.
func TestCompileOnce(t *testing.T) {
	params := builtinTool(t, "memory").Parameters
	args := []byte(`{"command":"view","path":"memory","file_text":null}`)
	compile := testing.AllocsPerRun(20, func() { schema.Compile(params) })
	v := schema.Compile(params)
	call := testing.AllocsPerRun(200, func() {
		out, _ := v.Normalize(args)
		v.Validate(out)
	})
	if call*4 > compile {
		t.Fatalf("a call allocates %.0f times, a compile %.0f: calls look like they compile", call, compile)
	}
}

func BenchmarkCall(b *testing.B) {
	v := schema.Compile(builtinTool(b, "memory").Parameters)
	args := []byte(`{"command":"view","path":"memory","file_text":null,"insert_line":null}`)
	b.ReportAllocs()
	for b.Loop() {
		out, _ := v.Normalize(args)
		if p := v.Validate(out); p != nil {
			b.Fatal(p)
		}
	}
}

func BenchmarkCompile(b *testing.B) {
	params := builtinTool(b, "memory").Parameters
	b.ReportAllocs()
	for b.Loop() {
		schema.Compile(params)
	}
}

// One Validator serves concurrent calls (run with -race).
func TestValidatorConcurrent(t *testing.T) {
	v := schema.Compile([]byte(`{"type":"object","properties":{"code":{"type":"string","pattern":"^(?=.*\\d)"},"n":{"type":"integer"}},"required":["code"]}`))
	done := make(chan []schema.Problem)
	for i := range 8 {
		go func() {
			var last []schema.Problem
			for j := range 50 {
				out, _ := v.Normalize([]byte(fmt.Sprintf(`{"code":"a%d","n":null}`, i*j)))
				last = v.Validate(out)
			}
			done <- last
		}()
	}
	for range 8 {
		if p := <-done; p != nil {
			t.Errorf("problems %+v", p)
		}
	}
}
