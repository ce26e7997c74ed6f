package schema_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/schema"
)

// specGolden is SPEC-beyond §3.2's example, byte for byte.
const specGolden = `[
  {
    "type": "function",
    "function": {
      "name": "web_search",
      "description": "Search the web. Returns, for each query, the result items the search found (typically title, url and snippet). Run several searches at once by joining queries with \"|||\", e.g. \"go generics tutorial|||rust traits vs interfaces\".",
      "parameters": {
        "type": "object",
        "properties": {
          "query": {"type": "string", "description": "What to search for. Join several queries with \"|||\" to run them at once."}
        },
        "required": ["query"],
        "additionalProperties": false
      },
      "strict": true
    }
  }
]`

func render(tb testing.TB, tools []schema.Tool, o schema.Options) (string, []schema.Finding) {
	tb.Helper()
	res, err := schema.Render(tools, o)
	if err != nil {
		tb.Fatal(err)
	}
	checkFindings(tb, res.Findings)
	return string(res.Tools), res.Findings
}

// documented are the rule ids SPEC-beyond §3 names, and the AS-* ids
// docs/render-and-lint.md adds for the anthropic-strict steps §3.5
// describes without ids.
var documented = []string{"OA-NAME", "AN-NAME", "GM-NAME", "ALL-ROOT", "OA-ARRAY-ITEMS", "OA-MAX-TOOLS",
	"OA-STRICT-HINT", "OS-ADDPROPS", "OS-OPEN-MAP", "OS-OPEN-OBJECT", "OS-REQUIRED", "OS-NULLABLE", "OS-ONEOF",
	"OS-ALLOF", "OS-COMPOSITION", "OS-ROOT-ANYOF", "OS-REF-SIBLINGS", "OS-DROP", "OS-META", "OS-LIMITS",
	"OS-PARALLEL", "AN-ROOT-COMBINATOR", "AN-ROOT-TYPE", "GM-REF", "GM-TYPE-ARRAY", "GM-ANYOF-NULL", "GM-CONST",
	"GM-ONEOF", "GM-ALLOF", "GM-ENUM", "GM-FORMAT", "GM-ANYOF-SIBLINGS", "GM-EMPTY-OBJECT", "GM-FIELDS",
	"GM-ARRAY-ITEMS", "GM-TYPES-CASE", "ALL-LOAD",
	"AS-DROP", "AS-MIN-ITEMS", "AS-RECURSIVE", "AS-ENUM", "AS-UNSUPPORTED", "AS-LIMITS"}

// checkFindings is §3.7 test 19: a documented rule id and a source URL.
func checkFindings(tb testing.TB, fs []schema.Finding) {
	tb.Helper()
	for _, f := range fs {
		if !slices.Contains(documented, f.Rule) || !strings.HasPrefix(f.Source, "https://") || f.Message == "" {
			tb.Errorf("finding without a documented rule or a source: %+v", f)
		}
	}
}

