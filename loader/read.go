package loader

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// MaxManifestBytes caps every manifest file read: a bigger file is a finding,
// not an allocation.
const MaxManifestBytes = 1 << 20

// reader holds the state of one Read.
type reader struct {
	fsys     fs.FS
	p        *Project
	seen     map[string]bool   // manifest files already read
	stack    []string          // import chain, for cycles
	declAt   map[string]keyPos // tool name -> first declaration
	agentAt  map[string]keyPos // agent name -> first declaration
	declared map[string]bool   // every name under any tools: key
	badTools bool              // a tools: value is not a mapping
}

// Read reads beeuni.yaml and its imports from fsys (rooted at the repository
// root) with the rules of harness h. It never panics and never returns a Go
// error: every problem with the input is a Finding, sorted by file and line.
//
// With no beeuni.yaml, the project gets all five Beeuni tools (as with no
// tools: key) plus an error finding that says to create one.
func Read(fsys fs.FS, h Harness) *Project {
	p := &Project{
		Manifest: ManifestName,
		harness:  h,
		toolsAt:  map[string]keyPos{},
		agents:   map[string]*agent{},
		legacy:   map[string]string{},
		copies:   map[string]string{},
		docs:     map[string]*doc{},
	}
	r := &reader{
		fsys:     fsys,
		p:        p,
		seen:     map[string]bool{},
		declAt:   map[string]keyPos{},
		agentAt:  map[string]keyPos{},
		declared: map[string]bool{},
	}
	r.readRoot()
	r.resolveTools()
	r.readLegacy()
	r.checkAgents()
	sort.SliceStable(p.Findings, func(i, j int) bool {
		a, b := p.Findings[i], p.Findings[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Severity == SeverityError && b.Severity != SeverityError
	})
	return p
}

func (r *reader) errorf(file string, line int, format string, args ...any) {
	r.p.Findings = append(r.p.Findings, Finding{File: file, Line: line, Severity: SeverityError, Message: fmt.Sprintf(format, args...)})
}

func (r *reader) warnf(file string, line int, format string, args ...any) {
	r.p.Findings = append(r.p.Findings, Finding{File: file, Line: line, Severity: SeverityWarning, Message: fmt.Sprintf(format, args...)})
}

func (r *reader) readRoot() {
	st, err := fs.Stat(r.fsys, ManifestName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.errorf(ManifestName, 0, "not found at the repository root: create beeuni.yaml to declare the project's tools (without it a session gets all five Beeuni tools)")
		return
	case err != nil:
		r.errorf(ManifestName, 0, "cannot be read: %v: make beeuni.yaml a readable file", stripPathErr(err))
		return
	case st.IsDir():
		r.errorf(ManifestName, 0, "is a folder: beeuni.yaml must be a YAML file at the repository root")
		return
	}
	r.p.found = true
	data, ok := r.readText(ManifestName, st)
	if !ok {
		return
	}
	r.readManifest(ManifestName, data)
}

// readText reads a manifest file that is known to exist, refusing huge and
// binary files with a finding in that file.
func (r *reader) readText(name string, st fs.FileInfo) ([]byte, bool) {
	if !st.Mode().IsRegular() && st.Mode()&fs.ModeType != 0 {
		r.errorf(name, 0, "is not a regular file: make it a YAML text file")
		return nil, false
	}
	if st.Size() > MaxManifestBytes {
		r.errorf(name, 1, "is %d bytes, over the %d-byte limit for a manifest file: keep tools and agents in small YAML files", st.Size(), MaxManifestBytes)
		return nil, false
	}
	f, err := r.fsys.Open(name)
	if err != nil {
		r.errorf(name, 0, "cannot be read: %v", stripPathErr(err))
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxManifestBytes+1))
	if err != nil {
		r.errorf(name, 0, "cannot be read: %v", stripPathErr(err))
		return nil, false
	}
	if len(data) > MaxManifestBytes {
		r.errorf(name, 1, "is over the %d-byte limit for a manifest file: keep tools and agents in small YAML files", MaxManifestBytes)
		return nil, false
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		r.errorf(name, lineAt(data, i), "is not a text file (it holds a NUL byte): a manifest must be UTF-8 YAML text")
		return nil, false
	}
	if !utf8.Valid(data) {
		r.errorf(name, lineAt(data, firstInvalidUTF8(data)), "is not UTF-8 text: save it as UTF-8 YAML")
		return nil, false
	}
	return data, true
}

func lineAt(data []byte, off int) int { return bytes.Count(data[:off], []byte{'\n'}) + 1 }

func firstInvalidUTF8(data []byte) int {
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n <= 1 {
			return i
		}
		i += n
	}
	return 0
}

