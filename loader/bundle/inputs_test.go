package bundle

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestInputs(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"tools/a.ts":                    "import { h } from './h'\nimport { z } from 'zod'\nexport default { h, z }\n",
		"tools/h.ts":                    "export const h = 1\n",
		"tools/broken.ts":               "import { h } from './h'\nimport { m } from './missing'\nexport default { h, m }\n",
		"tools/unused.ts":               "export const u = 1\n",
		"node_modules/zod/package.json": `{"name": "zod", "main": "lib/index.js"}`,
		"node_modules/zod/lib/index.js": "exports.z = 1\n",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		entry string
		want  []string
	}{
		{"tools/a.ts", []string{"node_modules/zod/lib/index.js", "tools/a.ts", "tools/h.ts"}},
		// A build that fails still lists what it read.
		{"tools/broken.ts", []string{"tools/broken.ts", "tools/h.ts"}},
	}
	for _, tc := range cases {
		got, err := New(nil).Inputs(root, tc.entry)
		if err != nil || !slices.Equal(got, tc.want) {
			t.Errorf("Inputs(%s) = %q, %v; want %q", tc.entry, got, err, tc.want)
		}
	}
}
