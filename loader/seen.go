package loader

import "slices"

// KindHarness classes a harness tool in `tools ls --agent`.
const KindHarness Kind = "harness"

// ptyTools stands for the default runtime's terminal plugin tools (pty_*),
// which come and go with the plugin: `bash` covers them all.
const ptyTools = "pty_*"

// VisibleTo reports whether agent sees tool when it runs as a subagent that
// parent started with `task` (parent "": agent is the session agent). This is
// the reference's subagent rule for the project's harness: on the
// experimental runtime both lists must allow the tool; on the default runtime
// the subagent's own list decides.
func (p *Project) VisibleTo(agent, parent, tool string) bool {
	if parent == "" {
		return p.Visible(agent, tool)
	}
	return p.SubagentVisible(parent, agent, tool)
}

// Declared reports whether agent is declared under agents:. An undeclared
// agent sees every tool, which a misspelled agent name turns into a surprise.
func (p *Project) Declared(agent string) bool {
	_, ok := p.agents[agent]
	return ok
}

// SeenBy lists the tools the model of agent (a subagent of parent when parent
// is not "") sees on the project's harness: the harness's own tools (and, on
// the default runtime, the terminal plugin's pty_* as one row), then the
// hosted tools in `tools ls` order, then the default runtime's legacy-folder
// tools that no hosted tool names. The harness's grouping applies: on the
// default runtime `bash` brings `pty_*`, and `write`, `edit` and
// `apply_patch` come and go together.
func (p *Project) SeenBy(agent, parent string) []Tool {
	var all []Tool
	for _, n := range harnessTools {
		all = append(all, Tool{Name: n, Kind: KindHarness, Source: "harness"})
	}
	if p.harness == HarnessDefault {
		all = append(all, Tool{Name: ptyTools, Kind: KindHarness, Source: "harness (terminal plugin)"})
	}
	all = append(all, p.Tools...)
	for _, name := range sortedKeys(p.legacy) {
		if !slices.ContainsFunc(p.Tools, func(t Tool) bool { return t.Name == name }) {
			all = append(all, Tool{Name: name, Kind: KindProject, Source: p.legacy[name]})
		}
	}
	out := []Tool{}
	for _, t := range all {
		if p.VisibleTo(agent, parent, t.Name) {
			out = append(out, t)
		}
	}
	return out
}
