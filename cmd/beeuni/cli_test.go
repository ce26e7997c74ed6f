package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/builtin"
)

// The reference's `beeuni tools ls` output, verbatim.
const referenceLs = "NAME            KIND                 SOURCE\n" +
	"web_search      beeuni (overridden)  tools/web_search.ts\n" +
	"scrape_webpage  beeuni               beeuni:scrape_webpage\n" +
	"memory          beeuni               beeuni:memory\n" +
	"show            beeuni               beeuni:show\n" +
	"lookup_order    project              tools/lookup_order.ts\n" +
	"\n" +
	"Removed Beeuni tools: image_search\n" +
	"Add `<name>: beeuni:<name>` under `tools:` to get one back.\n"

// The reference's `beeuni tools eject web_search` output, verbatim.
const referenceEject = `  ✓  Ejected web_search
  wrote   tools/web_search.ts (the Beeuni source, now the project's to change)
  set     beeuni.yaml: tools.web_search: tools/web_search.ts

Next:
  1. Edit tools/web_search.ts. Keep the default export: { description, parameters, execute(args, context) }.
  2. beeuni validate
  3. git add tools/web_search.ts beeuni.yaml && git commit -m "Own the web_search tool"
  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the web_search tool"
Sessions load the copy after the change request merges.
`

func TestToolsLsMatchesReference(t *testing.T) {
	r := runIn(t, "tools", "ls", "--dir", "testdata/projects/reference")
	if r.code != 0 || r.stdout != referenceLs || r.stderr != "" {
		t.Fatalf("tools ls: exit %d\n%s\nstderr: %s\nwant:\n%s", r.code, r.stdout, r.stderr, referenceLs)
	}
}

func TestToolsLsJSON(t *testing.T) {
	for _, tc := range []struct {
		project string
		want    string
	}{
		{"reference", `{"manifest":"beeuni.yaml","tools_key":true,"tools":[{"name":"web_search","kind":"beeuni (overridden)","source":"tools/web_search.ts"},{"name":"scrape_webpage","kind":"beeuni","source":"beeuni:scrape_webpage"},{"name":"memory","kind":"beeuni","source":"beeuni:memory"},{"name":"show","kind":"beeuni","source":"beeuni:show"},{"name":"lookup_order","kind":"project","source":"tools/lookup_order.ts"}],"removed":["image_search"]}`},
		{"notools", `{"manifest":"beeuni.yaml","tools_key":false,"tools":[{"name":"web_search","kind":"beeuni","source":"beeuni:web_search"},{"name":"image_search","kind":"beeuni","source":"beeuni:image_search"},{"name":"scrape_webpage","kind":"beeuni","source":"beeuni:scrape_webpage"},{"name":"memory","kind":"beeuni","source":"beeuni:memory"},{"name":"show","kind":"beeuni","source":"beeuni:show"}],"removed":[]}`},
	} {
		r := runIn(t, "tools", "ls", "--json", "--dir", filepath.Join("testdata/projects", tc.project))
		var v any
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || r.code != 0 {
			t.Fatalf("%s: exit %d, %v: %s", tc.project, r.code, err, r.stdout)
		}
		compact, _ := json.Marshal(v)
		var w any
		_ = json.Unmarshal([]byte(tc.want), &w)
		wantCompact, _ := json.Marshal(w)
		if string(compact) != string(wantCompact) {
			t.Errorf("%s:\n got %s\nwant %s", tc.project, compact, wantCompact)
		}
	}
}

