package jshost

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/npmcache"
	"github.com/beeuni/beeuni/loader/bundle"
)

// loadSpecs loads one tool per path (name = file base), the modules of
// the legacy folder marked Legacy when legacy is set (the default runtime).
func loadSpecs(tb testing.TB, b *bundle.Bundler, root string, legacy bool, paths ...string) *Set {
	tb.Helper()
	specs := make([]Spec, len(paths))
	for i, p := range paths {
		base := filepath.Base(p)
		specs[i] = Spec{Name: strings.TrimSuffix(base, filepath.Ext(base)), Source: p, Path: p,
			Legacy: legacy && strings.HasPrefix(p, "harnesses/opencode/tools/")}
	}
	s := Load(context.Background(), specs, withDefaults(Options{Root: root, TempDir: tb.TempDir(), Logger: slog.New(slog.DiscardHandler), Bundler: b}))
	tb.Cleanup(s.Close)
	return s
}

func reasons(s *Set) map[string]string {
	m := map[string]string{}
	for _, f := range s.Failures() {
		m[f.Name] = f.Reason
	}
	return m
}

const (
	// searchSchema is what Node prints for z.toJSONSchema(z.object(args))
	// of search.ts's args with @opencode-ai/plugin 1.18.33 (zod 4.1.8).
	searchSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"query":{"description":"What to look for","type":"string"},"limit":{"description":"How many results","default":3,"type":"number"}},"required":["query","limit"],"additionalProperties":false}`
	// badQuery is opencode's answer to search({"query": 5}), zod's words.
	badQuery = "The search tool was called with invalid arguments: [\n  {\n    \"expected\": \"string\",\n    \"code\": \"invalid_type\",\n    \"path\": [\n      \"query\"\n    ],\n    \"message\": \"Invalid input: expected string, received number\"\n  }\n].\nPlease rewrite the input so it satisfies the expected schema."
)

// checkOpencodeForm runs the rules of the opencode form on a project
// holding testdata/opencode's modules and some @opencode-ai/plugin.
func checkOpencodeForm(t *testing.T, root string) {
	t.Helper()
	b := bundle.New(nil) // the second load finds the bundles made by the first
	s := loadSpecs(t, b, root, true, "harnesses/opencode/tools/search.ts", "harnesses/opencode/tools/result.ts")
	mustLoad(t, s)
	if tl, _ := s.Tool("search"); string(tl.Parameters) != searchSchema || tl.Description != "Search the notes" {
		t.Errorf("search: parameters %s, description %q", tl.Parameters, tl.Description)
	}
	cases := []struct{ tool, args, want string }{
		// Defaults apply; the context has opencode's names and beeuni's.
		{"search", `{"query":"notes"}`, `{"args":{"query":"notes","limit":3},"sessionID":"s1","messageID":"","agent":"beeuni","directory":true,"abort":true,"sessionId":"s1","env":"v"}`},
		{"search", `{"query":"notes","limit":1,"extra":true}`, `{"args":{"query":"notes","limit":1},"sessionID":"s1","messageID":"","agent":"beeuni","directory":true,"abort":true,"sessionId":"s1","env":"v"}`},
		// { output, ... } answers its output.
		{"result", `{}`, "n is undefined"},
		{"result", `{"n":2}`, "n is 2"},
	}
	for _, c := range cases {
		if r := call(t, s, c.tool, c.args); r.IsError || r.Output != c.want {
			t.Errorf("%s(%s) = %+v, want %q", c.tool, c.args, r, c.want)
		}
	}
	if r := call(t, s, "search", `{"query":5}`); !r.IsError || r.Output != badQuery {
		t.Errorf("search with a bad query = %q, want zod's words as opencode gives them:\n%s", r.Output, badQuery)
	}
	// Elsewhere (not the legacy folder, or the experimental runtime) the
	// form fails with the reference's conversion advice.
	other := loadSpecs(t, b, root, false, "harnesses/opencode/tools/search.ts", "tools/elsewhere.ts")
	if got := reasons(other); got["search"] != opencodeAdvice || got["elsewhere"] != opencodeAdvice {
		t.Errorf("outside the legacy folder: %q", got)
	}
}

func TestOpencodeForm(t *testing.T) {
	root, err := filepath.Abs("testdata/opencode")
	if err != nil {
		t.Fatal(err)
	}
	checkOpencodeForm(t, root)
	s := loadSpecs(t, nil, root, true, "harnesses/opencode/tools/plain.ts", "harnesses/opencode/tools/ownzod.ts",
		"harnesses/opencode/tools/notzod.ts", "tools/zodparams.ts")
	want := map[string]string{
		"ownzod":    `args could not be rendered to JSON Schema: the module imports no zod this host can find; import { tool } from "@opencode-ai/plugin" and write args with tool.schema`,
		"notzod":    "args.q is not a zod 4 schema: write each argument with tool.schema from @opencode-ai/plugin, e.g. args: { q: tool.schema.string() }",
		"zodparams": "parameters is a zod schema, not JSON Schema: the model reads JSON Schema, so write `parameters: z.toJSONSchema(yourSchema)` (zod 4)",
	}
	if got := reasons(s); len(got) != len(want) || got["ownzod"] != want["ownzod"] || got["notzod"] != want["notzod"] || got["zodparams"] != want["zodparams"] {
		t.Errorf("failures:\n got %q\nwant %q", got, want)
	}
	// The reference's form loads from the folder too; the watch on
	// Function.prototype is gone once the module has loaded.
	if r := call(t, s, "plain", "{}"); r.Output != "plain: false true" {
		t.Errorf("plain = %+v", r)
	}
}

// TestOpencodeFormRealPackages: the same rules with the real
// @opencode-ai/plugin and its zod, from npm.
func TestOpencodeFormRealPackages(t *testing.T) {
	root := t.TempDir()
	for _, dir := range []string{"harnesses", "tools"} {
		if err := os.CopyFS(filepath.Join(root, dir), os.DirFS(filepath.Join("testdata", "opencode", dir))); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	if err := npmcache.Project(ctx, root, "@opencode-ai/plugin@1.18.33"); err != nil {
		if errors.Is(err, npmcache.ErrNoNPM) {
			t.Skip("npm is not on PATH: skipping the opencode form with the real @opencode-ai/plugin (the vendored stand-in runs in TestOpencodeForm)")
		}
		t.Fatal(err)
	}
	checkOpencodeForm(t, root)
}
