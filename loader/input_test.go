package loader

import (
	"strings"
	"testing"
)

func TestReadImports(t *testing.T) {
	e := func(file, line, msg string) string { return file + ":" + line + ": error: " + msg }
	runReadCases(t, []readCase{
		{name: "missing import", files: map[string]string{"beeuni.yaml": "imports:\n  - tools.yaml\n"}, tools: allFive,
			findings: []string{e("beeuni.yaml", "2", "imports `tools.yaml`, which does not exist: create it or fix the path")}},
		{name: "import is a folder", files: map[string]string{"beeuni.yaml": "imports: [conf.yaml]\n", "conf.yaml": "<dir>"},
			findings: []string{e("beeuni.yaml", "1", "imports `conf.yaml`, which is a folder: list a YAML file")}},
		{name: "cycle", files: map[string]string{"beeuni.yaml": "imports: [a.yaml]\n", "a.yaml": "imports: [b.yaml]\n", "b.yaml": "\nimports: [beeuni.yaml]\n"},
			findings: []string{e("b.yaml", "2", "imports `beeuni.yaml`, which is already being read: import cycle beeuni.yaml → a.yaml → b.yaml → beeuni.yaml. Remove one of these imports")}},
		{name: "self import", files: map[string]string{"beeuni.yaml": "imports: [a.yaml]\n", "a.yaml": "imports: [./a.yaml]\n"},
			findings: []string{e("a.yaml", "1", "imports `a.yaml`, which is already being read: import cycle a.yaml → a.yaml. Remove one of these imports")}},
		{name: "diamond is read once", files: map[string]string{
			"beeuni.yaml": "imports: [a.yaml, b.yaml]\n", "a.yaml": "imports: [c.yaml]\n", "b.yaml": "imports: [c.yaml]\n",
			"c.yaml": "tools:\n  show: beeuni:show\n"}, tools: []string{"show beeuni beeuni:show"}},
		{name: "same import twice", files: map[string]string{"beeuni.yaml": "imports:\n  - a.yaml\n  - a.yaml\n", "a.yaml": ""},
			findings: []string{"beeuni.yaml:3: warning: imports `a.yaml` again (first at line 2): remove this line"}},
		{name: "imports not a list", files: map[string]string{"beeuni.yaml": "imports: a.yaml\n", "a.yaml": ""},
			findings: []string{e("beeuni.yaml", "1", "`imports:` must be a list of repo-relative YAML files (e.g. `imports: [tools.yaml]`); found `a.yaml`")}},
		{name: "import not a string", files: map[string]string{"beeuni.yaml": "imports:\n  - {a: b}\n  - 3\n"},
			findings: []string{
				e("beeuni.yaml", "2", "each import must be a repo-relative path to a YAML file (e.g. `tools.yaml`); found a mapping"),
				e("beeuni.yaml", "3", "each import must be a repo-relative path to a YAML file (e.g. `tools.yaml`); found `3`"),
			}},
		{name: "import path rules", files: map[string]string{"beeuni.yaml": "imports:\n  - /etc/a.yaml\n  - ../a.yaml\n  - a\\b.yaml\n  - tools.ts\n  - \"\"\n"},
			findings: []string{
				e("beeuni.yaml", "2", "import `/etc/a.yaml` is an absolute path: write it relative to the repository root"),
				e("beeuni.yaml", "3", "import `../a.yaml` leaves the repository (`..`): write a path inside the repository, from its root"),
				e("beeuni.yaml", "4", "import `a\\b.yaml` uses a backslash: write the path with forward slashes, from the repository root"),
				e("beeuni.yaml", "5", "import `tools.ts` must be a YAML file ending in .yaml or .yml"),
				e("beeuni.yaml", "6", "import `` is empty: write a path from the repository root"),
			}},
		{name: "bad YAML in an import names that file", files: map[string]string{"beeuni.yaml": "imports: [a.yaml]\n", "a.yaml": "tools:\n  x: [y\n"},
			findings: []string{e("a.yaml", "2", "is not valid YAML: did not find expected ',' or ']': fix the syntax on this line")}},
		{name: "imported agents and tools", files: map[string]string{"beeuni.yaml": "imports: [a.yaml]\ntools:\n  show: beeuni:show\n", "a.yaml": "agents:\n  r:\n    tools: [show, nope]\n"},
			findings: []string{"a.yaml:3: warning: `nope` is not a harness, Beeuni or project tool: fix the name, or declare the tool under the top-level `tools`"}},
	})
}

