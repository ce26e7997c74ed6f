package main

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRenderDemo renders the demo project for every provider, API and
// Gemini schema, and lints it, against golden transcripts (SPEC-beyond
// §3.7 tests 1 and 16).
func TestRenderDemo(t *testing.T) {
	runs := []struct {
		slug string
		args []string
	}{
		{"openai-chat", []string{"tools", "render", "--provider", "openai"}},
		{"openai-responses", []string{"tools", "render", "--provider", "openai", "--api", "responses"}},
		{"openai-strict-chat", []string{"tools", "render", "--provider", "openai-strict"}},
		{"openai-strict-responses", []string{"tools", "render", "--provider", "openai-strict", "--api", "responses"}},
		{"anthropic", []string{"tools", "render", "--provider", "anthropic"}},
		{"anthropic-strict", []string{"tools", "render", "--provider", "anthropic-strict"}},
		{"gemini-openapi", []string{"tools", "render", "--provider", "gemini"}},
		{"gemini-json", []string{"tools", "render", "--provider", "gemini", "--gemini-schema", "json"}},
		{"gemini-researcher", []string{"tools", "render", "--provider", "gemini", "--agent", "researcher"}},
		{"openai-strict-json", []string{"tools", "render", "--provider", "openai-strict", "--json"}},
		{"lint", []string{"tools", "lint"}},
		{"lint-json", []string{"tools", "lint", "--provider", "openai-strict,gemini", "--json"}},
	}
	dir := copyProject(t, "../../examples/demo")
	for _, run := range runs {
		t.Run(run.slug, func(t *testing.T) {
			args := append(append([]string{}, run.args...), "--dir", dir)
			r := runIn(t, args...)
			if r.code != 0 {
				t.Errorf("exit %d: %s", r.code, r.stderr)
			}
			checkGolden(t, "render/demo-"+run.slug+".golden", transcript(dir, args, r))
		})
	}
}

