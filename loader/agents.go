package loader

import (
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/beeuni/beeuni/loader/builtin"
)

// toolsMode is the form of an agent's tools value.
type toolsMode int

const (
	modeAll     toolsMode = iota // omitted, `all`, or a list with `*`
	modeNone                     // `none`
	modeList                     // only the names listed
	modeExclude                  // every tool but the names listed
	modeMap                      // the map form: names set to false are removed
)

// nameAt is a tool name in an agent's tools value, with its line.
type nameAt struct {
	name string
	line int
}

// agent is one entry under agents:.
type agent struct {
	file  string
	line  int
	mode  toolsMode // what the agent sees
	form  toolsMode // how it was written (a list with `*` sees all but is a list)
	names []nameAt  // listed (list), excluded (exclude), or set to false (map)
	other []nameAt  // map form: names set to true, checked but not restricting
	set   map[string]bool

	secretsAll bool
	secrets    []string
}

var secretNamePattern = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

const toolsFormsHint = "use `all`, `none`, a list of tool names, `exclude: [...]`, or a map of tool names to false (`bash: false`)"

// readAgents reads the value of one agents: key in file.
func (r *reader) readAgents(file string, v *yaml.Node) {
	if isNull(v) {
		return
	}
	if v.Kind != yaml.MappingNode {
		r.errorf(file, v.Line, "`agents:` must map each agent name to its settings (`researcher: {tools: [read, web_search]}`); found %s", describe(v))
		return
	}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := deref(v.Content[i]), deref(v.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			r.errorf(file, k.Line, "an agent name must be a plain name such as `researcher`; found %s", describe(k))
			continue
		}
		name := k.Value
		if at, dup := r.agentAt[name]; dup {
			if at.File == file {
				r.errorf(file, k.Line, "agent `%s` is declared twice in %s (lines %d and %d): keep one", clip(name), file, at.Line, k.Line)
			} else {
				r.errorf(file, k.Line, "agent `%s` is declared in two files, %s:%d and %s:%d: keep one", clip(name), at.File, at.Line, file, k.Line)
			}
			continue
		}
		r.agentAt[name] = keyPos{File: file, Line: k.Line}
		a := &agent{file: file, line: k.Line}
		r.p.agents[name] = a
		if isNull(val) {
			continue
		}
		if val.Kind != yaml.MappingNode {
			r.errorf(file, val.Line, "agent `%s` must be a mapping of its settings (`tools:`, `secrets:`, ...); found %s", clip(name), describe(val))
			a.mode = modeNone // fail closed: an agent we cannot read sees nothing
			continue
		}
		for j := 0; j+1 < len(val.Content); j += 2 {
			sk, sv := deref(val.Content[j]), deref(val.Content[j+1])
			switch sk.Value {
			case "tools":
				r.readAgentTools(file, name, a, sv)
			case "secrets":
				r.readAgentSecrets(file, name, a, sv)
			default:
				r.checkKey(file, sk, agentKeys)
			}
		}
	}
}

func (r *reader) readAgentTools(file, name string, a *agent, v *yaml.Node) {
	switch {
	case isNull(v):
		a.mode = modeAll
	case v.Kind == yaml.ScalarNode && v.Value == "all":
		a.mode = modeAll
	case v.Kind == yaml.ScalarNode && v.Value == "none":
		a.mode = modeNone
	case v.Kind == yaml.SequenceNode:
		a.mode, a.form = modeList, modeList
		a.names = r.readNames(file, v)
		for _, n := range a.names {
			if n.name == "*" {
				a.mode = modeAll
			}
		}
	case v.Kind == yaml.MappingNode:
		if ex := mapValue(v, "exclude"); ex != nil {
			a.mode, a.form = modeExclude, modeExclude
			if len(v.Content) > 2 {
				r.errorf(file, v.Line, "agent `%s`: `tools:` has `exclude:` and other keys: use either `exclude: [...]` or the map form (`bash: false`), not both", clip(name))
				a.mode = modeNone
				return
			}
			ex = deref(ex)
			switch {
			case isNull(ex):
			case ex.Kind == yaml.SequenceNode:
				a.names = r.readNames(file, ex)
			default:
				r.errorf(file, ex.Line, "agent `%s`: `exclude:` must be a list of tool names (`exclude: [bash, write]`); found %s", clip(name), describe(ex))
				a.mode = modeNone
			}
			return
		}
		a.mode, a.form = modeMap, modeMap
		for i := 0; i+1 < len(v.Content); i += 2 {
			k, b := deref(v.Content[i]), deref(v.Content[i+1])
			if k.Kind != yaml.ScalarNode {
				r.errorf(file, k.Line, "agent `%s`: each key of the map form must be a tool name; found %s", clip(name), describe(k))
				continue
			}
			if b.Kind != yaml.ScalarNode || b.Tag != "!!bool" {
				r.errorf(file, b.Line, "agent `%s`: `%s` must be true or false in the map form (`%s: false` removes the tool); found %s", clip(name), clip(k.Value), clip(k.Value), describe(b))
				continue
			}
			n := nameAt{name: k.Value, line: k.Line}
			if b.Value == "false" || strings.EqualFold(b.Value, "false") {
				a.names = append(a.names, n)
			} else {
				a.other = append(a.other, n)
			}
		}
	default:
		r.errorf(file, v.Line, "agent `%s`: `tools:` must be one of the forms of the tools table: %s; found %s", clip(name), toolsFormsHint, describe(v))
		a.mode = modeNone
	}
}