func TestReadBadInput(t *testing.T) {
	e := func(file, line, msg string) string { return file + ":" + line + ": error: " + msg }
	runReadCases(t, []readCase{
		{name: "manifest is a folder", files: map[string]string{"beeuni.yaml": "<dir>"}, tools: allFive,
			findings: []string{e("beeuni.yaml", "0", "is a folder: beeuni.yaml must be a YAML file at the repository root")[0:0] + "beeuni.yaml: error: is a folder: beeuni.yaml must be a YAML file at the repository root"}},
		{name: "syntax error with a line", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\n  x: [y\n"}, tools: allFive,
			findings: []string{e("beeuni.yaml", "3", "is not valid YAML: did not find expected ',' or ']': fix the syntax on this line")}},
		{name: "syntax error yaml gives no line for", files: map[string]string{"beeuni.yaml": "# a\ntools:\n  show: beeuni:show: x\n  b: c\n"},
			findings: []string{e("beeuni.yaml", "3", "is not valid YAML: mapping values are not allowed in this context: fix the syntax on this line")}},
		{name: "unterminated quote", files: map[string]string{"beeuni.yaml": "a: 1\nb: \"x\nc: 2\n"},
			findings: []string{e("beeuni.yaml", "2", "is not valid YAML: found unexpected end of stream: fix the syntax on this line")}},
		{name: "tab indentation", files: map[string]string{"beeuni.yaml": "tools:\n\tshow: beeuni:show\n"},
			findings: []string{e("beeuni.yaml", "2", "is not valid YAML: found character that cannot start any token: fix the syntax on this line")}},
		{name: "unknown alias", files: map[string]string{"beeuni.yaml": "tools:\n  a: *nope\n"},
			findings: []string{e("beeuni.yaml", "2", "is not valid YAML: unknown anchor 'nope' referenced: fix the syntax on this line")}},
		{name: "two documents", files: map[string]string{"beeuni.yaml": "tools: {}\n---\ntools:\n  show: beeuni:show\n"},
			findings: []string{e("beeuni.yaml", "2", "holds more than one YAML document: beeuni reads one; remove the `---` line and merge the documents")}},
		{name: "root is a list", files: map[string]string{"beeuni.yaml": "- tools\n- agents\n"}, tools: allFive,
			findings: []string{e("beeuni.yaml", "1", "must be a YAML mapping with keys such as `tools:`, `agents:` and `imports:`; found a list")}},
		{name: "root is a string", files: map[string]string{"beeuni.yaml": "\nhello\n"},
			findings: []string{e("beeuni.yaml", "2", "must be a YAML mapping with keys such as `tools:`, `agents:` and `imports:`; found `hello`")}},
		{name: "NUL byte", files: map[string]string{"beeuni.yaml": "tools:\n  show: beeuni:show\x00\n"}, tools: allFive,
			findings: []string{e("beeuni.yaml", "2", "is not a text file (it holds a NUL byte): a manifest must be UTF-8 YAML text")}},
		{name: "invalid UTF-8", files: map[string]string{"beeuni.yaml": "a: 1\n\n\xff\xfe\n"},
			findings: []string{e("beeuni.yaml", "3", "is not UTF-8 text: save it as UTF-8 YAML")}},
		{name: "huge file", files: map[string]string{"beeuni.yaml": "# " + strings.Repeat("x", MaxManifestBytes) + "\n"},
			findings: []string{e("beeuni.yaml", "1", "is 1048579 bytes, over the 1048576-byte limit for a manifest file: keep tools and agents in small YAML files")}},
		{name: "huge import", files: map[string]string{"beeuni.yaml": "imports: [big.yaml]\n", "big.yaml": strings.Repeat("#", MaxManifestBytes+1)},
			findings: []string{e("big.yaml", "1", "is 1048577 bytes, over the 1048576-byte limit for a manifest file: keep tools and agents in small YAML files")}},
		{name: "BOM is fine", files: map[string]string{"beeuni.yaml": "\ufefftools:\n  show: beeuni:show\n"}, tools: []string{"show beeuni beeuni:show"}},
		{name: "CRLF is fine", files: map[string]string{"beeuni.yaml": "tools:\r\n  show: beeuni:show\r\n"}, tools: []string{"show beeuni beeuni:show"}},
		{name: "self-referencing anchor does not loop", files: map[string]string{"beeuni.yaml": "agents: &a\n  x:\n    tools: [*a]\n"},
			findings: []string{e("beeuni.yaml", "1", "each entry must be a tool name such as `web_search`; found a mapping")}},
	})
}

func TestFindingString(t *testing.T) {
	for _, tc := range []struct {
		f    Finding
		want string
	}{
		{Finding{File: "beeuni.yaml", Line: 7, Severity: SeverityError, Message: "m"}, "beeuni.yaml:7: error: m"},
		{Finding{File: "a.yaml", Line: 0, Severity: SeverityWarning, Message: "m"}, "a.yaml: warning: m"},
	} {
		if got := tc.f.String(); got != tc.want {
			t.Errorf("String() = %q, want %q", got, tc.want)
		}
	}
}

func TestParseHarness(t *testing.T) {
	for _, s := range []string{"default", "experimental"} {
		if h, err := ParseHarness(s); err != nil || string(h) != s {
			t.Errorf("ParseHarness(%q) = %q, %v", s, h, err)
		}
	}
	if _, err := ParseHarness("opencode"); err == nil || !strings.Contains(err.Error(), `use "default" or "experimental"`) {
		t.Errorf("ParseHarness(opencode) error = %v", err)
	}
}
