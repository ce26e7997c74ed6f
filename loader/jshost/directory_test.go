package jshost

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Modules resolve in Root (the release), while context.directory,
// process.cwd() and relative fs paths are the checkout (Directory), so what
// a tool writes survives the next release.
func TestDirectoryApartFromRoot(t *testing.T) {
	root := project(t, map[string]string{
		"tools/where.ts": `import { writeFileSync } from 'node:fs'
import * as path from 'node:path'
export default {
  description: 'Where am I?',
  parameters: { type: 'object' },
  execute(_args: any, ctx: any) {
    writeFileSync('memory.txt', 'kept')
    return [ctx.directory, process.cwd(), path.resolve('x')].join('|')
  },
}
`,
	})
	checkout := t.TempDir()
	s, _ := loadTools(t, root, Options{Directory: checkout}, "tools/where.ts")
	mustLoad(t, s)
	r := call(t, s, "where", "{}")
	want := strings.Join([]string{checkout, checkout, filepath.Join(checkout, "x")}, "|")
	if r.IsError || r.Output != want {
		t.Fatalf("got %+v, want %q", r, want)
	}
	if b, err := os.ReadFile(filepath.Join(checkout, "memory.txt")); err != nil || string(b) != "kept" {
		t.Fatalf("relative write did not land in the checkout: %q, %v", b, err)
	}
	if _, err := os.Stat(filepath.Join(root, "memory.txt")); err == nil {
		t.Fatal("relative write landed in the release folder")
	}
}
