package schema

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// Seeds: the shapes of the Beeuni tools' schemas and the hard cases.
var fuzzSchemas = []string{
	`{"type":"object","properties":{"command":{"type":"string","enum":["view","create"]},"path":{"type":"string"},"insert_line":{"type":"integer"}},"required":["command"]}`,
	`{"type":"object","properties":{"type":{"type":"string","enum":["file","list"]},"items":{"type":"array","items":{"anyOf":[{"type":"string"},{"type":"object"}]}}},"required":["type"]}`,
	`{"type":"object","properties":{"list":{"type":"array","items":{"type":"object","properties":{"a":{"type":"string"}}}},"r":{"$ref":"#/$defs/r"}},"$defs":{"r":{"type":"object","properties":{"q":{"type":["integer","null"]},"self":{"$ref":"#/$defs/r"}}}}}`,
	`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"title":{"type":"string","format":"uri","minLength":2},"default":{"const":1},"$ref":{"oneOf":[{"type":"string"},{"type":"null"}]},"m":{"type":"object","additionalProperties":{"type":"string"}}},"allOf":[{"required":["title"]}],"definitions":{"d":{"type":"string"}}}`,
}

// FuzzNormalize: the duplicate-key scanner and the null removal parse
// untrusted call arguments. They must not panic, must agree with a
// token-level count of duplicates, and must give valid JSON that a second
// pass leaves alone.
func FuzzNormalize(f *testing.F) {
	for _, s := range []string{`{}`, `{"id":"A","id":"B"}`, `{"a":{"k":1,"k":2,"k":3}}`, `{"i\u0064":1,"id":2}`,
		`{"command":"view","path":null,"insert_line":null}`, `{"list":[{"a":null},{"a":"x"}],"r":{"q":null,"self":{"q":null}}}`,
		`[1,2]`, `{"a":`, `"x"`, `{"a":[{},{"b":null,"b":null}]}`} {
		for i := range fuzzSchemas {
			f.Add([]byte(s), uint8(i))
		}
	}
	validators := make([]*Validator, len(fuzzSchemas))
	for i, s := range fuzzSchemas {
		validators[i] = Compile([]byte(s))
	}
	f.Fuzz(func(t *testing.T, args []byte, which uint8) {
		v := validators[int(which)%len(validators)]
		dups := DuplicateKeys(args)
		if !json.Valid(args) {
			if len(dups) != 1 || dups[0] != notJSON {
				t.Fatalf("invalid JSON: %+v", dups)
			}
			return
		}
		if want := countDuplicates(t, args); len(dups) != want {
			t.Fatalf("%d duplicate reports, the token scan counts %d: %+v", len(dups), want, dups)
		}
		out, probs := v.Normalize(args)
		if len(dups) > 0 {
			if len(probs) != len(dups) || !bytes.Equal(out, args) {
				t.Fatalf("Normalize and DuplicateKeys disagree: %+v %+v", probs, dups)
			}
			return
		}
		if !json.Valid(out) {
			t.Fatalf("normalized to invalid JSON: %s", out)
		}
		again, _ := v.Normalize(out)
		if !bytes.Equal(again, out) {
			t.Fatalf("not idempotent: %s then %s", out, again)
		}
		if len(out) > len(args) {
			t.Fatalf("normalization added bytes: %s -> %s", args, out)
		}
		v.Validate(out)
	})
}

// countDuplicates counts repeated keys with encoding/json's tokenizer.
func countDuplicates(tb testing.TB, data []byte) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		obj    bool
		keys   map[string]bool
		expect bool // the next string token is a key
	}
	var stack []*frame
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				if top != nil && top.obj {
					top.expect = true
				}
				stack = append(stack, &frame{obj: d == '{', keys: map[string]bool{}, expect: true})
			default:
				stack = stack[:len(stack)-1]
				if len(stack) > 0 && stack[len(stack)-1].obj {
					stack[len(stack)-1].expect = true
				}
			}
			continue
		}
		if top != nil && top.obj {
			if top.expect {
				k := tok.(string)
				if top.keys[k] {
					n++
				}
				top.keys[k] = true
				top.expect = false
			} else {
				top.expect = true
			}
		}
	}
}

