package loader

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/beeuni/beeuni/loader/builtin"
)

// decl is one entry under a tools: key, valid or not.
type decl struct {
	name  string
	file  string
	line  int
	valid bool
	tool  Tool
}

var namePattern = regexp.MustCompile(`^[a-z][a-z0-9_]{0,63}$`)

// harnessTools are the harness's own tool names; any name starting "pty_" is
// one too (the terminal plugin's tools).
var harnessTools = []string{"bash", "read", "write", "edit", "apply_patch", "glob", "grep", "list", "task", "question", "webfetch", "todowrite", "todoread"}

// HarnessTools lists the harness's own tool names (the terminal plugin's
// pty_* tools aside: any name with that prefix is one too).
func HarnessTools() []string { return slices.Clone(harnessTools) }

// IsHarnessTool reports whether name is a tool the harness provides.
func IsHarnessTool(name string) bool {
	return slices.Contains(harnessTools, name) || strings.HasPrefix(name, "pty_")
}

// moduleExts are the module extensions that run with no build step.
var moduleExts = []string{".ts", ".js", ".mts", ".mjs", ".cts", ".cjs"}

// IsModulePath reports whether p ends in one of the module extensions.
func IsModulePath(p string) bool { return slices.Contains(moduleExts, path.Ext(p)) }

// replaceMessage is the reference's message for a Beeuni tool name whose
// value is neither its beeuni: source nor a module path.
func replaceMessage(name string) string {
	return fmt.Sprintf("must be `beeuni:%s` (the Beeuni tool) or a repo-relative path to a .ts or .js module (e.g. `tools/%s.ts`) that replaces it.", name, name)
}

// noBeeuniToolMessage is the reference's warning for a tools: key that lists
// no Beeuni tool.
const noBeeuniToolMessage = "Sessions of this project get no Beeuni tool (web_search, image_search, scrape_webpage, memory, show). Add `<name>: beeuni:<name>` to keep one."

// readTools reads the value of one tools: key in file.
func (r *reader) readTools(file string, key, v *yaml.Node) {
	r.p.ToolsKey = true
	if _, ok := r.p.toolsAt[file]; !ok {
		r.p.toolsAt[file] = keyPos{File: file, Line: key.Line}
	}
	switch {
	case isNull(v):
		return // `tools:` with every line deleted: an empty list
	case v.Kind == yaml.SequenceNode:
		r.badTools = true
		r.errorf(file, v.Line, "`tools:` must map each tool name to its source, one per line (`web_search: beeuni:web_search`, `lookup_order: tools/lookup_order.ts`), not a list")
		return
	case v.Kind != yaml.MappingNode:
		r.badTools = true
		r.errorf(file, v.Line, "`tools:` must map each tool name to its source, one per line (`web_search: beeuni:web_search`); found %s", describe(v))
		return
	}
	inFile := map[string]int{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			r.errorf(file, k.Line, "a tool name must be a plain name such as `lookup_order`; found %s", describe(k))
			continue
		}
		name := k.Value
		d := decl{name: name, file: file, line: k.Line}
		if first, dup := inFile[name]; dup {
			r.errorf(file, k.Line, "`%s` is declared twice in %s (lines %d and %d): keep one", clip(name), file, first, k.Line)
			continue
		}
		inFile[name] = k.Line
		if at, dup := r.declAt[name]; dup {
			r.errorf(file, k.Line, "`%s` is declared in two files, %s:%d and %s:%d: keep one", clip(name), at.File, at.Line, file, k.Line)
			continue
		}
		r.declAt[name] = keyPos{File: file, Line: k.Line}
		r.declared[name] = true
		d.tool, d.valid = r.checkEntry(file, k, val)
		r.p.decls = append(r.p.decls, d)
	}
}

