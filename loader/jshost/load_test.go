package jshost

import (
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestLoadFailures(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.ts"), []byte("export const x = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := filepath.Rel(filepath.Join(t.TempDir(), "tools"), filepath.Join(outside, "secret.ts"))
	if err != nil {
		t.Fatal(err)
	}
	_ = rel
	good := "export default { description: 'ok', parameters: { type: 'object' }, execute() { return 'ok' } }\n"
	cases := []struct {
		name, file, src, want string
	}{
		{"missing", "tools/missing.ts", "", "tools/missing.ts: file not found"},
		{"nodefault", "tools/nodefault.ts", "export const description = 'x'\n", "no default export"},
		{"nodesc", "tools/nodesc.ts", "export default { parameters: { type: 'object' }, execute() {} }\n", "description must be a non-empty string"},
		{"emptydesc", "tools/emptydesc.ts", "export default { description: ' ', parameters: { type: 'object' }, execute() {} }\n", "description must be a non-empty string"},
		{"badparams", "tools/badparams.ts", "export default { description: 'x', parameters: { type: 'string' }, execute() {} }\n", `parameters must be a JSON Schema with type "object"`},
		{"noparams", "tools/noparams.ts", "export default { description: 'x', execute() {} }\n", `parameters must be a JSON Schema with type "object"`},
		{"noexec", "tools/noexec.ts", "export default { description: 'x', parameters: { type: 'object' } }\n", "execute must be a function"},
		{"badtimeout", "tools/badtimeout.ts", "export default { description: 'x', parameters: { type: 'object' }, execute() {}, timeout: -5 }\n", "timeout must be a positive number of milliseconds"},
		{"syntax", "tools/syntax.ts", "export default {\n  description: 'x',\n  a: 1 }}\n", `tools/syntax.ts:3:9: Unexpected "}"`},
		{"throws", "tools/throws.ts", "throw new Error('config is missing')\n" + good, "error at import: tools/throws.ts:1:7: config is missing"},
		{"nopkg", "tools/nopkg.ts", "import { z } from 'zod'\nexport default { description: String(z), parameters: { type: 'object' }, execute() {} }\n", "Cannot find package 'zod'"},
		{"nodemod", "tools/nodemod.ts", "import { Session } from 'node:inspector'\nexport default { description: String(Session), parameters: { type: 'object' }, execute() {} }\n", "node:inspector is not available to tools"},
		{"barenode", "tools/barenode.ts", "import dgram from 'dgram'\nexport default { description: String(dgram), parameters: { type: 'object' }, execute() {} }\n", "node:dgram is not available to tools"},
		{"escape", "tools/escape.ts", "import { x } from '../../" + filepath.Base(outside) + "/secret'\nexport default { description: String(x), parameters: { type: 'object' }, execute() {} }\n", "resolves outside the project root"},
		{"tla", "tools/tla.ts", "await Promise.resolve(1)\n" + good, "Top-level await"},
	}
	files := map[string]string{"tools/good.ts": good}
	paths := []string{"tools/good.ts"}
	for _, c := range cases {
		if c.src != "" {
			files[c.file] = c.src
		}
		paths = append(paths, c.file)
	}
	// The project lives next to outside so "../../<outside>" climbs out of it.
	root := filepath.Join(filepath.Dir(outside), "proj-"+filepath.Base(t.TempDir()))
	for p, c := range files {
		full := filepath.Join(root, p)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(root) })
	s, logs := loadTools(t, root, Options{}, paths...)
	if got := s.Tools(); len(got) != 1 || got[0].Name != "good" || got[0].Description != "ok" {
		t.Fatalf("tools = %+v, want only good", got)
	}
	fails := map[string]Failure{}
	for _, f := range s.Failures() {
		fails[f.Name] = f
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f, ok := fails[c.name]
			if !ok {
				t.Fatalf("%s loaded; want failure %q", c.name, c.want)
			}
			if !strings.Contains(f.Reason, c.want) || strings.Contains(f.Reason, "\n") {
				t.Fatalf("reason = %q, want one line containing %q", f.Reason, c.want)
			}
			if f.Source != c.file {
				t.Fatalf("source = %q, want %q", f.Source, c.file)
			}
		})
	}
	if got := fails["nopkg"].Reason; got != "Cannot find package 'zod'" {
		t.Errorf("missing package reason = %q, want exactly Cannot find package 'zod'", got)
	}
	// One log record lists every failure.
	var records []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(logs.String()), "\n") {
		var rec map[string]any
		if json.Unmarshal([]byte(line), &rec) == nil && rec["msg"] == "[tools] project tools that did not load" {
			records = append(records, rec)
		}
	}
	if len(records) != 1 {
		t.Fatalf("got %d failure records, want 1: %s", len(records), logs.String())
	}
	for _, c := range cases {
		g, ok := records[0][c.name].(map[string]any)
		if !ok || g["source"] != c.file || !strings.Contains(g["reason"].(string), c.want) {
			t.Errorf("log record lacks %s: %v", c.name, records[0][c.name])
		}
	}
	if r := call(t, s, "good", "{}"); r.Output != "ok" || r.IsError {
		t.Fatalf("good = %+v", r)
	}
}