// FuzzRender: renderers parse untrusted schemas. They must not panic,
// must give valid, deterministic JSON, and must never invent or rename a
// property: every name in a rendered `properties` map was one in the
// module's schema (and for the providers that send the schema as it is,
// all of them are still there).
func FuzzRender(f *testing.F) {
	for _, s := range fuzzSchemas {
		f.Add([]byte(s))
	}
	f.Add([]byte(`{"type":"object","properties":{"a":{"$ref":"#"}},"$defs":{"x":{"$ref":"#/$defs/x"}}}`))
	f.Add([]byte(`{"type":"object","properties":{"a":true,"b":false,"c":{"items":[{"type":"string"}]}}}`))
	f.Add([]byte(`[1]`))
	f.Fuzz(func(t *testing.T, params []byte) {
		in, _, err := parseTree(params, false)
		var inNames []string
		if err == nil {
			inNames = schemaPropertyNames(in)
		}
		tools := []Tool{{Name: "fuzz", Description: "Fuzz.", Parameters: params}}
		for _, o := range []Options{{Provider: OpenAI}, {Provider: OpenAI, API: "responses"}, {Provider: OpenAIStrict},
			{Provider: Anthropic}, {Provider: AnthropicStrict}, {Provider: Gemini}, {Provider: Gemini, GeminiSchema: "json"}} {
			res, err := Render(tools, o)
			if err != nil {
				t.Fatal(err)
			}
			again, _ := Render(tools, o)
			if !bytes.Equal(res.Tools, again.Tools) || !json.Valid(res.Tools) {
				t.Fatalf("%v: invalid or not deterministic: %s", o, res.Tools)
			}
			pretty, _, err := parseTree(res.PrettyTools(), false)
			if err != nil || !bytes.Equal(pretty.bytes(), res.Tools) {
				t.Fatalf("%v: Pretty does not round-trip: %s", o, res.PrettyTools())
			}
			if err != nil || in == nil || !in.isObject() {
				continue
			}
			outNames := schemaPropertyNames(renderedParams(t, res.Tools))
			for _, n := range outNames {
				if !slices.Contains(inNames, n) {
					t.Fatalf("%v: property %q is not in the module's schema %s: %s", o, n, params, res.Tools)
				}
			}
			if (o.Provider == OpenAI || o.Provider == Anthropic) && !slices.Equal(sorted(outNames), sorted(inNames)) {
				t.Fatalf("%v: properties %v, the module's %v", o, outNames, inNames)
			}
		}
	})
}

// schemaPropertyNames lists every property name at a schema position.
func schemaPropertyNames(n *node) []string {
	var out []string
	var walk func(n *node, depth int)
	walk = func(n *node, depth int) {
		if depth > 200 {
			return
		}
		out = append(out, propertyNames(n)...)
		eachSubschema(n, func(_ string, sub *node) { walk(sub, depth+1) })
	}
	walk(n, 0)
	return out
}

// renderedParams returns the one tool's schema of a rendering (an empty
// object when Gemini left parameters out).
func renderedParams(tb testing.TB, tools []byte) *node {
	root, _, err := parseTree(tools, false)
	if err != nil || root.kind != kArray || len(root.items) != 1 {
		tb.Fatalf("rendering %s", tools)
	}
	t := root.items[0]
	if d := t.get("functionDeclarations"); d != nil {
		t = d.items[0]
	}
	if fn := t.get("function"); fn != nil {
		t = fn
	}
	for _, k := range []string{"parameters", "input_schema", "parametersJsonSchema"} {
		if p := t.get(k); p != nil {
			return p
		}
	}
	return newObject()
}

func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// The pretty layout keeps scalar-only containers on one line.
func TestPretty(t *testing.T) {
	got := string(Pretty([]byte(`{"a":[1,2],"b":{"c":"<&>","d":{}},"e":[],"f":[{"g":null}]}`)))
	want := strings.Join([]string{
		`{`,
		`  "a": [1, 2],`,
		`  "b": {"c": "<&>", "d": {}},`,
		`  "e": [],`,
		`  "f": [`,
		`    {"g": null}`,
		`  ]`,
		`}`,
	}, "\n")
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}
