package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing/fstest"

	"gopkg.in/yaml.v3"

	"github.com/beeuni/beeuni/internal/atomicfile"
	"github.com/beeuni/beeuni/loader/builtin"
)

// EjectResult says what Eject wrote.
type EjectResult struct {
	Name   string // the Beeuni tool ejected
	Module string // "tools/web_search.ts", the file written
	File   string // the manifest file whose line was set ("beeuni.yaml" or an imported file)
}

// ManifestError refuses an operation on a manifest that has errors.
type ManifestError struct{ Findings []Finding }

func (e *ManifestError) Error() string {
	var b strings.Builder
	b.WriteString("beeuni.yaml has errors: fix them first (run beeuni validate)")
	for _, f := range e.Findings {
		if f.Severity == SeverityError {
			b.WriteString("\n  " + f.String())
		}
	}
	return b.String()
}

// ejectPlan is every byte Eject will write, computed before anything is.
type ejectPlan struct {
	EjectResult
	manifest []byte // the new content of File
	source   []byte // the Beeuni source for Module
}

// Eject gives the project in dir its own copy of the Beeuni tool name: it
// writes the Beeuni source to tools/<name>.ts and sets `<name>:
// tools/<name>.ts # ejected from beeuni:<name>` in the manifest file that
// declares the entry, leaving every other line as it was. It refuses, writing
// nothing, when tools/<name>.ts exists or the tool already points at another
// module (unless force), when name is not a Beeuni tool, and when the manifest has
// errors. Both files are written atomically.
func Eject(dir, name string, force bool) (EjectResult, error) {
	plan, err := planEject(os.DirFS(dir), name, force)
	if err != nil {
		return EjectResult{}, err
	}
	modPath := filepath.Join(dir, filepath.FromSlash(plan.Module))
	manPath := filepath.Join(dir, filepath.FromSlash(plan.File))
	if real, err := filepath.EvalSymlinks(manPath); err == nil {
		manPath = real // write through a symlinked manifest, not over the link
	}
	manMode := fs.FileMode(0o644)
	if st, err := os.Stat(manPath); err == nil {
		manMode = st.Mode().Perm()
	}
	old, oldErr := os.ReadFile(modPath)
	if err := os.MkdirAll(filepath.Dir(modPath), 0o755); err != nil {
		return EjectResult{}, fmt.Errorf("create %s: %w", filepath.Dir(plan.Module), err)
	}
	if err := atomicfile.Write(modPath, plan.source, 0o644); err != nil {
		return EjectResult{}, fmt.Errorf("write %s: %w", plan.Module, err)
	}
	if err := atomicfile.Write(manPath, plan.manifest, manMode); err != nil {
		// Put the module back as it was, so a failure leaves the project unchanged.
		var undo error
		if oldErr == nil {
			undo = atomicfile.Write(modPath, old, 0o644)
		} else {
			undo = os.Remove(modPath)
		}
		if undo != nil {
			return EjectResult{}, fmt.Errorf("write %s: %w; %s was written and could not be put back (%v): restore it with git checkout, or delete it if it is new", plan.File, err, plan.Module, undo)
		}
		return EjectResult{}, fmt.Errorf("write %s: %w (nothing was changed)", plan.File, err)
	}
	return plan.EjectResult, nil
}

