package loader

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/beeuni/beeuni/loader/builtin"
)

func addSeeds(f *testing.F) {
	f.Helper()
	for _, glob := range []string{"testdata/manifests/*.yaml", "../examples/demo/*.yaml"} {
		paths, _ := filepath.Glob(glob)
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data, []byte("tools:\n  greet: tools/lookup_order.ts\n"))
			}
		}
	}
	f.Add([]byte(visManifest), []byte("imports: [beeuni.yaml]\n"))
	f.Add([]byte("imports: [more.yaml]\ntools: {}\n"), []byte("agents:\n  a: {tools: {exclude: [x]}}\n"))
	f.Add([]byte("a: &a [*a]\ntools: *a\n"), []byte{0xff, 0})
}

// FuzzRead: no input makes Read panic, every finding is located and worded,
// and the tool set is consistent.
func FuzzRead(f *testing.F) {
	addSeeds(f)
	f.Fuzz(func(t *testing.T, manifest, imported []byte) {
		fsys := fstest.MapFS{
			"beeuni.yaml":                       {Data: manifest},
			"more.yaml":                         {Data: imported},
			"agents.yaml":                       {Data: imported},
			"tools/lookup_order.ts":             {Data: []byte("export default {}")},
			"harnesses/opencode/tools/show.ts":  {Data: []byte("x")},
			"harnesses/opencode/tools/greet.ts": {Data: []byte("x")},
		}
		for _, h := range []Harness{HarnessDefault, HarnessExperimental} {
			p := Read(fsys, h)
			seen := map[string]bool{}
			for _, tool := range p.Tools {
				if seen[tool.Name] {
					t.Fatalf("tool %s listed twice", tool.Name)
				}
				seen[tool.Name] = true
				if tool.Source == "" || tool.Kind == "" {
					t.Fatalf("tool %+v has no source or kind", tool)
				}
			}
			for _, r := range p.Removed {
				if seen[r] || !builtin.Is(r) {
					t.Fatalf("removed %s is loaded or not a Beeuni tool", r)
				}
			}
			for _, fd := range p.Findings {
				if fd.File == "" || fd.Line < 0 || fd.Message == "" || (fd.Severity != SeverityError && fd.Severity != SeverityWarning) {
					t.Fatalf("bad finding %+v", fd)
				}
				if strings.Contains(fd.Message, "panic") {
					t.Fatalf("finding reports a panic: %s", fd)
				}
			}
			for _, a := range append(p.Agents(), "undeclared") {
				p.Visible(a, "bash")
				p.SubagentVisible(a, "undeclared", "pty_x")
				p.Secrets(a)
			}
		}
		// Eject plans never panic and, when they succeed, read back clean
		// (planEject checks that itself).
		for _, name := range []string{"web_search", "show"} {
			_, _ = planEject(fsys, name, false)
		}
	})
}
