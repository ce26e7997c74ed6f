package compat

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// A testCase is one entry of manifest.json: a tool, the arguments of its
// call, and where its module came from.
type testCase struct {
	Name     string            `json:"name"`     // the case id; golden/<name>.txt
	Category string            `json:"category"` // real, package, node, bun
	Dir      string            `json:"dir"`      // folder under cases/ holding the project files
	Module   string            `json:"module"`   // the module, relative to Dir
	Tool     string            `json:"tool"`     // the tool name beeuni and the runners call
	Form     string            `json:"form"`     // "beeuni" (default) or "opencode"
	Harness  string            `json:"harness"`  // --harness for beeuni; "" is the command's default
	Args     json.RawMessage   `json:"args"`     // the call's arguments
	Packages []string          `json:"packages"` // top-level packages the case needs from the shared install
	Env      map[string]string `json:"env"`      // extra environment for every runtime
	BunOnly  bool              `json:"bunOnly"`  // Bun-specific: Node is not asked
	// NodeRef, when set, says why Node is the reference instead of Bun: an
	// API that is not Bun's own where Bun parts from Node and the standard
	// (SPEC 11: "Node where the module is not Bun-specific").
	// golden/<name>.node.txt holds Node's answer.
	NodeRef string  `json:"nodeReference"`
	Origin  *origin `json:"origin"` // real modules: where they came from
	Note    string  `json:"note"`   // what the case exercises
}

// origin records where a real module was taken from and what was changed.
type origin struct {
	Repo       string `json:"repo"`
	Path       string `json:"path"`
	Commit     string `json:"commit"`
	License    string `json:"license"`
	Adaptation string `json:"adaptation"` // "none", or the conversions applied
}

var (
	caseName = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)
	toolName = caseName
)

// loadManifest reads manifest.json and checks every entry, so a broken
// manifest fails the test with the entry and the fix.
func loadManifest(tb testing.TB) []testCase {
	tb.Helper()
	data, err := os.ReadFile("manifest.json")
	if err != nil {
		tb.Fatalf("read the corpus manifest: %v", err)
	}
	var m struct {
		Cases []testCase `json:"cases"`
	}
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatalf("manifest.json: %v", err)
	}
	seen := map[string]bool{}
	for i := range m.Cases {
		c := &m.Cases[i]
		if c.Form == "" {
			c.Form = "beeuni"
		}
		if len(c.Args) == 0 {
			c.Args = json.RawMessage("{}")
		}
		if err := c.check(); err != nil {
			tb.Fatalf("manifest.json: case %q: %v", c.Name, err)
		}
		if seen[c.Name] {
			tb.Fatalf("manifest.json: case %q is listed twice", c.Name)
		}
		seen[c.Name] = true
	}
	return m.Cases
}

func (c *testCase) check() error {
	switch {
	case !caseName.MatchString(c.Name):
		return fmt.Errorf("name must be snake_case")
	case !slices.Contains([]string{"real", "package", "node", "bun"}, c.Category):
		return fmt.Errorf("category must be real, package, node or bun")
	case !toolName.MatchString(c.Tool):
		return fmt.Errorf("tool %q must be snake_case", c.Tool)
	case c.Form != "beeuni" && c.Form != "opencode":
		return fmt.Errorf("form must be beeuni or opencode")
	case c.NodeRef != "" && (c.BunOnly || c.Category == "bun"):
		return fmt.Errorf("nodeReference is for APIs that are not Bun's own, not a Bun case")
	case c.Category == "real" && (c.Origin == nil || c.Origin.Repo == "" || c.Origin.Commit == "" || c.Origin.License == ""):
		return fmt.Errorf("a real module needs its origin: repo, path, commit, license")
	}
	var obj map[string]any
	if err := json.Unmarshal(c.Args, &obj); err != nil || obj == nil {
		return fmt.Errorf("args must be a JSON object")
	}
	if _, err := os.Stat(filepath.Join("cases", c.Dir, filepath.FromSlash(c.Module))); err != nil {
		return fmt.Errorf("module: %v", err)
	}
	return nil
}

// legacy reports whether the module lives in the default runtime's own
// folder, where beeuni loads opencode custom tools by file name.
func (c *testCase) legacy() bool {
	return strings.HasPrefix(c.Module, "harnesses/opencode/tools/")
}

// manifestYAML is the beeuni.yaml the case project gets unless its folder
// has one: the tool declared under its name (legacy tools need no entry).
func (c *testCase) manifestYAML() string {
	if c.legacy() {
		return "# the default runtime loads harnesses/opencode/tools/ by itself\nagents:\n  beeuni:\n    tools: all\n"
	}
	return fmt.Sprintf("tools:\n  %s: %s\n", c.Tool, path.Clean(c.Module))
}

// An expectation is one value of expected.json: "match", or
// "known-failure: <why>"; a <why> starting "refuses" also fails the test
// when beeuni starts answering without an error but not as Bun does.
type expectation string

func (e expectation) match() bool { return e == "match" }

// refusal reports whether the known failure is a clear refusal (an error),
// written "known-failure: refuses: <why>".
func (e expectation) refusal() bool {
	return strings.HasPrefix(string(e), "known-failure: refuses")
}

func loadExpected(tb testing.TB) map[string]expectation {
	tb.Helper()
	data, err := os.ReadFile("expected.json")
	if err != nil {
		tb.Fatalf("read expected.json: %v", err)
	}
	var m map[string]expectation
	if err := json.Unmarshal(data, &m); err != nil {
		tb.Fatalf("expected.json: %v", err)
	}
	for name, e := range m {
		if !e.match() && !strings.HasPrefix(string(e), "known-failure: ") {
			tb.Fatalf("expected.json: %s: %q must be \"match\" or \"known-failure: <why>\"", name, e)
		}
	}
	return m
}

// reference names the runtime a case's answer is measured against.
func (c *testCase) reference() string {
	if c.NodeRef != "" {
		return "Node"
	}
	return "Bun"
}