// planEject checks everything and computes both files' new content.
func planEject(fsys fs.FS, name string, force bool) (*ejectPlan, error) {
	if !builtin.Is(name) {
		return nil, fmt.Errorf("`%s` is not a Beeuni tool: eject one of %s", clip(name), builtinList())
	}
	source, ok := builtin.Source(name)
	if !ok {
		return nil, fmt.Errorf("the Beeuni source of %s is missing from this binary: rebuild beeuni", name)
	}
	module := "tools/" + name + ".ts"
	// An earlier eject's copy that was deleted leaves the entry pointing at
	// a missing module: eject writes that module again, so the manifest is
	// read as it will be, with the module in place.
	readFS := fsys
	if _, err := fs.Stat(fsys, module); errors.Is(err, fs.ErrNotExist) {
		readFS = overlayFS{fsys, map[string][]byte{module: source}}
	}
	p := Read(readFS, HarnessExperimental)
	if !p.found {
		return nil, fmt.Errorf("no beeuni.yaml at the project root: create one, or pass --dir with the folder that holds it")
	}
	if p.HasErrors() {
		return nil, &ManifestError{Findings: p.Findings}
	}
	if st, err := fs.Stat(fsys, "tools"); err == nil && !st.IsDir() {
		return nil, fmt.Errorf("tools is a file, not a folder: move it away so eject can write %s", module)
	}
	if st, err := fs.Stat(fsys, module); err == nil {
		if st.IsDir() {
			return nil, fmt.Errorf("%s is a folder: move it away so eject can write the module there", module)
		}
		if !force {
			return nil, fmt.Errorf("%s already exists: move it away, or pass --force to overwrite it with the Beeuni source", module)
		}
	}
	plan := &ejectPlan{EjectResult: EjectResult{Name: name, Module: module}, source: source}
	var err error
	switch d := p.decl(name); {
	case d != nil && !d.tool.IsBuiltin() && d.tool.Source != module && !force:
		return nil, fmt.Errorf("%s already points at the module %s (%s:%d): pass --force to point it at %s and write the Beeuni source there", name, d.tool.Source, d.file, d.line, module)
	case d != nil:
		plan.File = d.file
		plan.manifest, err = setEntry(p.docs[d.file], name, module)
	default:
		plan.File = ManifestName
		plan.manifest, err = addEntry(p, name, module)
	}
	if err != nil {
		return nil, err
	}
	// Read the result back: the edit must give exactly the ejected tool and
	// no error, or nothing is written.
	after := Read(overlayFS{fsys, map[string][]byte{plan.File: plan.manifest, module: source}}, HarnessExperimental)
	if t, ok := after.Tool(name); !ok || t.Source != module || after.HasErrors() {
		return nil, fmt.Errorf("eject could not set `%s: %s` in %s without breaking it: set that line by hand and write the module with the Beeuni source; nothing was changed", name, module, plan.File)
	}
	return plan, nil
}

// decl returns the valid declaration of name, if any.
func (p *Project) decl(name string) *decl {
	for i := range p.decls {
		if p.decls[i].name == name && p.decls[i].valid {
			return &p.decls[i]
		}
	}
	return nil
}

func ejectedLine(indent, name, module, eol string) string {
	return indent + name + ": " + module + " # ejected from beeuni:" + name + eol
}

// layoutError says eject cannot edit a layout it does not handle by text.
func layoutError(file string, line int, name string) error {
	return fmt.Errorf("%s:%d: eject edits one `name: source` line of a block mapping: write `tools:` with one entry per line (`%s: beeuni:%s`) and run eject again", file, line, name, name)
}

// setEntry rewrites the line declaring name in d to point at module.
func setEntry(d *doc, name, module string) ([]byte, error) {
	if d == nil || d.tools == nil || d.tools.Kind != yaml.MappingNode {
		return nil, fmt.Errorf("internal: no tools mapping for %s", name)
	}
	lines, eol := splitLines(d.data)
	for i := 0; i+1 < len(d.tools.Content); i += 2 {
		k, v := d.tools.Content[i], d.tools.Content[i+1]
		if k.Value != name {
			continue
		}
		if d.tools.Style&yaml.FlowStyle != 0 || k.Line != v.Line || k.Line < 1 || k.Line > len(lines) {
			return nil, layoutError(d.fileName(), k.Line, name)
		}
		indent, ok := spacesBefore(lines[k.Line-1], k.Column)
		if !ok {
			return nil, layoutError(d.fileName(), k.Line, name)
		}
		lines[k.Line-1] = ejectedLine(indent, name, module, lineEOL(lines[k.Line-1], eol))
		return []byte(strings.Join(lines, "")), nil
	}
	return nil, fmt.Errorf("internal: %s not found under the tools key", name)
}

