package builtin_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/builtin"
	"github.com/beeuni/beeuni/loader/jshost"
)

func TestNamesIsSourcePath(t *testing.T) {
	want := []string{"web_search", "image_search", "scrape_webpage", "memory", "show"}
	if got := builtin.Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	// Names returns a copy: changing it changes nothing here.
	builtin.Names()[0] = "changed"
	if builtin.Names()[0] != "web_search" {
		t.Fatal("Names() shares its backing array")
	}
	for _, name := range want {
		if !builtin.Is(name) {
			t.Errorf("Is(%q) = false", name)
		}
		src, ok := builtin.Source(name)
		if !ok || len(src) == 0 {
			t.Errorf("Source(%q) = %d bytes, %v", name, len(src), ok)
		}
		if got := builtin.Path(name); got != "beeuni/tools/"+name+".ts" {
			t.Errorf("Path(%q) = %q", name, got)
		}
	}
	for _, name := range []string{"", "bash", "Web_search", "web_search.ts", "../web_search", "lookup_order"} {
		if builtin.Is(name) {
			t.Errorf("Is(%q) = true", name)
		}
		if _, ok := builtin.Source(name); ok {
			t.Errorf("Source(%q) found a source", name)
		}
	}
}

// The sources are what `beeuni tools eject` writes into a project: they must
// run there as they are, so they import node:* only and read the environment
// from context.env only.
func TestSourcesAreSelfContained(t *testing.T) {
	importRe := regexp.MustCompile(`(?m)^\s*import\b[^'"]*['"]([^'"]+)['"]|\brequire\(\s*['"]([^'"]+)['"]`)
	for _, name := range builtin.Names() {
		src, _ := builtin.Source(name)
		text := string(src)
		for _, m := range importRe.FindAllStringSubmatch(text, -1) {
			spec := m[1] + m[2]
			if !strings.HasPrefix(spec, "node:") {
				t.Errorf("%s imports %q: the Beeuni sources may import node:* modules only", name, spec)
			}
		}
		if strings.Contains(text, "process.env") {
			t.Errorf("%s reads process.env: read context.env, which has the secrets changed after boot", name)
		}
		if !strings.Contains(text, "export default {") {
			t.Errorf("%s has no `export default {`", name)
		}
		if !strings.HasPrefix(text, "// "+name+": ") {
			t.Errorf("%s does not start with a `// %s: ...` comment", name, name)
		}
	}
}

// web_search and image_search are one template rendered twice: each source
// is whole (no template left), calls its own endpoint and names itself only.
func TestSearchToolsRendered(t *testing.T) {
	for _, tc := range []struct{ name, other string }{{"web_search", "image_search"}, {"image_search", "web_search"}} {
		src, _ := builtin.Source(tc.name)
		text := string(src)
		if strings.Contains(text, "{{") || strings.Contains(text, "}}") {
			t.Errorf("%s holds template text", tc.name)
		}
		for _, want := range []string{"const ENDPOINT = '/v1/" + tc.name + "'", "`beeuni tools eject " + tc.name + "`", "throw new Error(`" + tc.name + " API answered"} {
			if !strings.Contains(text, want) {
				t.Errorf("%s lacks %q", tc.name, want)
			}
		}
		if strings.Contains(text, tc.other) {
			t.Errorf("%s names %s", tc.name, tc.other)
		}
		// Source hands out copies: changing one changes nothing here.
		src[0] = 'X'
		if again, _ := builtin.Source(tc.name); again[0] != '/' {
			t.Errorf("Source(%q) shares its bytes", tc.name)
		}
	}
}

// Every Beeuni tool loads through the real host with a description, an object
// schema that lists its arguments.
func TestAllToolsLoad(t *testing.T) {
	var specs []jshost.Spec
	for _, name := range builtin.Names() {
		src, _ := builtin.Source(name)
		specs = append(specs, jshost.Spec{Name: name, Source: "beeuni:" + name, Code: src})
	}
	set := jshost.Load(context.Background(), specs, jshost.Options{Root: t.TempDir(), TempDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(set.Close)
	if f := set.Failures(); len(f) > 0 {
		t.Fatalf("failures: %+v", f)
	}
	args := map[string][]string{
		"web_search":     {"query"},
		"image_search":   {"query"},
		"scrape_webpage": {"url"},
		"memory":         {"command", "path", "file_text", "old_str", "new_str", "insert_line", "insert_text", "old_path", "new_path"},
		"show":           {"type", "path", "url", "content", "items"},
	}
	tools := set.Tools()
	if len(tools) != len(args) {
		t.Fatalf("loaded %d tools, want %d", len(tools), len(args))
	}
	for i, tool := range tools {
		if tool.Name != builtin.Names()[i] || tool.Source != "beeuni:"+tool.Name {
			t.Errorf("tool %d = %s (%s), want %s in the reference's order", i, tool.Name, tool.Source, builtin.Names()[i])
		}
		if len(tool.Description) < 40 {
			t.Errorf("%s: description %q is too short to tell a model when to call it", tool.Name, tool.Description)
		}
		var schema struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
		}
		if err := json.Unmarshal(tool.Parameters, &schema); err != nil {
			t.Fatalf("%s: parameters: %v", tool.Name, err)
		}
		if schema.Type != "object" {
			t.Errorf("%s: parameters type %q, want object", tool.Name, schema.Type)
		}
		for _, arg := range args[tool.Name] {
			if _, ok := schema.Properties[arg]; !ok {
				t.Errorf("%s: parameters have no %q (the web UI view reads it)", tool.Name, arg)
			}
		}
		if len(schema.Required) == 0 || schema.Properties[schema.Required[0]] == nil {
			t.Errorf("%s: required %v does not name a property", tool.Name, schema.Required)
		}
	}
}