func TestEjectMatchesReference(t *testing.T) {
	dir := copyProject(t, "testdata/projects/notools")
	r := runIn(t, "tools", "eject", "web_search", "--dir", dir)
	if r.code != 0 || r.stdout != referenceEject || r.stderr != "" {
		t.Fatalf("eject: exit %d\n%s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "tools", "web_search.ts"))
	want, _ := builtin.Source("web_search")
	if err != nil || string(got) != string(want) {
		t.Errorf("tools/web_search.ts is not the Beeuni source (%v)", err)
	}
	r = runIn(t, "validate", "--dir", dir)
	if r.code != 0 || r.stdout != "beeuni.yaml is valid: 5 tools\n" {
		t.Errorf("validate after eject: exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
}

// TestCommands runs every command on every test project and compares the
// transcript with its golden file.
func TestCommands(t *testing.T) {
	projects := map[string]string{
		"demo":      "../../examples/demo",
		"reference": "testdata/projects/reference",
		"broken":    "testdata/projects/broken",
		"legacy":    "testdata/projects/legacy",
		"notools":   "testdata/projects/notools",
	}
	runs := []struct {
		slug string
		args []string
	}{
		{"validate", []string{"validate"}},
		{"validate-experimental", []string{"validate", "--harness", "experimental"}},
		{"ls", []string{"tools", "ls"}},
		{"ls-experimental", []string{"tools", "ls", "--harness", "experimental"}},
		{"ls-json", []string{"tools", "ls", "--json"}},
	}
	for name, src := range projects {
		for _, run := range runs {
			t.Run(name+"/"+run.slug, func(t *testing.T) {
				// Committed, as a project is: the check of what Git ships
				// gives the working tree's verdict, with no note.
				dir := commitTree(t, copyProject(t, src))
				args := append(append([]string{}, run.args...), "--dir", dir)
				checkGolden(t, name+"/"+run.slug+".golden", transcript(dir, args, runIn(t, args...)))
			})
		}
	}
	// A folder with no beeuni.yaml: each command says where it looked.
	for _, run := range runs {
		t.Run("empty/"+run.slug, func(t *testing.T) {
			dir := t.TempDir()
			args := append(append([]string{}, run.args...), "--dir", dir)
			r := runIn(t, args...)
			if r.code != 1 || !strings.Contains(r.stdout+r.stderr, "no beeuni.yaml in "+dir+": create one") {
				t.Errorf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			checkGolden(t, "empty/"+run.slug+".golden", transcript(dir, args, r))
		})
	}
}

// TestEjectGoldens runs eject on copies of the test projects and records the
// output and every file that changed.
func TestEjectGoldens(t *testing.T) {
	cases := []struct {
		slug, project string
		args          []string
	}{
		{"demo-web_search", "../../examples/demo", []string{"web_search"}},
		{"demo-image_search-removed", "../../examples/demo", []string{"image_search"}},
		{"notools-memory", "testdata/projects/notools", []string{"memory"}},
		{"reference-web_search-refused", "testdata/projects/reference", []string{"web_search"}},
		{"reference-web_search-force", "testdata/projects/reference", []string{"web_search", "--force"}},
		{"broken-refused", "testdata/projects/broken", []string{"memory"}},
		{"not-a-beeuni-tool", "testdata/projects/reference", []string{"lookup_order"}},
	}
	for _, tc := range cases {
		t.Run(tc.slug, func(t *testing.T) {
			dir := copyProject(t, tc.project)
			before := readTree(t, dir)
			args := append([]string{"tools", "eject"}, tc.args...)
			args = append(args, "--dir", dir)
			r := runIn(t, args...)
			var b strings.Builder
			b.WriteString(transcript(dir, args, r))
			after := readTree(t, dir)
			for _, name := range sortedNames(after) {
				if before[name] == after[name] {
					continue
				}
				if strings.HasPrefix(name, "tools/") {
					src, _ := builtin.Source(strings.TrimSuffix(strings.TrimPrefix(name, "tools/"), ".ts"))
					if after[name] != string(src) {
						t.Errorf("%s is not the Beeuni source", name)
					}
					b.WriteString("-- wrote " + name + " (the Beeuni source)\n")
					continue
				}
				b.WriteString("-- " + name + ":\n" + after[name])
			}
			if r.code != 0 && len(after) != len(before) {
				t.Errorf("a refused eject changed the tree")
			}
			checkGolden(t, "eject/"+tc.slug+".golden", b.String())
		})
	}
}

func readTree(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return out
}

func sortedNames(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func TestUsage(t *testing.T) {
	ref := "testdata/projects/reference"
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"validate", "--dir", ref, "extra"}, 2, `beeuni: validate takes no arguments, got "extra"`},
		{[]string{"validate", "--bogus"}, 2, "flag provided but not defined: -bogus"},
		{[]string{"tools", "call", "--dir", ref}, 2, "beeuni: tools call takes one tool name"},
		{[]string{"tools", "call", "greet", "--args", "[1]", "--dir", ref}, 2, "beeuni: --args must be a JSON object"},
		{[]string{"validate", "--harness", "opencode", "--dir", ref}, 2, `beeuni: --harness: unknown harness "opencode": use "default" or "experimental"`},
		{[]string{"validate", "--dir", "testdata/nope"}, 2, "beeuni: open project folder:"},
		{[]string{"executor", "--dir", ref + "/beeuni.yaml/checkout"}, 1, "beeuni: --dir: create the checkout folder:"},
		{[]string{"validate", "--help"}, 0, "Usage: beeuni validate [--dir DIR] [--load] [--worktree] [--harness H]"},
		{[]string{"tools"}, 2, "Usage: beeuni tools SUBCOMMAND"},
		{[]string{"tools", "--help"}, 0, "Usage: beeuni tools SUBCOMMAND"},
		{[]string{"tools", "frob"}, 2, `beeuni: tools: unknown subcommand "frob"`},
		{[]string{"tools", "ls", "x", "--dir", ref}, 2, `beeuni: tools ls takes no arguments, got "x"`},
		{[]string{"tools", "ls", "--harness", "x", "--dir", ref}, 2, `unknown harness "x"`},
		{[]string{"tools", "eject", "--dir", ref}, 2, "beeuni: tools eject takes one Beeuni tool name"},
		{[]string{"tools", "eject", "a", "b", "--dir", ref}, 2, "beeuni: tools eject takes one Beeuni tool name"},
		{[]string{"tools", "eject", "--help"}, 0, "Usage: beeuni tools eject NAME [--force] [--dir DIR]"},
		{[]string{"executor", "--cache-max", "lots"}, 2, `invalid value "lots" for flag -cache-max: want a size such as 256MiB or 1GiB`},
		{[]string{"executor", "--help"}, 0, "-cache-max value\n    \tthe content cache's bound, e.g. 1GiB"},
		{[]string{"internal", "launch"}, 2, "beeuni: internal commands are started by beeuni itself, not by hand"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			r := runIn(t, tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", r.code, r.stderr, tc.code, tc.stderr)
			}
		})
	}
}

// The module check's subcommand is beeuni's own: the help does not list it.
func TestInternalNotInHelp(t *testing.T) {
	r := runIn(t, "--help")
	if r.code != 0 || strings.Contains(r.stderr, "internal") {
		t.Fatalf("beeuni --help: exit %d, lists internal:\n%s", r.code, r.stderr)
	}
}

func TestValidateCountLine(t *testing.T) {
	for _, tc := range []struct {
		errs, warns, tools int
		want               string
	}{
		{0, 0, 6, "beeuni.yaml is valid: 6 tools"},
		{0, 0, 1, "beeuni.yaml is valid: 1 tool"},
		{0, 0, 0, "beeuni.yaml is valid: 0 tools"},
		{0, 1, 5, "beeuni.yaml is valid: 5 tools, 1 warning"},
		{2, 1, 5, "2 errors, 1 warning"},
		{1, 0, 5, "1 error"},
		{1, 3, 5, "1 error, 3 warnings"},
	} {
		if got := countLine(tc.errs, tc.warns, tc.tools); got != tc.want {
			t.Errorf("countLine(%d, %d, %d) = %q, want %q", tc.errs, tc.warns, tc.tools, got, tc.want)
		}
	}
}

func TestValidateLoadHook(t *testing.T) {
	// --load exists only when a check is plugged in, and its findings join
	// the manifest's, sorted, and count.
	dir := copyProject(t, "testdata/projects/reference")
	var out, errb strings.Builder
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	calls := 0
	code := a.validateWith(t.Context(), []string{"--load", "--dir", dir}, func(_ context.Context, d string, p *loader.Project) []loader.Finding {
		calls++
		if d != dir || len(p.Tools) != 5 {
			t.Errorf("load check got dir %s and %d tools", d, len(p.Tools))
		}
		return []loader.Finding{{File: "tools/web_search.ts", Line: 1, Severity: loader.SeverityError, Message: "no default export"}}
	})
	if code != 1 || calls != 1 || out.String() != "tools/web_search.ts:1: error: no default export\n1 error\n" {
		t.Errorf("exit %d, calls %d, stdout %q", code, calls, out.String())
	}
}
