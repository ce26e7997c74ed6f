package loader

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader/builtin"
)

// writeTree writes files under a new temp dir; "<dir>" makes a folder.
func writeTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if content == "<dir>" {
			if err := os.MkdirAll(p, 0o755); err != nil {
				tb.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// snapshot reads every file under dir.
func snapshot(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

func TestEject(t *testing.T) {
	src := func(name string) string {
		b, ok := builtin.Source(name)
		if !ok {
			t.Fatalf("no builtin source for %s", name)
		}
		return string(b)
	}
	cases := []struct {
		name     string
		files    map[string]string
		tool     string
		force    bool
		wantFile string            // manifest file changed
		want     map[string]string // files changed or added, exact content
		wantErr  string
	}{
		{
			name:  "reference example: the line is set, every other line stays",
			files: map[string]string{"beeuni.yaml": "# my project\ntools:\n  web_search: beeuni:web_search      # maintained by Beeuni, updated automatically\n  image_search: beeuni:image_search\n  # lookup_order: tools/lookup_order.ts   # your own tool\nagents: {}\n"},
			tool:  "web_search", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":         "# my project\ntools:\n  web_search: tools/web_search.ts # ejected from beeuni:web_search\n  image_search: beeuni:image_search\n  # lookup_order: tools/lookup_order.ts   # your own tool\nagents: {}\n",
				"tools/web_search.ts": src("web_search"),
			},
		},
		{
			name:  "indentation, quoted key, CRLF and no final newline are kept",
			files: map[string]string{"beeuni.yaml": "tools:\r\n    \"memory\": 'beeuni:memory'\r\n    show: beeuni:show"},
			tool:  "show", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":   "tools:\r\n    \"memory\": 'beeuni:memory'\r\n    show: tools/show.ts # ejected from beeuni:show",
				"tools/show.ts": src("show"),
			},
		},
		{
			name:  "entry in an imported file",
			files: map[string]string{"beeuni.yaml": "imports: [conf/tools.yaml]\n", "conf/tools.yaml": "tools:\n  memory: beeuni:memory # keep\n  show: beeuni:show\n"},
			tool:  "memory", wantFile: "conf/tools.yaml",
			want: map[string]string{
				"conf/tools.yaml": "tools:\n  memory: tools/memory.ts # ejected from beeuni:memory\n  show: beeuni:show\n",
				"tools/memory.ts": src("memory"),
			},
		},
		{
			name:  "no tools key: a block with the other four is appended",
			files: map[string]string{"beeuni.yaml": "# comment\nagents:\n  a:\n    tools: all"},
			tool:  "scrape_webpage", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml": "# comment\nagents:\n  a:\n    tools: all\n\ntools:\n  web_search: beeuni:web_search\n  image_search: beeuni:image_search\n" +
					"  scrape_webpage: tools/scrape_webpage.ts # ejected from beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n",
				"tools/scrape_webpage.ts": src("scrape_webpage"),
			},
		},
		{
			name:  "empty manifest",
			files: map[string]string{"beeuni.yaml": ""},
			tool:  "image_search", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":           "tools:\n  web_search: beeuni:web_search\n  image_search: tools/image_search.ts # ejected from beeuni:image_search\n  scrape_webpage: beeuni:scrape_webpage\n  memory: beeuni:memory\n  show: beeuni:show\n",
				"tools/image_search.ts": src("image_search"),
			},
		},
		{
			name:  "removed tool is added under the root tools key",
			files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show # the UI\n\nagents: {}\n"},
			tool:  "memory", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":     "tools:\n  show: beeuni:show # the UI\n  memory: tools/memory.ts # ejected from beeuni:memory\n\nagents: {}\n",
				"tools/memory.ts": src("memory"),
			},
		},
		{
			name:  "removed tool, empty tools key",
			files: map[string]string{"beeuni.yaml": "tools: # nothing yet\nagents: {}\n"},
			tool:  "memory", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":     "tools:\n  memory: tools/memory.ts # ejected from beeuni:memory\nagents: {}\n",
				"tools/memory.ts": src("memory"),
			},
		},
		{
			name:  "removed tool, tools: {}",
			files: map[string]string{"beeuni.yaml": "tools: {}\n"},
			tool:  "show", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":   "tools:\n  show: tools/show.ts # ejected from beeuni:show\n",
				"tools/show.ts": src("show"),
			},
		},
		{
			name:  "removed tool, tools key only in an import: the root gets one",
			files: map[string]string{"beeuni.yaml": "imports: [t.yaml]\n", "t.yaml": "tools:\n  show: beeuni:show\n"},
			tool:  "memory", wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":     "imports: [t.yaml]\n\ntools:\n  memory: tools/memory.ts # ejected from beeuni:memory\n",
				"tools/memory.ts": src("memory"),
			},
		},
		{
			name:  "--force overwrites an existing file",
			files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n", "tools/show.ts": "old"},
			tool:  "show", force: true, wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":   "tools:\n  show: tools/show.ts # ejected from beeuni:show\n",
				"tools/show.ts": src("show"),
			},
		},
		{
			name:  "--force replaces a module the tool points at",
			files: map[string]string{"beeuni.yaml": "tools:\n  show: lib/show.ts # mine\n", "lib/show.ts": "mine"},
			tool:  "show", force: true, wantFile: "beeuni.yaml",
			want: map[string]string{
				"beeuni.yaml":   "tools:\n  show: tools/show.ts # ejected from beeuni:show\n",
				"tools/show.ts": src("show"),
			},
		},
		{
			name:  "the copy of an earlier eject was deleted: written again",
			files: map[string]string{"beeuni.yaml": "tools:\n  show: tools/show.ts # ejected from beeuni:show\n  memory: beeuni:memory\n"},
			tool:  "show", wantFile: "beeuni.yaml",
			want: map[string]string{"tools/show.ts": src("show")},
		},
		{
			name:  "an entry set by hand to tools/NAME.ts whose file is missing",
			files: map[string]string{"beeuni.yaml": "tools:\n  show: tools/show.ts\n"},
			tool:  "show", wantFile: "beeuni.yaml",
			want: map[string]string{"beeuni.yaml": "tools:\n  show: tools/show.ts # ejected from beeuni:show\n", "tools/show.ts": src("show")},
		},
		{name: "refuses an existing copy of an earlier eject", files: map[string]string{"beeuni.yaml": "tools:\n  show: tools/show.ts # ejected from beeuni:show\n", "tools/show.ts": "mine"}, tool: "show",
			wantErr: "tools/show.ts already exists: move it away, or pass --force to overwrite it with the Beeuni source"},
		{name: "refuses a tool that points at another module that is missing", files: map[string]string{"beeuni.yaml": "tools:\n  show: lib/show.ts\n"}, tool: "show",
			wantErr: "beeuni.yaml has errors: fix them first (run beeuni validate)\n  beeuni.yaml:2: error: `show: lib/show.ts`: lib/show.ts does not exist"},
		{name: "refuses an existing file", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n", "tools/show.ts": "old"}, tool: "show",
			wantErr: "tools/show.ts already exists: move it away, or pass --force to overwrite it with the Beeuni source"},
		{name: "refuses a tool that points at a module", files: map[string]string{"beeuni.yaml": "tools:\n  show: lib/show.ts\n", "lib/show.ts": ""}, tool: "show",
			wantErr: "show already points at the module lib/show.ts (beeuni.yaml:2): pass --force to point it at tools/show.ts and write the Beeuni source there"},
		{name: "refuses a name that is not a Beeuni tool", files: map[string]string{"beeuni.yaml": ""}, tool: "lookup",
			wantErr: "`lookup` is not a Beeuni tool: eject one of web_search, image_search, scrape_webpage, memory, show"},
		{name: "refuses a manifest with errors", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:memory\n"}, tool: "show",
			wantErr: "beeuni.yaml has errors: fix them first (run beeuni validate)\n  beeuni.yaml:2: error: must be `beeuni:show`"},
		{name: "refuses with no manifest", files: map[string]string{}, tool: "show",
			wantErr: "no beeuni.yaml at the project root: create one, or pass --dir with the folder that holds it"},
		{name: "refuses a flow-style tools map", files: map[string]string{"beeuni.yaml": "tools: {show: beeuni:show}\n"}, tool: "show",
			wantErr: "beeuni.yaml:1: eject edits one `name: source` line of a block mapping: write `tools:` with one entry per line (`show: beeuni:show`) and run eject again"},
		{name: "refuses a flow-style root", files: map[string]string{"beeuni.yaml": "{agents: {}}\n"}, tool: "show",
			wantErr: "beeuni.yaml is written in flow style ({...}): write it as block YAML, one key per line, and run eject again"},
		{name: "refuses when tools/NAME.ts is a folder", files: map[string]string{"beeuni.yaml": "", "tools/show.ts": "<dir>"}, tool: "show", force: true,
			wantErr: "tools/show.ts is a folder: move it away so eject can write the module there"},
		{name: "refuses when tools is a file", files: map[string]string{"beeuni.yaml": "", "tools": "x"}, tool: "show",
			wantErr: "tools is a file, not a folder: move it away so eject can write tools/show.ts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTree(t, tc.files)
			before := snapshot(t, dir)
			res, err := Eject(dir, tc.tool, tc.force)
			after := snapshot(t, dir)
			if tc.wantErr != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want prefix %q", err, tc.wantErr)
				}
				if len(after) != len(before) {
					t.Errorf("a refused eject changed the tree: %v", after)
				}
				for k, v := range before {
					if after[k] != v {
						t.Errorf("a refused eject changed %s", k)
					}
				}
				return
			}
			if err != nil {
				t.Fatalf("Eject: %v", err)
			}
			want := EjectResult{Name: tc.tool, Module: "tools/" + tc.tool + ".ts", File: tc.wantFile}
			if res != want {
				t.Errorf("result = %+v, want %+v", res, want)
			}
			for k, v := range before {
				if w, changed := tc.want[k]; changed {
					v = w
				}
				if after[k] != v {
					t.Errorf("%s:\n got %q\nwant %q", k, after[k], v)
				}
			}
			for k, v := range tc.want {
				if after[k] != v {
					t.Errorf("%s:\n got %q\nwant %q", k, after[k], v)
				}
			}
			if len(after) != len(before)+countNew(before, tc.want) {
				t.Errorf("unexpected files: %v", keys(after))
			}
			p := Read(os.DirFS(dir), HarnessExperimental)
			if tool, _ := p.Tool(tc.tool); tool.Source != want.Module || tool.Kind != KindOverridden || p.HasErrors() {
				t.Errorf("after eject: tool %+v, findings %v", tool, findingStrings(p))
			}
		})
	}
}

func countNew(before, want map[string]string) int {
	n := 0
	for k := range want {
		if _, ok := before[k]; !ok {
			n++
		}
	}
	return n
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestEjectSourceMatchesBuiltin(t *testing.T) {
	for _, name := range builtin.Names() {
		dir := writeTree(t, map[string]string{"beeuni.yaml": ""})
		if _, err := Eject(dir, name, false); err != nil {
			t.Fatalf("Eject(%s): %v", name, err)
		}
		got, err := os.ReadFile(filepath.Join(dir, "tools", name+".ts"))
		want, _ := builtin.Source(name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: tools/%s.ts differs from builtin.Source (err %v)", name, name, err)
		}
	}
}

func TestEjectManifestErrorType(t *testing.T) {
	dir := writeTree(t, map[string]string{"beeuni.yaml": "tools: [x]\n"})
	_, err := Eject(dir, "show", false)
	var me *ManifestError
	if !errors.As(err, &me) || len(me.Findings) == 0 {
		t.Fatalf("error = %v, want *ManifestError with findings", err)
	}
}
