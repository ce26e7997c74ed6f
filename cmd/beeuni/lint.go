package main

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// lintJSON is the shape of `beeuni tools lint --json`.
type lintJSON struct {
	Agent     string            `json:"agent"`
	Providers []schema.Provider `json:"providers"`
	Findings  []schema.Finding  `json:"findings"`
}

// toolsLint is `beeuni tools lint`: every finding of every provider asked
// for (all by default) on the tools the agent sees; exit 1 on an error.
func (a *app) toolsLint(ctx context.Context, args []string) int {
	usage := "tools lint [--provider P[,P…]] [--agent A] [--harness H] [--dir DIR] [--json]"
	fl := a.newFlags("tools lint", usage)
	providers := fl.String("provider", "", "the providers to lint for, comma-separated (default: all)")
	agent := fl.String("agent", "beeuni", "the agent whose tools are linted (its tools list decides which)")
	var pc projectCmd
	addProjectFlags(fl, &pc)
	asJSON := fl.Bool("json", false, "print JSON: { agent, providers, findings }")
	if _, code, ok := a.parseArgs(fl, args, takesNoArgs("tools lint")); !ok {
		return code
	}
	ps, err := schema.ParseProviders(*providers)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	tools, failures, code, ok := a.schemaTools(ctx, &pc, *agent)
	if !ok {
		return code
	}
	findings := []schema.Finding{}
	for _, p := range ps {
		findings = append(findings, notLoaded(p, failures)...)
		findings = append(findings, schema.Lint(tools, p)...)
	}
	if *asJSON {
		b, err := schema.JSON(lintJSON{Agent: *agent, Providers: ps, Findings: findings})
		if err != nil {
			a.errorf(nil, "tools lint: encode JSON: %v", err)
			return exitFailure
		}
		fmt.Fprintf(a.stdout, "%s\n", b)
	} else {
		counts := map[schema.Severity]int{}
		for _, f := range findings {
			fmt.Fprintln(a.stdout, f.String())
			counts[f.Severity]++
		}
		fmt.Fprintf(a.stderr, "%s, %s, %d info (%s, %s)\n", plural(counts[schema.SeverityError], "error"),
			plural(counts[schema.SeverityWarning], "warning"), counts[schema.SeverityInfo],
			plural(len(ps), "provider"), plural(len(tools), "tool"))
	}
	if schema.HasErrors(findings) {
		return exitFailure
	}
	return exitOK
}

// loadAndLint is `validate --load`: it bundles and loads every module of
// p; one that would not load is an error. For those that load, a schema
// that does not compile (calls are then not checked) and a schema a
// provider would reject are warnings: the release still works, but a
// provider request carrying the tool would fail.
func loadAndLint(ctx context.Context, root string, p *loader.Project) []loader.Finding {
	set := jshost.Load(ctx, p.Specs(), jshost.Options{Root: root, Logger: slog.New(slog.DiscardHandler), Bundler: bundle.New(nil), Policy: localPolicy(root)})
	defer set.Close()
	var out []loader.Finding
	for _, f := range set.Failures() {
		file, line := toolPlace(p, f.Name, f.Source)
		out = append(out, loader.Finding{File: file, Line: line, Severity: loader.SeverityError,
			Message: fmt.Sprintf("tool %s does not load: %s", f.Name, f.Reason)})
	}
	var tools []schema.Tool
	for _, t := range set.Tools() {
		tools = append(tools, schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		if err := schema.Compile(t.Parameters).Err(); err != nil {
			file, line := toolPlace(p, t.Name, t.Source)
			out = append(out, loader.Finding{File: file, Line: line, Severity: loader.SeverityWarning,
				Message: fmt.Sprintf("tool %s: parameters is not a valid JSON Schema (%s): calls to it are not checked", t.Name, err)})
		}
	}
	for _, f := range schema.Lint(tools) {
		if f.Severity != schema.SeverityError {
			continue
		}
		file, line := p.Manifest, 0
		what := "the tools list"
		if t, ok := set.Tool(f.Tool); ok {
			file, line = toolPlace(p, t.Name, t.Source)
			what = "tool " + t.Name
		}
		where := ""
		if f.Path != "" {
			where = " at " + f.Path
		}
		out = append(out, loader.Finding{File: file, Line: line, Severity: loader.SeverityWarning,
			Message: fmt.Sprintf("%s: %s would reject it%s: %s [%s] (%s)", what, f.Provider, where, f.Message, f.Rule, f.Source)})
	}
	return out
}

// toolPlace is where a finding about a loaded tool points: the manifest
// line of a Beeuni tool, else the module.
func toolPlace(p *loader.Project, name, source string) (string, int) {
	if t, ok := p.Tool(name); ok && t.File != "" && t.IsBuiltin() {
		return t.File, t.Line
	}
	return source, 0
}