func findingsOf(fs []schema.Finding, rule string) []schema.Finding {
	var out []schema.Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

func tool(name, params string) schema.Tool {
	return schema.Tool{Name: name, Description: "Test tool " + name + ".", Parameters: []byte(params)}
}

// §3.7 test 2.
func TestRenderSpecGolden(t *testing.T) {
	res, err := schema.Render([]schema.Tool{builtinTool(t, "web_search")}, schema.Options{Provider: schema.OpenAIStrict})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(res.PrettyTools()); got != specGolden {
		t.Fatalf("got:\n%s\nwant:\n%s", got, specGolden)
	}
	if schema.HasErrors(res.Findings) {
		t.Fatalf("findings: %v", res.Findings)
	}
}

// §3.7 tests 3, 4 and 6.
func TestRenderOpenAIStrictBuiltins(t *testing.T) {
	out, fs := render(t, []schema.Tool{builtinTool(t, "memory")}, schema.Options{Provider: schema.OpenAIStrict})
	var got []struct {
		Function struct {
			Parameters struct {
				Properties map[string]struct {
					Type any      `json:"type"`
					Enum []string `json:"enum"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"parameters"`
			Strict bool `json:"strict"`
		} `json:"function"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	p := got[0].Function.Parameters
	wantReq := []string{"command", "path", "file_text", "old_str", "new_str", "insert_line", "insert_text", "old_path", "new_path"}
	if !slices.Equal(p.Required, wantReq) || !got[0].Function.Strict {
		t.Fatalf("memory: required %v strict %v", p.Required, got[0].Function.Strict)
	}
	if fmt.Sprint(p.Properties["path"].Type) != "[string null]" || fmt.Sprint(p.Properties["insert_line"].Type) != "[integer null]" ||
		p.Properties["command"].Type != "string" || len(p.Properties["command"].Enum) != 6 {
		t.Fatalf("memory properties: %+v", p.Properties)
	}
	for _, f := range fs {
		if f.Tool == "memory" {
			t.Errorf("memory finding: %v", f)
		}
	}

	out, fs = render(t, []schema.Tool{builtinTool(t, "show")}, schema.Options{Provider: schema.OpenAIStrict})
	if !strings.HasSuffix(out, `"strict":false}}]`) {
		t.Fatalf("show is not strict false: %s", out)
	}
	var warns []string
	for _, f := range fs {
		if f.Severity != schema.SeverityInfo {
			warns = append(warns, f.String())
		}
	}
	if len(warns) != 1 || !strings.HasPrefix(warns[0], "openai-strict show /properties/items/items/anyOf/1: warning: ") || !strings.Contains(warns[0], "[OS-OPEN-OBJECT]") {
		t.Fatalf("show findings: %q", warns)
	}

	out, _ = render(t, builtins(t), schema.Options{Provider: schema.OpenAI, API: "responses"})
	var resp []map[string]any
	if err := json.Unmarshal([]byte(out), &resp); err != nil {
		t.Fatal(err)
	}
	for _, r := range resp {
		if r["strict"] != false || r["type"] != "function" || r["parameters"] == nil {
			t.Errorf("responses tool: %v", r)
		}
	}
}

// §3.7 tests 7, 8, 10, 11, 15: what providers reject.
func TestRenderErrors(t *testing.T) {
	long := strings.Repeat("a", 64)
	cases := []struct {
		name      string
		tool      schema.Tool
		opts      schema.Options
		rule      string
		severity  schema.Severity
		inMessage string
	}{
		{"7 array without items, openai", tool("arr", `{"type":"object","properties":{"paths":{"type":"array"}}}`), schema.Options{Provider: schema.OpenAI}, "OA-ARRAY-ITEMS", schema.SeverityError, "array schema missing items"},
		{"7 array without items, openai-strict", tool("arr", `{"type":"object","properties":{"paths":{"type":"array"}}}`), schema.Options{Provider: schema.OpenAIStrict}, "OA-ARRAY-ITEMS", schema.SeverityError, "array schema missing items"},
		{"8 anthropic root anyOf", tool("either", `{"type":"object","anyOf":[{"required":["a"]},{"required":["b"]}]}`), schema.Options{Provider: schema.Anthropic}, "AN-ROOT-COMBINATOR", schema.SeverityError, "at the top level"},
		{"10 gemini recursive ref", tool("tree", `{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"name":{"type":"string"},"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`), schema.Options{Provider: schema.Gemini}, "GM-REF", schema.SeverityError, "recursive $ref #/$defs/node cannot be inlined into Gemini's Schema: render with --gemini-schema json"},
		{"15 64-char name on gemini", tool(long, `{"type":"object","properties":{"a":{"type":"string"}}}`), schema.Options{Provider: schema.Gemini}, "GM-NAME", schema.SeverityWarning, "at most 63"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, fs := render(t, []schema.Tool{tc.tool}, tc.opts)
			got := findingsOf(fs, tc.rule)
			if len(got) != 1 || got[0].Severity != tc.severity || got[0].Tool != tc.tool.Name || !strings.Contains(got[0].Message, tc.inMessage) {
				t.Fatalf("findings %v", fs)
			}
			if schema.HasErrors(fs) != (tc.severity == schema.SeverityError) {
				t.Fatalf("HasErrors = %v", schema.HasErrors(fs))
			}
		})
	}
	// A 64-character name passes every other provider.
	for _, p := range []schema.Provider{schema.OpenAI, schema.OpenAIStrict, schema.Anthropic, schema.AnthropicStrict} {
		_, fs := render(t, []schema.Tool{tool(long, `{"type":"object","properties":{"a":{"type":"string"}}}`)}, schema.Options{Provider: p})
		if len(findingsOf(fs, "OA-NAME"))+len(findingsOf(fs, "AN-NAME")) > 0 {
			t.Errorf("%s: %v", p, fs)
		}
	}
	// 10: the json schema mode takes the recursive schema with $ref.
	out, fs := render(t, []schema.Tool{tool("tree", `{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}},"$defs":{"node":{"type":"object","properties":{"children":{"type":"array","items":{"$ref":"#/$defs/node"}}}}}}`)},
		schema.Options{Provider: schema.Gemini, GeminiSchema: "json"})
	if schema.HasErrors(fs) || !strings.Contains(out, `"parametersJsonSchema":{"type":"object","properties":{"root":{"$ref":"#/$defs/node"}}`) {
		t.Fatalf("json mode: %s %v", out, fs)
	}
	// 11: no properties, no parameters.
	out, _ = render(t, []schema.Tool{tool("noargs", `{"type":"object","properties":{}}`)}, schema.Options{Provider: schema.Gemini})
	if out != `[{"functionDeclarations":[{"name":"noargs","description":"Test tool noargs."}]}]` {
		t.Fatalf("empty object: %s", out)
	}
	if _, err := schema.Render(nil, schema.Options{Provider: "x"}); err == nil || err.Error() != `unknown provider "x": use openai, openai-strict, anthropic, anthropic-strict or gemini` {
		t.Fatalf("unknown provider: %v", err)
	}
}

