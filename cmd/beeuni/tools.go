package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/beeuni/beeuni/loader"
)

// tools dispatches `beeuni tools SUBCOMMAND`.
func (a *app) tools(ctx context.Context, args []string) int {
	subs := map[string]func(context.Context, []string) int{
		"ls":     a.toolsLs,
		"eject":  a.toolsEject,
		"call":   a.toolsCall,
		"render": a.toolsRender,
		"lint":   a.toolsLint,
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.toolsUsage()
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	run, ok := subs[args[0]]
	if !ok {
		a.errorf(nil, "tools: unknown subcommand %q", args[0])
		a.toolsUsage()
		return exitUsage
	}
	return run(ctx, args[1:])
}

func (a *app) toolsUsage() {
	fmt.Fprint(a.stderr, "Usage: beeuni tools SUBCOMMAND [flags]\n\nSubcommands:\n"+
		"  ls [--json] [--harness H] [--agent A [--parent-agent P]] [--dir DIR] [--worktree]\n"+
		"                                          the tools a session gets (from what Git would ship), and the Beeuni tools removed;\n"+
		"                                          with --agent, the tools that agent's model sees, harness tools included\n"+
		"  eject NAME [--force] [--dir DIR]        give the project its own copy of a Beeuni tool\n"+
		"  call NAME [--args JSON|-] [--agent A] [--parent-agent P] [--session S] [--harness H] [--dir DIR]\n"+
		"                                          call one tool locally, as the executor would\n"+
		"  render --provider P [--api chat|responses] [--gemini-schema openapi|json] [--agent A] [--json]\n"+
		"                                          the tools as a provider request's tools field\n"+
		"  lint [--provider P[,P…]] [--agent A] [--json]\n"+
		"                                          what each provider would reject or change in the schemas\n")
}

// lsJSON is the shape of `beeuni tools ls --json`.
type lsJSON struct {
	Manifest string       `json:"manifest"`
	ToolsKey bool         `json:"tools_key"`
	Tools    []lsJSONTool `json:"tools"`
	Removed  []string     `json:"removed"`
	// With --agent: whose view the tools are, on which harness.
	Agent       string `json:"agent,omitempty"`
	ParentAgent string `json:"parent_agent,omitempty"`
	Harness     string `json:"harness,omitempty"`
}

type lsJSONTool struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
}

// toolsLs is `beeuni tools ls`: the reference's table, or --json. With
// --agent, the rows are what that agent's model sees on the harness (harness
// tools included, the subagent rule applied with --parent-agent). On a
// project with errors it still prints what it can, the findings go to
// stderr, and it exits 1.
func (a *app) toolsLs(ctx context.Context, args []string) int {
	fl := a.newFlags("tools ls", "tools ls [--json] [--harness H] [--agent A [--parent-agent P]] [--dir DIR] [--worktree]")
	asJSON := fl.Bool("json", false, "print JSON: { manifest, tools_key, tools: [{ name, kind, source }], removed }")
	agent := fl.String("agent", "", "list the tools this agent's model sees on the harness, harness tools included")
	parent := fl.String("parent-agent", "", "with --agent: the agent runs as a subagent that this agent started with `task`")
	var pc projectCmd
	addProjectFlags(fl, &pc)
	worktree := addWorktreeFlag(fl)
	_, h, root, code, ok := a.parseProject(fl, &pc, args, takesNoArgs("tools ls"))
	if !ok {
		return code
	}
	if *parent != "" && *agent == "" {
		a.errorf(nil, "tools ls: --parent-agent needs --agent: name the subagent whose tools to list")
		fl.Usage()
		return exitUsage
	}
	if !a.manifestExistsTo(root) {
		return exitFailure
	}
	v, ok := a.openView(ctx, root, *worktree)
	if !ok {
		return exitFailure
	}
	a.printNotes(v)
	p := v.read(h)
	findings := merge(p.Findings, v.shipping(h))
	tools := p.Tools
	if *agent != "" {
		tools = p.SeenBy(*agent, *parent)
	}
	if *asJSON {
		out := lsJSON{Manifest: p.Manifest, ToolsKey: p.ToolsKey, Tools: []lsJSONTool{}, Removed: append([]string{}, p.Removed...)}
		if *agent != "" {
			out.Agent, out.ParentAgent, out.Harness = *agent, *parent, string(h)
		}
		for _, t := range tools {
			out.Tools = append(out.Tools, lsJSONTool{Name: t.Name, Kind: string(t.Kind), Source: t.Source})
		}
		b, err := json.MarshalIndent(out, "", "  ")
		if err != nil {
			a.errorf(nil, "tools ls: encode JSON: %v", err)
			return exitFailure
		}
		fmt.Fprintf(a.stdout, "%s\n", b)
	} else {
		fmt.Fprint(a.stdout, toolsTable(tools, p.Removed))
	}
	errs := false
	for _, f := range findings {
		fmt.Fprintln(a.stderr, f.String())
		errs = errs || f.Severity == loader.SeverityError
	}
	for _, n := range []string{*agent, *parent} {
		if n != "" && !p.Declared(n) {
			fmt.Fprintf(a.stderr, "note: agent %s is not declared under agents: in %s, so it sees every tool\n", n, loader.ManifestName)
		}
	}
	if errs {
		return exitFailure
	}
	return exitOK
}