// checkEntry applies the rules of "Declare tools" and "Validation" to one
// entry and returns the tool it declares when it is valid.
func (r *reader) checkEntry(file string, k, v *yaml.Node) (Tool, bool) {
	name := k.Value
	switch {
	case IsHarnessTool(name):
		if strings.HasPrefix(name, "pty_") {
			r.errorf(file, k.Line, "`%s` is a harness tool name (the terminal plugin's `pty_*` tools): give this tool another name", name)
		} else {
			r.errorf(file, k.Line, "`%s` is a harness tool name: the harness provides `%s`; give this tool another name", name, name)
		}
		return Tool{}, false
	case !namePattern.MatchString(name):
		r.errorf(file, k.Line, "`%s` is not a valid tool name: use snake_case, a lowercase letter then lowercase letters, digits or `_`, at most 64 characters (`^[a-z][a-z0-9_]{0,63}$`)", clip(name))
		return Tool{}, false
	}
	beeuni := builtin.Is(name)
	line := k.Line
	if !isString(v) {
		switch {
		case beeuni:
			r.errorf(file, line, "%s", replaceMessage(name))
		case isNull(v):
			r.errorf(file, line, "`%s` has no module: write `%s: tools/%s.ts` with the repo-relative path of its module", name, name, name)
		default:
			r.errorf(file, line, "`%s` must map to a repo-relative module path (e.g. `tools/%s.ts`); found %s", name, name, describe(v))
		}
		return Tool{}, false
	}
	val := v.Value
	if ref, ok := strings.CutPrefix(val, builtinPrefix); ok {
		switch {
		case beeuni && ref == name:
			return Tool{Name: name, Kind: KindBeeuni, Source: val, File: file, Line: line}, true
		case beeuni:
			r.errorf(file, line, "%s", replaceMessage(name))
		case builtin.Is(ref):
			r.errorf(file, line, "`%s: %s`: a Beeuni tool keeps its own name: write `%s: beeuni:%s`, or point `%s` at a repo-relative .ts or .js module (e.g. `tools/%s.ts`)", name, clip(val), ref, ref, name, name)
		default:
			r.errorf(file, line, "`%s: %s`: `%s` names no Beeuni tool (%s): point `%s` at a repo-relative .ts or .js module (e.g. `tools/%s.ts`)", name, clip(val), clip(val), builtinList(), name, name)
		}
		return Tool{}, false
	}
	p, problem := cleanRepoPath(val)
	if problem == "" && !IsModulePath(p) {
		problem = "must end in .ts, .js, .mts, .mjs, .cts or .cjs: point it at the module file"
	}
	if problem != "" {
		if beeuni {
			r.errorf(file, line, "%s", replaceMessage(name))
		} else {
			r.errorf(file, line, "`%s: %s`: the path %s (e.g. `tools/%s.ts`)", name, clip(val), problem, name)
		}
		return Tool{}, false
	}
	st, err := fs.Stat(r.fsys, p)
	switch {
	case err != nil:
		r.errorf(file, line, "`%s: %s`: %s does not exist: create the module or fix the path", name, clip(val), p)
		return Tool{}, false
	case st.IsDir():
		r.errorf(file, line, "`%s: %s`: %s is a folder: point at the module file", name, clip(val), p)
		return Tool{}, false
	}
	kind := KindProject
	if beeuni {
		kind = KindOverridden
	}
	return Tool{Name: name, Kind: kind, Source: p, File: file, Line: line}, true
}

// resolveTools applies "Which Beeuni tools a session gets": no tools: key
// anywhere gives all five Beeuni tools; a tools: key gives only those listed.
// Beeuni tool names come first, in the reference's order, then the project's
// tools in declaration order.
func (r *reader) resolveTools() {
	p := r.p
	if !p.ToolsKey {
		for _, n := range builtin.Names() {
			p.Tools = append(p.Tools, Tool{Name: n, Kind: KindBeeuni, Source: builtinPrefix + n})
		}
		p.Removed = []string{}
		return
	}
	byName := map[string]Tool{}
	for _, d := range p.decls {
		if d.valid {
			byName[d.name] = d.tool
		}
	}
	p.Removed = []string{}
	anyBeeuni := false
	for _, n := range builtin.Names() {
		if t, ok := byName[n]; ok {
			p.Tools = append(p.Tools, t)
		}
		if r.declared[n] {
			anyBeeuni = true
		} else {
			p.Removed = append(p.Removed, n)
		}
	}
	for _, d := range p.decls {
		if d.valid && !builtin.Is(d.name) {
			p.Tools = append(p.Tools, d.tool)
		}
	}
	if !anyBeeuni && !r.badTools { // a malformed tools: already has its error
		at := r.firstToolsKey()
		r.warnf(at.File, at.Line, "%s", noBeeuniToolMessage)
	}
}

// firstToolsKey is the tools: key of the earliest file read that has one.
func (r *reader) firstToolsKey() keyPos {
	for _, f := range r.p.files {
		if at, ok := r.p.toolsAt[f]; ok {
			return at
		}
	}
	return keyPos{File: ManifestName}
}

// legacyDir is the default runtime's own tools folder.
const legacyDir = "harnesses/opencode/tools"

// readLegacy looks at harnesses/opencode/tools/. On the default runtime a
// module there wins over the hosted tool of the same name; on both harnesses
// a copy of a Beeuni tool there gets a warning.
func (r *reader) readLegacy() {
	entries, err := fs.ReadDir(r.fsys, legacyDir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if e.IsDir() || !IsModulePath(e.Name()) {
			continue
		}
		ext := path.Ext(e.Name())
		name := strings.TrimSuffix(e.Name(), ext)
		p := legacyDir + "/" + e.Name()
		if prev, ok := r.p.copies[name]; ok && slices.Index(moduleExts, path.Ext(prev)) <= slices.Index(moduleExts, ext) {
			continue // web_search.ts wins over web_search.js, as the extension order says
		}
		r.p.copies[name] = p
	}
	for _, name := range sortedKeys(r.p.copies) {
		p := r.p.copies[name]
		if builtin.Is(name) {
			r.warnf(p, 1, "a copy of the Beeuni tool `%s`: delete it. The daemon hosts the Beeuni tools beeuni.yaml lists, on both harnesses (list `%s: beeuni:%s` under `tools:` to keep it); on the default runtime this copy still wins over the hosted tool", name, name, name)
		}
		if r.p.harness != HarnessDefault {
			continue
		}
		r.p.legacy[name] = p
		for i, t := range r.p.Tools {
			if t.Name != name {
				continue
			}
			t.Source = p
			if builtin.Is(name) {
				t.Kind = KindOverridden
			} else {
				t.Kind = KindProject
			}
			r.p.Tools[i] = t
		}
	}
}

// Legacy maps each module of harnesses/opencode/tools/ the default runtime
// loads to its path: a tool there wins over the hosted tool of its name. It is
// empty on the experimental runtime, which ignores that folder.
func (p *Project) Legacy() map[string]string { return maps.Clone(p.legacy) }

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