// stripPathErr drops the path from an fs.PathError: findings already name the file.
func stripPathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// readManifest parses one manifest file and reads its tools:, agents: and
// imports: keys, then the imported files in order.
func (r *reader) readManifest(name string, data []byte) {
	r.stack = append(r.stack, name)
	defer func() { r.stack = r.stack[:len(r.stack)-1] }()
	r.seen[name] = true
	r.p.files = append(r.p.files, name)
	root, ok := r.parse(name, data)
	d := &doc{name: name, data: data, root: root}
	r.p.docs[name] = d
	if !ok || root == nil {
		return
	}
	if root.Kind != yaml.MappingNode {
		r.errorf(name, root.Line, "must be a YAML mapping with keys such as `tools:`, `agents:` and `imports:`; found %s", describe(root))
		return
	}
	var imports *yaml.Node
	seenKey := map[string]int{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], deref(root.Content[i+1])
		if k.Kind != yaml.ScalarNode {
			continue
		}
		switch k.Value {
		case "tools", "agents", "imports":
		default:
			r.checkKey(name, k, topKeys) // other keys are left alone, but for near misses
			continue
		}
		if first, dup := seenKey[k.Value]; dup {
			r.errorf(name, k.Line, "`%s:` appears twice in %s (lines %d and %d): merge them into one", k.Value, name, first, k.Line)
			continue
		}
		seenKey[k.Value] = k.Line
		switch k.Value {
		case "tools":
			d.toolsKey, d.tools = k, v
			r.readTools(name, k, v)
		case "agents":
			r.readAgents(name, v)
		case "imports":
			imports = v
		}
	}
	if imports != nil {
		r.readImports(name, imports)
	}
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parse decodes one YAML document into a node tree. A syntax error becomes a
// finding at yaml's line; when yaml gives none, the shortest failing prefix
// of lines locates it.
func (r *reader) parse(name string, data []byte) (root *yaml.Node, ok bool) {
	n, second, err := decode(data)
	if err != nil {
		line, msg := yamlErrLine(data, err)
		r.errorf(name, line, "is not valid YAML: %s: fix the syntax on this line", msg)
		return nil, false
	}
	if second > 0 {
		r.errorf(name, second, "holds more than one YAML document: beeuni reads one; remove the `---` line and merge the documents")
		return nil, false
	}
	return n, true
}

// decode returns the root node of the first document (nil when the file is
// empty), and the line of a second document if there is one.
func decode(data []byte) (root *yaml.Node, second int, err error) {
	defer func() {
		if p := recover(); p != nil {
			root, second, err = nil, 0, fmt.Errorf("yaml: %v", p)
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var d yaml.Node
	if err := dec.Decode(&d); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, nil
		}
		return nil, 0, err
	}
	if len(d.Content) > 0 {
		root = d.Content[0]
	}
	var d2 yaml.Node
	if err := dec.Decode(&d2); err == nil {
		line := d2.Line
		if line <= 0 {
			line = 1
		}
		return root, line, nil
	} else if !errors.Is(err, io.EOF) {
		return nil, 0, err
	}
	return root, 0, nil
}

func yamlErrLine(data []byte, err error) (int, string) {
	msg := stripYAMLPrefix(err.Error())
	// yaml.v3 gives no line for some errors and a 0-based one for others, so
	// the line is the end of the shortest prefix of lines that fails the
	// same way (a binary search: a few parses of at most 1 MiB).
	lines := bytes.SplitAfter(data, []byte{'\n'})
	lo, hi := 1, len(lines)
	for lo < hi {
		mid := (lo + hi) / 2
		_, _, e := decode(bytes.Join(lines[:mid], nil))
		if e != nil && stripYAMLPrefix(e.Error()) == msg {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return max(lo, 1), msg
}

// stripYAMLPrefix drops "yaml: " and "line N: " from a yaml.v3 error.
func stripYAMLPrefix(s string) string {
	if m := yamlLineRE.FindStringSubmatch(s); m != nil {
		return m[2]
	}
	return strings.TrimPrefix(s, "yaml: ")
}

// deref follows an alias to the node it names.
func deref(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

func isString(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!str"
}

// describe names a node's shape for messages.
func describe(n *yaml.Node) string {
	switch {
	case n == nil || isNull(n):
		return "nothing"
	case n.Kind == yaml.SequenceNode:
		return "a list"
	case n.Kind == yaml.MappingNode:
		return "a mapping"
	case n.Kind == yaml.ScalarNode:
		return fmt.Sprintf("`%s`", clip(n.Value))
	}
	return "something else"
}

// clip shortens a value quoted in a message.
func clip(s string) string {
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = s[:i] + "…"
	}
	if utf8.RuneCountInString(s) > 80 {
		s = string([]rune(s)[:80]) + "…"
	}
	return s
}