// toolsTable renders the reference's table: each column padded to its widest
// cell plus two spaces, then the removed Beeuni tools.
func toolsTable(tools []loader.Tool, removed []string) string {
	rows := [][3]string{{"NAME", "KIND", "SOURCE"}}
	for _, t := range tools {
		rows = append(rows, [3]string{t.Name, string(t.Kind), t.Source})
	}
	w0, w1 := 0, 0
	for _, r := range rows {
		w0 = max(w0, utf8.RuneCountInString(r[0]))
		w1 = max(w1, utf8.RuneCountInString(r[1]))
	}
	var b strings.Builder
	for _, r := range rows {
		fmt.Fprintf(&b, "%-*s%-*s%s\n", w0+2, r[0], w1+2, r[1], r[2])
	}
	if len(removed) > 0 {
		fmt.Fprintf(&b, "\nRemoved Beeuni tools: %s\n", strings.Join(removed, ", "))
		b.WriteString("Add `<name>: beeuni:<name>` under `tools:` to get one back.\n")
	}
	return b.String()
}

// manifestExistsTo is manifestExists for commands whose stdout carries data:
// the message goes to stderr.
func (a *app) manifestExistsTo(root string) bool {
	saved := a.stdout
	a.stdout = a.stderr
	ok := a.manifestExists(root)
	a.stdout = saved
	return ok
}

// toolsEject is `beeuni tools eject NAME [--force]`, with the reference's output.
func (a *app) toolsEject(_ context.Context, args []string) int {
	fl := a.newFlags("tools eject", "tools eject NAME [--force] [--dir DIR]")
	force := fl.Bool("force", false, "overwrite tools/NAME.ts, or replace the module the tool points at")
	dir := fl.String("dir", "", "the project folder, which holds beeuni.yaml (default: the current folder)")
	pos, code, ok := parseOrUsage(fl, args)
	if !ok {
		return code
	}
	if len(pos) != 1 {
		a.errorf(nil, "tools eject takes one Beeuni tool name, e.g. `beeuni tools eject web_search`")
		fl.Usage()
		return exitUsage
	}
	name := pos[0]
	root, err := projectDir(*dir)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	if !a.manifestExistsTo(root) {
		return exitFailure
	}
	res, err := loader.Eject(root, name, *force)
	if err != nil {
		var me *loader.ManifestError
		if errors.As(err, &me) {
			a.errorf(nil, "tools eject %s: %s has errors: fix them first, then run eject again:", name, loader.ManifestName)
			for _, f := range me.Findings {
				if f.Severity == loader.SeverityError {
					fmt.Fprintln(a.stderr, f.String())
				}
			}
			return exitFailure
		}
		a.errorf(nil, "tools eject %s: %v", name, err)
		return exitFailure
	}
	fmt.Fprint(a.stdout, ejectOutput(res))
	return exitOK
}

// ejectOutput is the reference's eject output for res.
func ejectOutput(res loader.EjectResult) string {
	n, m, f := res.Name, res.Module, res.File
	return fmt.Sprintf(`  ✓  Ejected %[1]s
  wrote   %[2]s (the Beeuni source, now the project's to change)
  set     %[3]s: tools.%[1]s: %[2]s

Next:
  1. Edit %[2]s. Keep the default export: { description, parameters, execute(args, context) }.
  2. beeuni validate
  3. git add %[2]s %[3]s && git commit -m "Own the %[1]s tool"
  4. Open a change request: git push origin HEAD && beeuni cr open --title "Own the %[1]s tool"
Sessions load the copy after the change request merges.
`, n, m, f)
}