// §3.7 test 9: a zod-made schema rendered for Gemini.
func TestRenderGeminiZod(t *testing.T) {
	zod := tool("book", `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{
		"title":{"type":"string","minLength":1},
		"subtitle":{"type":["string","null"]},
		"kind":{"const":"book"},
		"link":{"type":"string","format":"uri"},
		"stars":{"type":"integer","enum":[1,2,3]},
		"when":{"type":"string","format":"date-time"},
		"tags":{"type":"array","items":{"type":"string"}},
		"author":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"],"additionalProperties":false},
		"note":{"anyOf":[{"type":"string"},{"type":"null"}],"description":"A note."}
	},"required":["title","kind"],"additionalProperties":false}`)
	got := renderText(t, []schema.Tool{zod}, schema.Options{Provider: schema.Gemini})
	checkGolden(t, "golden/zod.gemini.openapi.txt", got)
	for _, gone := range []string{`"additionalProperties"`, `"$schema"`, `"const"`, `"format": "uri"`} {
		if strings.Contains(string(got), gone) {
			t.Errorf("%s is still there", gone)
		}
	}
	for _, kept := range []string{`"nullable": true`, `"enum": ["book"]`, `"description": "format: uri"`, `"description": "one of: 1, 2, 3"`, `"format": "date-time"`} {
		if !strings.Contains(string(got), kept) {
			t.Errorf("%s is missing", kept)
		}
	}
	checkGolden(t, "golden/zod.gemini.json.txt", renderText(t, []schema.Tool{zod}, schema.Options{Provider: schema.Gemini, GeminiSchema: "json"}))
	checkGolden(t, "golden/zod.openai-strict.txt", renderText(t, []schema.Tool{zod}, schema.Options{Provider: schema.OpenAIStrict}))
	checkGolden(t, "golden/zod.anthropic-strict.txt", renderText(t, []schema.Tool{zod}, schema.Options{Provider: schema.AnthropicStrict}))
}