func TestVendoredPackage(t *testing.T) {
	root, err := filepath.Abs("testdata/vendored")
	if err != nil {
		t.Fatal(err)
	}
	s, _ := loadTools(t, root, Options{}, "tools/sub/slugify.ts")
	mustLoad(t, s)
	tool, _ := s.Tool("slugify")
	var schema map[string]any
	if err := json.Unmarshal(tool.Parameters, &schema); err != nil || schema["type"] != "object" {
		t.Fatalf("parameters = %s", tool.Parameters)
	}
	if r := call(t, s, "slugify", `{"title":"Hello, World!"}`); r.Output != "hello-world.md" || r.IsError {
		t.Fatalf("slugify = %+v", r)
	}
}

func TestCachedLoadReusesMeta(t *testing.T) {
	root := project(t, map[string]string{"tools/count.ts": `
let n = 0
globalThis.__loads = (globalThis.__loads || 0) + 1
export default { description: 'count', parameters: { type: 'object' }, timeout: 1500, execute() { n++; return String(n) } }`})
	opts := Options{}
	s1, _ := loadTools(t, root, opts, "tools/count.ts")
	mustLoad(t, s1)
	if r := call(t, s1, "count", "{}"); r.Output != "1" {
		t.Fatalf("first call = %+v", r)
	}
	if tool, _ := s1.Tool("count"); tool.Timeout.Milliseconds() != 1500 {
		t.Fatalf("timeout = %v", tool.Timeout)
	}
	// A second set shares the bundler: same tool, fresh runtimes.
	opts.Bundler = s1.opts.Bundler
	s2, _ := loadTools(t, root, opts, "tools/count.ts")
	mustLoad(t, s2)
	if tool, _ := s2.Tool("count"); tool.Description != "count" || tool.Timeout.Milliseconds() != 1500 {
		t.Fatalf("cached tool = %+v", tool)
	}
	if r := call(t, s2, "count", "{}"); r.Output != "1" {
		t.Fatalf("second set's first call = %+v (state leaked between sets)", r)
	}
}

func TestBuiltinStyleSource(t *testing.T) {
	src := []byte("import { join } from 'node:path'\nexport default { description: 'mem', parameters: { type: 'object', properties: {} }, execute(a: unknown, c: { directory: string }) { return join(c.directory, 'memory') } }\n")
	bad := []byte("import x from './other'\nexport default { description: x, parameters: { type: 'object' }, execute() {} }\n")
	root := t.TempDir()
	s := Load(t.Context(), []Spec{
		{Name: "memory", Source: "beeuni:memory", Code: src},
		{Name: "show", Source: "beeuni:show", Code: bad},
	}, Options{Root: root, TempDir: t.TempDir(), Logger: slog.New(slog.DiscardHandler)})
	t.Cleanup(s.Close)
	if len(s.Tools()) != 1 || len(s.Failures()) != 1 || !strings.Contains(s.Failures()[0].Reason, "node: modules only") {
		t.Fatalf("tools %+v failures %+v", s.Tools(), s.Failures())
	}
	if r := call(t, s, "memory", "{}"); r.Output != filepath.Join(root, "memory") {
		t.Fatalf("memory = %+v", r)
	}
}

func TestImportNeverEnds(t *testing.T) {
	root := project(t, map[string]string{
		"tools/loop.ts": "for (;;) {}\nexport default { description: 'x', parameters: { type: 'object' }, execute() {} }\n",
		"tools/ok.ts":   "export default { description: 'ok', parameters: { type: 'object' }, execute() { return 'ok' } }\n",
	})
	opts := Options{DefaultTimeout: 100 * time.Millisecond}
	s, _ := loadTools(t, root, opts, "tools/loop.ts", "tools/ok.ts")
	f := s.Failures()
	if len(f) != 1 || f[0].Reason != "error at import: the module did not finish evaluating within 100ms" {
		t.Fatalf("failures = %+v", f)
	}
	if r := call(t, s, "ok", "{}"); r.Output != "ok" {
		t.Fatalf("ok = %+v", r)
	}
	// A stopped evaluation is not remembered: the next load tries again.
	opts.Bundler = s.opts.Bundler
	s2, _ := loadTools(t, root, opts, "tools/loop.ts")
	if f := s2.Failures(); len(f) != 1 || !strings.Contains(f[0].Reason, "did not finish evaluating") {
		t.Fatalf("second load failures = %+v", f)
	}
}
