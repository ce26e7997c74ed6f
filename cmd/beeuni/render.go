package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// toolsRender is `beeuni tools render --provider P`: the working tree's
// tools an agent sees, as the value of the provider request's `tools`
// field on stdout, and the findings on stderr (SPEC-beyond §3.1).
func (a *app) toolsRender(ctx context.Context, args []string) int {
	usage := "tools render --provider P [--api chat|responses] [--gemini-schema openapi|json] [--agent A] [--harness H] [--dir DIR] [--json]"
	fl := a.newFlags("tools render", usage)
	provider := fl.String("provider", "", "openai, openai-strict, anthropic, anthropic-strict or gemini")
	api := fl.String("api", "chat", "the OpenAI API the tools are for: chat or responses")
	gemSchema := fl.String("gemini-schema", "openapi", "how Gemini gets the schema: openapi (parameters) or json (parametersJsonSchema)")
	agent := fl.String("agent", "beeuni", "the agent whose tools are rendered (its tools list decides which)")
	var pc projectCmd
	addProjectFlags(fl, &pc)
	asJSON := fl.Bool("json", false, "print JSON: { provider, api, agent, tools, findings }")
	if _, code, ok := a.parseArgs(fl, args, takesNoArgs("tools render")); !ok {
		return code
	}
	if *provider == "" {
		a.errorf(nil, "tools render needs --provider: openai, openai-strict, anthropic, anthropic-strict or gemini")
		fl.Usage()
		return exitUsage
	}
	p, err := schema.ParseProvider(*provider)
	if err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	opts := schema.Options{Provider: p, API: *api, GeminiSchema: *gemSchema}
	if msg := misplacedFlag(fl, p); msg != "" {
		a.errorf(nil, "%s", msg)
		return exitUsage
	}
	if _, err := schema.Render(nil, opts); err != nil {
		a.errorf(nil, "%v", err)
		return exitUsage
	}
	tools, failures, code, ok := a.schemaTools(ctx, &pc, *agent)
	if !ok {
		return code
	}
	res, _ := schema.Render(tools, opts)
	out := schema.NewRendering(opts, *agent, res, notLoaded(p, failures))
	if *asJSON {
		b, err := schema.JSON(out)
		if err != nil {
			a.errorf(nil, "tools render: encode JSON: %v", err)
			return exitFailure
		}
		fmt.Fprintf(a.stdout, "%s\n", b)
	} else {
		fmt.Fprintf(a.stdout, "%s\n", res.PrettyTools())
		for _, f := range out.Findings {
			fmt.Fprintln(a.stderr, f.String())
		}
	}
	if schema.HasErrors(out.Findings) {
		return exitFailure
	}
	return exitOK
}

// misplacedFlag is the usage error for --api or --gemini-schema given to a
// provider they do not apply to.
func misplacedFlag(fl *flag.FlagSet, p schema.Provider) string {
	msg := ""
	fl.Visit(func(f *flag.Flag) {
		switch {
		case f.Name == "api" && p != schema.OpenAI && p != schema.OpenAIStrict:
			msg = "--api applies to --provider openai and openai-strict only"
		case f.Name == "gemini-schema" && p != schema.Gemini:
			msg = "--gemini-schema applies to --provider gemini only"
		}
	})
	return msg
}

// notLoaded is one error finding per module that did not load (§3.1).
func notLoaded(p schema.Provider, failures []jshost.Failure) []schema.Finding {
	var out []schema.Finding
	for _, f := range failures {
		out = append(out, schema.NotLoaded(p, f.Name, f.Reason))
	}
	return out
}

// schemaTools loads the working tree's tools the agent sees, the way
// `tools call` loads them, in manifest order, with those that did not load.
func (a *app) schemaTools(ctx context.Context, pc *projectCmd, agent string) ([]schema.Tool, []jshost.Failure, int, bool) {
	h, root, code, ok := a.resolveProject(pc)
	if !ok {
		return nil, nil, code, false
	}
	if !a.manifestExistsTo(root) {
		return nil, nil, exitFailure, false
	}
	p := loader.Read(os.DirFS(root), h)
	if p.HasErrors() {
		for _, f := range p.Findings {
			fmt.Fprintln(a.stderr, f.String())
		}
		a.errorf(nil, "fix the errors above first (run `beeuni validate`)")
		return nil, nil, exitFailure, false
	}
	var specs []jshost.Spec
	for _, s := range p.Specs() {
		if p.Visible(agent, s.Name) {
			specs = append(specs, s)
		}
	}
	set := jshost.Load(ctx, specs, jshost.Options{Root: root, Logger: slog.New(slog.DiscardHandler), Bundler: bundle.New(nil), Policy: localPolicy(root)})
	defer set.Close()
	var tools []schema.Tool
	for _, t := range set.Tools() {
		tools = append(tools, schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
	}
	return tools, set.Failures(), exitOK, true
}