// §3.7 tests 12 and 13: names of properties are never rewritten, and keep
// their order.
func TestRenderPositionAware(t *testing.T) {
	tricky := tool("tricky", `{"type":"object","properties":{
		"z":{"type":"string"},"a":{"type":"string"},"m":{"type":"string"},
		"title":{"type":"string"},"default":{"type":"string"},"format":{"type":"string"},
		"additionalProperties":{"type":"string"},"$ref":{"type":"string"},"const":{"type":"string"},
		"$schema":{"type":"string"},"nested":{"type":"object","properties":{"type":{"type":"string"},"items":{"type":"string"},"examples":{"type":"string"}}}
	},"required":["z"]}`)
	wantTop := []string{"z", "a", "m", "title", "default", "format", "additionalProperties", "$ref", "const", "$schema", "nested"}
	for _, o := range combos {
		t.Run(comboName(o), func(t *testing.T) {
			for _, tl := range []schema.Tool{tricky, builtinTool(t, "show")} {
				out, _ := render(t, []schema.Tool{tl}, o)
				params := paramsOf(t, out)
				top := keysAt(t, params, "properties")
				switch tl.Name {
				case "show":
					if !slices.Equal(top, []string{"type", "path", "url", "content", "items"}) {
						t.Fatalf("show properties %v in %s", top, out)
					}
				default:
					if !slices.Equal(top, wantTop) {
						t.Fatalf("properties %v, want %v, in %s", top, wantTop, out)
					}
					if nested := keysAt(t, params, "properties", "nested", "properties"); !slices.Equal(nested, []string{"type", "items", "examples"}) {
						t.Fatalf("nested properties %v", nested)
					}
				}
			}
		})
	}
}

// paramsOf digs the one tool's schema out of a rendering, as raw JSON.
func paramsOf(tb testing.TB, out string) json.RawMessage {
	tb.Helper()
	var list []map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		tb.Fatal(err)
	}
	t := list[0]
	if f, ok := t["function"]; ok {
		json.Unmarshal(f, &t)
	}
	if d, ok := t["functionDeclarations"]; ok {
		var ds []map[string]json.RawMessage
		json.Unmarshal(d, &ds)
		t = ds[0]
	}
	for _, k := range []string{"parameters", "input_schema", "parametersJsonSchema"} {
		if p, ok := t[k]; ok {
			return p
		}
	}
	tb.Fatalf("no schema in %s", out)
	return nil
}

// keysAt returns the keys, in order, of the object at path in raw.
func keysAt(tb testing.TB, raw json.RawMessage, path ...string) []string {
	tb.Helper()
	for _, p := range path {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(raw, &m); err != nil {
			tb.Fatal(err)
		}
		raw = m[p]
	}
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	var keys []string
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			break
		}
		switch tok.(type) {
		case json.Delim:
			if d := tok.(json.Delim); d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
			continue
		}
		if s, ok := tok.(string); ok && depth == 1 {
			keys = append(keys, s)
			var skip json.RawMessage
			dec.Decode(&skip)
		}
	}
	return keys
}