// addEntry adds name under the root file's tools: key, or, with no tools:
// key anywhere, appends a tools: block listing the other four Beeuni tools so
// that the eject removes nothing.
func addEntry(p *Project, name, module string) ([]byte, error) {
	d := p.docs[ManifestName]
	lines, eol := splitLines(d.data)
	if d.root != nil && d.root.Kind == yaml.MappingNode && d.root.Style&yaml.FlowStyle != 0 {
		return nil, fmt.Errorf("%s is written in flow style ({...}): write it as block YAML, one key per line, and run eject again", ManifestName)
	}
	if d.toolsKey != nil {
		t := d.tools
		kl := d.toolsKey.Line
		if kl < 1 || kl > len(lines) {
			return nil, layoutError(ManifestName, kl, name)
		}
		keyIndent, ok := spacesBefore(lines[kl-1], d.toolsKey.Column)
		if !ok {
			return nil, layoutError(ManifestName, kl, name)
		}
		switch {
		case t.Kind == yaml.MappingNode && t.Style&yaml.FlowStyle == 0 && len(t.Content) >= 2:
			last := t.Content[len(t.Content)-2]
			indent, ok := spacesBefore(lines[last.Line-1], last.Column)
			if !ok || t.Content[len(t.Content)-1].Line != last.Line {
				return nil, layoutError(ManifestName, last.Line, name)
			}
			return insertAfter(lines, last.Line, ejectedLine(indent, name, module, eol)), nil
		case isNull(t) || (t.Kind == yaml.MappingNode && len(t.Content) == 0 && t.Line == kl):
			// `tools:`, `tools: ~` or `tools: {}`: make it a block with one entry.
			lines[kl-1] = keyIndent + "tools:" + lineEOL(lines[kl-1], eol)
			return insertAfter(lines, kl, ejectedLine(keyIndent+"  ", name, module, eol)), nil
		default:
			return nil, layoutError(ManifestName, kl, name)
		}
	}
	indent := ""
	if d.root != nil && d.root.Kind == yaml.MappingNode && len(d.root.Content) > 0 {
		indent = strings.Repeat(" ", max(d.root.Content[0].Column-1, 0))
	}
	var b strings.Builder
	b.WriteString(indent + "tools:" + eol)
	for _, n := range builtin.Names() {
		switch {
		case n == name:
			b.WriteString(ejectedLine(indent+"  ", name, module, eol))
		case p.ToolsKey:
			// a tools: key in an imported file: add only the ejected tool
		default:
			b.WriteString(indent + "  " + n + ": beeuni:" + n + eol)
		}
	}
	out := strings.Join(lines, "")
	if out != "" && !strings.HasSuffix(out, "\n") {
		out += eol
	}
	if out != "" && !strings.HasSuffix(out, "\n\n") && !strings.HasSuffix(out, "\r\n\r\n") {
		out += eol
	}
	return []byte(out + b.String()), nil
}

func (d *doc) fileName() string { return d.name }

// splitLines splits data after each "\n" and returns the file's line ending.
func splitLines(data []byte) ([]string, string) {
	eol := "\n"
	if bytes.Contains(data, []byte("\r\n")) {
		eol = "\r\n"
	}
	if len(data) == 0 {
		return nil, eol
	}
	return strings.SplitAfter(string(data), "\n"), eol
}

// lineEOL is the line ending a line has, or eol for a last line without one.
func lineEOL(line, eol string) string {
	switch {
	case strings.HasSuffix(line, "\r\n"):
		return "\r\n"
	case strings.HasSuffix(line, "\n"):
		return "\n"
	}
	return ""
}

// spacesBefore returns the text before 1-based column col when it is only
// spaces (the key starts the line).
func spacesBefore(line string, col int) (string, bool) {
	if col < 1 || col-1 > len(line) {
		return "", false
	}
	pre := line[:col-1]
	if strings.Trim(pre, " ") != "" {
		return "", false
	}
	return pre, true
}

// insertAfter inserts text after 1-based line n, ending line n first if it
// was the file's last line without a newline.
func insertAfter(lines []string, n int, text string) []byte {
	out := make([]string, 0, len(lines)+1)
	out = append(out, lines[:n]...)
	if last := out[n-1]; !strings.HasSuffix(last, "\n") {
		eol := "\n"
		if strings.HasSuffix(text, "\r\n") {
			eol = "\r\n"
		}
		out[n-1] = last + eol
	}
	out = append(out, text)
	out = append(out, lines[n:]...)
	return []byte(strings.Join(out, ""))
}

// overlayFS is fsys with some files replaced, to read an edit back before
// writing it.
type overlayFS struct {
	base  fs.FS
	files map[string][]byte
}

func (o overlayFS) Open(name string) (fs.File, error) {
	if data, ok := o.files[name]; ok {
		return fstest.MapFS{name: &fstest.MapFile{Data: data, Mode: 0o644}}.Open(name)
	}
	f, err := o.base.Open(name)
	if err != nil && errors.Is(err, fs.ErrNotExist) && o.isDir(name) {
		return fstest.MapFS{}.Open(".")
	}
	return f, err
}

// isDir reports whether name is a folder holding an overlaid file (tools/
// before eject creates it).
func (o overlayFS) isDir(name string) bool {
	for p := range o.files {
		if strings.HasPrefix(p, name+"/") {
			return true
		}
	}
	return false
}