// TestRenderFindings: exit codes and the findings of a project whose
// schemas providers reject (§3.7 tests 7, 8, 16, 18).
func TestRenderFindings(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"beeuni.yaml":     "tools:\n  web_search: beeuni:web_search\n  paths: tools/paths.ts\n  either: tools/either.ts\n  broken: tools/broken.ts\n",
		"tools/paths.ts":  "export default { description: 'Paths.', parameters: { type: 'object', properties: { paths: { type: 'array' } } }, execute: () => 'ok' }\n",
		"tools/either.ts": "export default { description: 'Either.', parameters: { type: 'object', anyOf: [{ required: ['a'] }, { required: ['b'] }], properties: { a: { type: 'string' }, b: { type: 'string' } } }, execute: () => 'ok' }\n",
		"tools/broken.ts": "export default { description: 'Broken.', parameters: { type: 'object' }, execute() { return 1 }\n",
	})
	cases := []struct {
		name     string
		args     []string
		code     int
		stdout   []string
		stderr   []string
		noStdout string
	}{
		{"openai: array without items, broken module left out", []string{"tools", "render", "--provider", "openai"}, 1,
			[]string{`"name": "web_search"`, `"name": "paths"`, `"name": "either"`},
			[]string{"openai broken: error: not loaded: tools/broken.ts:2:1: Expected \"}\" but found end of file [ALL-LOAD]", "openai paths /properties/paths: error: array schema missing items", "[OA-ARRAY-ITEMS]"}, `"broken"`},
		{"openai-strict: array without items", []string{"tools", "render", "--provider", "openai-strict"}, 1, nil, []string{"[OA-ARRAY-ITEMS]"}, ""},
		{"anthropic: root combinator", []string{"tools", "render", "--provider", "anthropic"}, 1, nil,
			[]string{"anthropic either: error: input_schema does not support oneOf, allOf, or anyOf at the top level (anyOf here)", "[AN-ROOT-COMBINATOR]"}, ""},
		{"gemini: the module that loads renders", []string{"tools", "render", "--provider", "gemini"}, 1, []string{`"name": "either"`}, []string{"gemini broken: error: not loaded"}, ""},
		{"lint: every provider", []string{"tools", "lint"}, 1,
			[]string{"openai paths /properties/paths: error:", "anthropic either: error:", "anthropic-strict broken: error: not loaded", "gemini broken: error: not loaded"}, []string{"errors,"}, ""},
		{"lint: one provider", []string{"tools", "lint", "--provider", "gemini"}, 1, []string{"gemini broken: error: not loaded"}, nil, "openai"},
		{"unknown provider", []string{"tools", "render", "--provider", "x"}, 2, nil,
			[]string{`unknown provider "x": use openai, openai-strict, anthropic, anthropic-strict or gemini`}, ""},
		{"lint unknown provider", []string{"tools", "lint", "--provider", "openai,x"}, 2, nil, []string{`unknown provider "x"`}, ""},
		{"no provider", []string{"tools", "render"}, 2, nil, []string{"tools render needs --provider"}, ""},
		{"--api for anthropic", []string{"tools", "render", "--provider", "anthropic", "--api", "responses"}, 2, nil, []string{"--api applies to --provider openai and openai-strict only"}, ""},
		{"bad --api", []string{"tools", "render", "--provider", "openai", "--api", "x"}, 2, nil, []string{`unknown api "x"`}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runIn(t, append(tc.args, "--dir", dir)...)
			bad := r.code != tc.code || tc.noStdout != "" && strings.Contains(r.stdout, tc.noStdout)
			for _, s := range tc.stdout {
				bad = bad || !strings.Contains(r.stdout, s)
			}
			for _, s := range tc.stderr {
				bad = bad || !strings.Contains(r.stderr, s)
			}
			if bad {
				t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
			}
		})
	}

	// --json: the §3.1 shapes.
	r := runIn(t, "tools", "render", "--provider", "openai", "--api", "responses", "--json", "--dir", dir)
	var out struct {
		Provider, API, Agent string
		Tools                []map[string]any
		Findings             []map[string]any
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Provider != "openai" || out.API != "responses" || out.Agent != "beeuni" || len(out.Tools) != 3 {
		t.Fatalf("render --json: %v %s", err, r.stdout)
	}
	for _, f := range out.Findings {
		if len(f) != 7 || f["source"] == "" || f["rule"] == "" {
			t.Fatalf("finding %v", f)
		}
	}
}

// TestValidateLoadSchemas: validate --load warns about a schema that does
// not compile and a schema a provider would reject, and still passes.
func TestValidateLoadSchemas(t *testing.T) {
	dir := writeProject(t, map[string]string{
		"beeuni.yaml":     "tools:\n  web_search: beeuni:web_search\n  remote: tools/remote.ts\n  paths: tools/paths.ts\n",
		"tools/remote.ts": "export default { description: 'Remote.', parameters: { type: 'object', properties: { a: { $ref: 'https://example.com/a.json' } } }, execute: () => 'ok' }\n",
		"tools/paths.ts":  "export default { description: 'Paths.', parameters: { type: 'object', properties: { paths: { type: 'array' } } }, execute: () => 'ok' }\n",
	})
	r := runIn(t, "validate", "--load", "--dir", dir)
	want := []string{
		`tools/remote.ts: warning: tool remote: parameters is not a valid JSON Schema ($ref https://example.com/a.json is not local: beeuni fetches no schema; copy it under $defs and use "$ref": "#/$defs/..."): calls to it are not checked`,
		"tools/paths.ts: warning: tool paths: openai would reject it at /properties/paths: array schema missing items",
		"tools/paths.ts: warning: tool paths: openai-strict would reject it at /properties/paths:",
		"beeuni.yaml is valid: 3 tools, 3 warnings",
	}
	for _, w := range want {
		if !strings.Contains(r.stdout, w) {
			t.Fatalf("validate --load: exit %d, missing %q in\n%s%s", r.code, w, r.stdout, r.stderr)
		}
	}
	if r.code != 0 {
		t.Fatalf("exit %d", r.code)
	}
}