// §3.7 test 14: past a strict-mode limit the tool falls back with a
// warning naming the limit and the count.
func TestRenderLimits(t *testing.T) {
	nest := func(levels int) string {
		s := `{"type":"string"}`
		for range levels {
			s = `{"type":"object","properties":{"d":` + s + `},"required":["d"]}`
		}
		return s
	}
	deep := nest(11)
	var props, enum []string
	for i := range 5001 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	for i := range 1001 {
		enum = append(enum, fmt.Sprintf(`"e%d"`, i))
	}
	cases := []struct{ name, params, inMessage string }{
		{"11 levels", deep, "levels of object nesting: 11, over strict mode's limit of 10"},
		{"5001 properties", `{"type":"object","properties":{` + strings.Join(props, ",") + `}}`, "object properties in all: 5001, over strict mode's limit of 5000"},
		{"1001 enum values", `{"type":"object","properties":{"e":{"type":"string","enum":[` + strings.Join(enum, ",") + `]}},"required":["e"]}`, "enum values in all: 1001, over strict mode's limit of 1000"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, fs := render(t, []schema.Tool{tool("big", tc.params)}, schema.Options{Provider: schema.OpenAIStrict})
			lim := findingsOf(fs, "OS-LIMITS")
			if len(lim) != 1 || !strings.Contains(lim[0].Message, tc.inMessage) || lim[0].Severity != schema.SeverityWarning || !strings.HasSuffix(out, `"strict":false}}]`) {
				t.Fatalf("findings %v", fs)
			}
		})
	}
	// One level less passes strict.
	out, fs := render(t, []schema.Tool{tool("ok", nest(10))}, schema.Options{Provider: schema.OpenAIStrict})
	if len(findingsOf(fs, "OS-LIMITS")) != 0 || !strings.HasSuffix(out, `"strict":true}}]`) {
		t.Fatalf("10 levels: %v", fs)
	}
}

