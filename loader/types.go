// Package loader reads a project's beeuni.yaml and its imports, checks every
// rule of the manifest, resolves the tool set a session gets, decides which
// agent sees which tool on each harness, and ejects Beeuni tools into a
// project.
//
// Read never panics and never returns a Go error for bad input: every problem
// is a Finding with a file and a line, worded to say what to change.
package loader

import (
	"fmt"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/beeuni/beeuni/loader/builtin"
)

// ManifestName is the manifest's file name at the repository root.
const ManifestName = "beeuni.yaml"

// Harness is the agent runtime whose rules apply.
type Harness string

const (
	// HarnessDefault is the default runtime: it still loads the legacy folder
	// harnesses/opencode/tools/, bash covers pty_*, and write/edit/apply_patch
	// share one permission.
	HarnessDefault Harness = "default"
	// HarnessExperimental ignores harnesses/opencode/tools/ and keeps every
	// tool's permission separate.
	HarnessExperimental Harness = "experimental"
)

// ParseHarness turns a flag value into a Harness.
func ParseHarness(s string) (Harness, error) {
	switch Harness(s) {
	case HarnessDefault, HarnessExperimental:
		return Harness(s), nil
	}
	return "", fmt.Errorf("unknown harness %q: use %q or %q", s, HarnessDefault, HarnessExperimental)
}

// Severity says whether a finding blocks the project (error) or not (warning).
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Finding is one problem, located at a file and a 1-based line. Line is 0 when
// the problem concerns the file as a whole (e.g. it does not exist).
type Finding struct {
	File     string
	Line     int
	Severity Severity
	Message  string
}

// String formats the finding as `beeuni.yaml:7: error: <message>`.
func (f Finding) String() string {
	if f.Line <= 0 {
		return fmt.Sprintf("%s: %s: %s", f.File, f.Severity, f.Message)
	}
	return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Severity, f.Message)
}

// Kind is how `tools ls` classes a tool.
type Kind string

const (
	KindBeeuni     Kind = "beeuni"
	KindOverridden Kind = "beeuni (overridden)"
	KindProject    Kind = "project"
)

// builtinPrefix marks a source that names a Beeuni tool.
const builtinPrefix = "beeuni:"

// Tool is one tool a session gets.
type Tool struct {
	Name string
	Kind Kind
	// Source is "beeuni:<name>" for a Beeuni tool, else the repo-relative
	// module path ("tools/x.ts").
	Source string
	// File and Line locate the declaration; File is "" when the tool is implied
	// (no tools: key anywhere).
	File string
	Line int
}

// IsBuiltin reports whether the tool runs the Beeuni source (Source has the
// "beeuni:" prefix); BuiltinName then names it.
func (t Tool) IsBuiltin() bool { return strings.HasPrefix(t.Source, builtinPrefix) }

// BuiltinName is the Beeuni tool name of a builtin source, or "".
func (t Tool) BuiltinName() string {
	if !t.IsBuiltin() {
		return ""
	}
	return strings.TrimPrefix(t.Source, builtinPrefix)
}

// Project is beeuni.yaml and its imports, read from an fs.FS rooted at the
// repository root.
type Project struct {
	Manifest string   // "beeuni.yaml"
	ToolsKey bool     // a tools: key exists in the root or an imported file
	Tools    []Tool   // what a session gets, in `tools ls` order
	Removed  []string // Beeuni tools the project removed, in the reference's order
	Findings []Finding

	harness Harness
	found   bool              // beeuni.yaml exists and is a file
	files   []string          // manifest files read: root first, then imports depth-first
	decls   []decl            // every tools: entry, valid or not, in declaration order
	toolsAt map[string]keyPos // first tools: key per file
	agents  map[string]*agent
	legacy  map[string]string // legacy folder: tool name -> module path (default harness only)
	copies  map[string]string // legacy folder: every module by name, both harnesses
	docs    map[string]*doc   // parsed manifest files, for eject
}

// doc is one manifest file as read: its bytes and, when it parsed, its root
// node and its tools: key.
type doc struct {
	name     string
	data     []byte
	root     *yaml.Node
	toolsKey *yaml.Node
	tools    *yaml.Node
}

// keyPos locates a mapping key in a manifest file.
type keyPos struct {
	File string
	Line int
}

// Harness is the harness whose rules the project was read with.
func (p *Project) Harness() Harness { return p.harness }

// HasErrors reports whether any finding is an error.
func (p *Project) HasErrors() bool {
	for _, f := range p.Findings {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// Tool returns the tool a session gets under name.
func (p *Project) Tool(name string) (Tool, bool) {
	for _, t := range p.Tools {
		if t.Name == name {
			return t, true
		}
	}
	return Tool{}, false
}

// BuiltinNames lists the Beeuni tools in the reference's order, for messages.
func builtinList() string { return strings.Join(builtin.Names(), ", ") }

// Files are the manifest files Read read: beeuni.yaml first, then its
// imports depth-first. `beeuni validate` checks that Git ships each.
func (p *Project) Files() []string { return append([]string(nil), p.files...) }