func (r *reader) readNames(file string, seq *yaml.Node) []nameAt {
	var out []nameAt
	for _, it := range seq.Content {
		it = deref(it)
		if it.Kind != yaml.ScalarNode || isNull(it) {
			r.errorf(file, it.Line, "each entry must be a tool name such as `web_search`; found %s", describe(it))
			continue
		}
		out = append(out, nameAt{name: it.Value, line: it.Line})
	}
	return out
}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if k := deref(m.Content[i]); k.Kind == yaml.ScalarNode && k.Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func (r *reader) readAgentSecrets(file, name string, a *agent, v *yaml.Node) {
	switch {
	case isNull(v):
	case v.Kind == yaml.ScalarNode && v.Value == "all":
		a.secretsAll = true
	case v.Kind == yaml.SequenceNode:
		for _, it := range v.Content {
			it = deref(it)
			if it.Kind != yaml.ScalarNode || !secretNamePattern.MatchString(it.Value) {
				r.errorf(file, it.Line, "agent `%s`: %s is not a secret name: use the variable name the tool reads from `context.env` (letters, digits and `_`, e.g. `WEATHER_API_KEY`)", clip(name), describe(it))
				continue
			}
			a.secrets = append(a.secrets, it.Value)
		}
	default:
		r.errorf(file, v.Line, "agent `%s`: `secrets:` must be `all` or a list of secret names (`secrets: [WEATHER_API_KEY]`); found %s", clip(name), describe(v))
	}
}

// checkAgents warns about names in agents' tools that are no harness, Beeuni
// or project tool, and about Beeuni tools the project does not load; then it
// fixes each agent's name set with the harness's grouping.
func (r *reader) checkAgents() {
	p := r.p
	for _, name := range sortedKeys(p.agents) {
		a := p.agents[name]
		a.set = map[string]bool{}
		for _, n := range a.names {
			a.set[p.group(n.name)] = true
		}
		for _, n := range a.names {
			r.checkAgentName(a, n, a.form)
		}
		for _, n := range a.other {
			r.checkAgentName(a, n, modeMap)
		}
	}
}

func (r *reader) checkAgentName(a *agent, n nameAt, mode toolsMode) {
	p := r.p
	if n.name == "*" && mode == modeList {
		return
	}
	if builtin.Is(n.name) {
		_, legacyCopy := p.legacy[n.name]
		if mode == modeList && p.ToolsKey && !r.declared[n.name] && !legacyCopy {
			r.warnf(a.file, n.line, "%q is a Beeuni tool this project does not load: add `%s: beeuni:%s` under the top-level `tools`, or remove it here.", n.name, n.name, n.name)
		}
		return
	}
	if IsHarnessTool(n.name) || r.declared[n.name] {
		return
	}
	if _, ok := p.legacy[n.name]; ok {
		return // the default runtime loads it from harnesses/opencode/tools/
	}
	switch mode {
	case modeExclude:
		r.warnf(a.file, n.line, "`%s` is not a harness, Beeuni or project tool: a typo in an `exclude` list leaves the real tool on; fix the name", clip(n.name))
	case modeMap:
		r.warnf(a.file, n.line, "`%s` is not a harness, Beeuni or project tool: a typo here leaves the real tool on; fix the name", clip(n.name))
	default:
		r.warnf(a.file, n.line, "`%s` is not a harness, Beeuni or project tool: fix the name, or declare the tool under the top-level `tools`", clip(n.name))
	}
}

// group maps a tool name to its permission on the project's harness: on the
// default runtime `bash` and every `pty_*` tool share one, and so do `write`,
// `edit` and `apply_patch`. The experimental runtime keeps each separate.
func (p *Project) group(tool string) string {
	if p.harness != HarnessDefault {
		return tool
	}
	switch {
	case tool == "bash" || strings.HasPrefix(tool, "pty_"):
		return "bash"
	case tool == "write" || tool == "edit" || tool == "apply_patch":
		return "write"
	}
	return tool
}

// Visible reports whether agent may see and call tool (a harness, Beeuni or
// project tool name) under its agents.<name>.tools rules, with the harness's
// grouping. An agent not declared under agents: sees every tool. An agent
// whose tools value is malformed sees none (the manifest has an error then).
// Whether the tool is loaded at all is Tool's question, not this one's.
func (p *Project) Visible(agent, tool string) bool {
	a, ok := p.agents[agent]
	if !ok {
		return true
	}
	switch a.mode {
	case modeAll:
		return true
	case modeNone:
		return false
	case modeList:
		return a.set[p.group(tool)]
	default: // modeExclude, modeMap
		return !a.set[p.group(tool)]
	}
}

// SubagentVisible reports whether a subagent sub, started with the task tool
// by the session agent parent, sees tool. On the experimental runtime it gets
// only what both lists allow; on the default runtime, its own list.
func (p *Project) SubagentVisible(parent, sub, tool string) bool {
	if p.harness == HarnessExperimental {
		return p.Visible(sub, tool) && p.Visible(parent, tool)
	}
	return p.Visible(sub, tool)
}

// Secrets returns the secret names agent's tool calls receive: all=true for
// `secrets: all`, else the names listed. An agent not declared, or declared
// without secrets:, gets none.
func (p *Project) Secrets(agent string) (all bool, names []string) {
	a, ok := p.agents[agent]
	if !ok {
		return false, nil
	}
	return a.secretsAll, append([]string(nil), a.secrets...)
}

// Agents lists the agents declared under agents:, sorted.
func (p *Project) Agents() []string { return sortedKeys(p.agents) }
