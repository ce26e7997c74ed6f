package jshost

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/beeuni/beeuni/loader/bundle"
)

func twentyModules(tb testing.TB) (string, []Spec) {
	tb.Helper()
	files := map[string]string{"tools/lib/util.ts": "export const shout = (s: string): string => s.toUpperCase()\n"}
	var specs []Spec
	for i := range 20 {
		p := fmt.Sprintf("tools/t%02d.ts", i)
		files[p] = fmt.Sprintf("import { shout } from './lib/util'\nexport default { description: 'tool %d', parameters: { type: 'object', properties: { q: { type: 'string' } } }, async execute(a: { q: string }) { return shout(a.q) } }\n", i)
		specs = append(specs, Spec{Name: fmt.Sprintf("t%02d", i), Source: p, Path: p})
	}
	return project(tb, files), specs
}

func BenchmarkLoad20Cold(b *testing.B) {
	root, specs := twentyModules(b)
	opts := Options{Root: root, Logger: slog.New(slog.DiscardHandler)}
	for b.Loop() {
		opts.Bundler = bundle.New(nil)
		s := Load(context.Background(), specs, opts)
		if len(s.Failures()) > 0 {
			b.Fatal(s.Failures())
		}
		s.Close()
	}
}

func BenchmarkLoad20Cached(b *testing.B) {
	root, specs := twentyModules(b)
	opts := Options{Root: root, Logger: slog.New(slog.DiscardHandler), Bundler: bundle.New(nil)}
	Load(context.Background(), specs, opts).Close()
	for b.Loop() {
		s := Load(context.Background(), specs, opts)
		if len(s.Failures()) > 0 {
			b.Fatal(s.Failures())
		}
		s.Close()
	}
}

func benchCall(b *testing.B, exec string) {
	benchCallWant(b, exec, "x!")
}

// benchCallWant calls a tool with an environment the size of a typical
// process environment, as the executor passes it.
func benchCallWant(b *testing.B, exec, want string) { benchModule(b, tool(exec), want) }

// benchModule is benchCallWant with the module's whole source.
func benchModule(b *testing.B, src, want string) {
	s, _ := loadTools(b, project(b, map[string]string{"tools/t.ts": src}), Options{}, "tools/t.ts")
	mustLoad(b, s)
	args := json.RawMessage(`{"q":"x"}`)
	env := map[string]string{}
	for i := range 40 {
		env[fmt.Sprintf("VARIABLE_%02d", i)] = strings.Repeat("v", 30)
	}
	cc := CallContext{SessionID: "s", Agent: "a", Env: env}
	for b.Loop() {
		r, err := s.Call(context.Background(), "t", args, cc)
		if err != nil || (want != "" && r.Output != want) {
			b.Fatal(r, err)
		}
	}
}

func BenchmarkCallSync(b *testing.B) { benchCall(b, "execute(a) { return a.q + '!' }") }
func BenchmarkCallAsync(b *testing.B) {
	benchCall(b, "async execute(a) { await null; return a.q + '!' }")
}

func BenchmarkCallAsyncTimer(b *testing.B) {
	benchCall(b, "async execute(a) { await new Promise((r) => setTimeout(r, 0)); return a.q + '!' }")
}

// BenchmarkCallEnv reads context.env and context.signal.
func BenchmarkCallEnv(b *testing.B) {
	benchCall(b, "execute(a, c) { return c.signal.aborted ? '' : a.q + (c.env.VARIABLE_01 ? '!' : '?') }")
}

// BenchmarkCallJSON returns about 10 KB of JSON, as the bench's catalog tool.
func BenchmarkCallJSON(b *testing.B) {
	benchCallWant(b, `execute(a) {
		const items = []
		for (let i = 0; i < 64; i++) {
			items.push({ id: i, sku: 'SKU-' + (1000 + i), name: 'Catalog item number ' + i, price: Math.round(i * 1.37 * 100) / 100,
				tags: ['bench', i % 2 ? 'odd' : 'even'], stock: i % 3 !== 0 })
		}
		return { page: 1, items }
	}`, "")
}

func FuzzHeadOf(f *testing.F) {
	f.Add("a\nb\nc", 3, 2)
	f.Add("ééé", 3, 1)
	f.Fuzz(func(t *testing.T, s string, maxBytes, maxLines int) {
		if maxBytes < 1 || maxLines < 1 || maxBytes > 1<<20 {
			return
		}
		h := headOf(s, maxBytes, maxLines)
		if !strings.HasPrefix(s, h) || len(h) > maxBytes || (countLines(h) > maxLines && strings.Contains(h, "\n")) {
			t.Fatalf("headOf(%q, %d, %d) = %q", s, maxBytes, maxLines, h)
		}
		if utf8.ValidString(s) && !utf8.ValidString(h) {
			t.Fatalf("head cut inside a character: %q", h)
		}
	})
}

// BenchmarkCallParse parses about 10 KB of JSON a call, as a tool that
// reads a JSON response (response.json() is JSON.parse), and returns a
// little of it.
func BenchmarkCallParse(b *testing.B) {
	benchModule(b, `const items = []
for (let i = 0; i < 64; i++) {
  items.push({ id: i, sku: 'SKU-' + (1000 + i), name: 'Catalog item number ' + i, price: Math.round(i * 1.37 * 100) / 100,
    tags: ['bench', i % 2 ? 'odd' : 'even'], stock: i % 3 !== 0 })
}
const text = JSON.stringify({ page: 1, items }, null, 2)
export default { description: 'd', parameters: { type: 'object' }, execute(a) {
  const v = JSON.parse(text)
  return v.items.filter((x) => x.stock).map((x) => x.sku).join(',').length + a.q
} }
`, "")
}