// The strict rewrite steps that fall back, and the ones that do not.
func TestRenderStrictSteps(t *testing.T) {
	cases := []struct {
		name, params string
		opts         schema.Options
		rule         string
		strict       bool
		inOut        string
	}{
		{"oneOf becomes anyOf", `{"type":"object","properties":{"v":{"oneOf":[{"type":"string"},{"type":"integer"}]}},"required":["v"]}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-ONEOF", true, `"v":{"anyOf":[`},
		{"allOf of one merges", `{"type":"object","properties":{"v":{"allOf":[{"type":"string"}],"description":"d"}},"required":["v"]}`, schema.Options{Provider: schema.OpenAIStrict}, "", true, `"v":{"type":"string","description":"d"}`},
		{"allOf of two falls back", `{"type":"object","properties":{"v":{"allOf":[{"type":"string"},{"minLength":1}]}}}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-ALLOF", false, ""},
		{"not falls back", `{"type":"object","properties":{"v":{"not":{"type":"string"}}}}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-COMPOSITION", false, ""},
		{"root anyOf falls back", `{"type":"object","properties":{"a":{"type":"string"}},"anyOf":[{"required":["a"]}]}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-ROOT-ANYOF", false, ""},
		{"open map falls back", `{"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}}}}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-OPEN-MAP", false, ""},
		{"ref siblings wrapped, nullable", `{"type":"object","properties":{"r":{"$ref":"#/$defs/d","description":"x"}},"$defs":{"d":{"type":"string"}}}`, schema.Options{Provider: schema.OpenAIStrict}, "", true, `"r":{"anyOf":[{"$ref":"#/$defs/d"},{"type":"null"}],"description":"x"}`},
		{"drop to description", `{"type":"object","properties":{"s":{"type":"string","minLength":3,"format":"uri","description":"A link."}},"required":["s"]}`, schema.Options{Provider: schema.OpenAIStrict}, "OS-DROP", true, `"s":{"type":"string","description":"A link. (minLength=3, format=uri)"}`},
		{"meta removed", `{"$schema":"x","title":"T","type":"object","properties":{"s":{"type":"string","default":"a","examples":["b"]}},"required":["s"]}`, schema.Options{Provider: schema.OpenAIStrict}, "", true, `"parameters":{"type":"object","properties":{"s":{"type":"string"}},"required":["s"],"additionalProperties":false}`},
		{"enum gets null", `{"type":"object","properties":{"u":{"type":"string","enum":["C","F"]}}}`, schema.Options{Provider: schema.OpenAIStrict}, "", true, `"u":{"type":["string","null"],"enum":["C","F",null]}`},
		{"anthropic strict keeps optional, drops minimum", `{"type":"object","properties":{"n":{"type":"integer","minimum":1}}}`, schema.Options{Provider: schema.AnthropicStrict}, "AS-DROP", true, `"input_schema":{"type":"object","properties":{"n":{"type":"integer","description":"minimum=1"}},"additionalProperties":false},"strict":true`},
		{"anthropic strict recursion", `{"type":"object","properties":{"n":{"$ref":"#"}}}`, schema.Options{Provider: schema.AnthropicStrict}, "AS-RECURSIVE", false, ""},
		{"anthropic strict object enum", `{"type":"object","properties":{"n":{"enum":[{"a":1}]}}}`, schema.Options{Provider: schema.AnthropicStrict}, "AS-ENUM", false, ""},
		{"anthropic strict minItems 2", `{"type":"object","properties":{"n":{"type":"array","items":{"type":"string"},"minItems":2}}}`, schema.Options{Provider: schema.AnthropicStrict}, "AS-MIN-ITEMS", true, `"description":"minItems=2"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, fs := render(t, []schema.Tool{tool("t", tc.params)}, tc.opts)
			if tc.rule != "" && len(findingsOf(fs, tc.rule)) == 0 {
				t.Fatalf("no %s finding: %v", tc.rule, fs)
			}
			strictOut := strings.Contains(out, `"strict":true`)
			if strictOut != tc.strict || !strings.Contains(out, tc.inOut) {
				t.Fatalf("out %s, want strict %v and %s; findings %v", out, tc.strict, tc.inOut, fs)
			}
			if !tc.strict && strings.Contains(out, `"additionalProperties":false`) {
				t.Fatalf("a fallback is not the original schema: %s", out)
			}
		})
	}
}

// §3.5: request-level limits of anthropic-strict, in manifest order.
func TestRenderAnthropicLimits(t *testing.T) {
	var tools []schema.Tool
	for i := range 22 {
		tools = append(tools, tool(fmt.Sprintf("t%02d", i), `{"type":"object","properties":{"a":{"type":"string"}},"required":["a"]}`))
	}
	out, fs := render(t, tools, schema.Options{Provider: schema.AnthropicStrict})
	if n := strings.Count(out, `"strict":true`); n != 20 {
		t.Fatalf("%d strict tools", n)
	}
	lim := findingsOf(fs, "AS-LIMITS")
	if len(lim) != 2 || lim[0].Tool != "t20" || lim[1].Tool != "t21" {
		t.Fatalf("findings %v", lim)
	}
	tools = nil
	for i := range 5 {
		tools = append(tools, tool(fmt.Sprintf("o%d", i), `{"type":"object","properties":{"a":{"type":"string"},"b":{"type":"string"},"c":{"type":"string"},"d":{"type":"string"},"e":{"type":"string"}}}`))
	}
	_, fs = render(t, tools, schema.Options{Provider: schema.AnthropicStrict})
	if lim := findingsOf(fs, "AS-LIMITS"); len(lim) != 1 || lim[0].Tool != "o4" || !strings.Contains(lim[0].Message, "25, over the limit of 24") {
		t.Fatalf("optional limit: %v", fs)
	}
}

// §3.7 test 16 (library part): Lint covers every provider.
func TestLintAllProviders(t *testing.T) {
	fs := schema.Lint([]schema.Tool{tool("arr", `{"type":"object","anyOf":[{}],"properties":{"p":{"type":"array"}}}`)})
	seen := map[string]bool{}
	for _, f := range fs {
		seen[f.Provider] = true
	}
	for _, p := range schema.Providers {
		if !seen[string(p)] {
			t.Errorf("no finding for %s: %v", p, fs)
		}
	}
	b, err := json.Marshal(fs[0])
	if err != nil {
		t.Fatal(err)
	}
	var keys map[string]any
	json.Unmarshal(b, &keys)
	for _, k := range []string{"provider", "tool", "path", "severity", "rule", "message", "source"} {
		if _, ok := keys[k]; !ok || len(keys) != 7 {
			t.Fatalf("finding JSON %s", b)
		}
	}
	if ps, err := schema.ParseProviders("gemini, openai"); err != nil || !slices.Equal(ps, []schema.Provider{schema.Gemini, schema.OpenAI}) {
		t.Fatalf("ParseProviders: %v %v", ps, err)
	}
}
