package schema

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Tool is what a renderer needs of a loaded tool.
type Tool struct {
	Name        string
	Description string
	Parameters  []byte // the module's raw JSON, key order as written
}

// Provider is a tools-list dialect (§3.1).
type Provider string

const (
	OpenAI          Provider = "openai"
	OpenAIStrict    Provider = "openai-strict"
	Anthropic       Provider = "anthropic"
	AnthropicStrict Provider = "anthropic-strict"
	Gemini          Provider = "gemini"
)

// Providers lists every provider, in the order lint reports them.
var Providers = []Provider{OpenAI, OpenAIStrict, Anthropic, AnthropicStrict, Gemini}

// ParseProvider checks a provider name; the error is the message of §3.1.
func ParseProvider(s string) (Provider, error) {
	for _, p := range Providers {
		if string(p) == s {
			return p, nil
		}
	}
	return "", fmt.Errorf("unknown provider %q: use openai, openai-strict, anthropic, anthropic-strict or gemini", s)
}

// Options choose the dialect. API applies to the openai providers,
// GeminiSchema to gemini; empty means the default.
type Options struct {
	Provider     Provider
	API          string // "chat" (default) or "responses"
	GeminiSchema string // "openapi" (default) or "json"
}

func (o Options) withDefaults() (Options, error) {
	if _, err := ParseProvider(string(o.Provider)); err != nil {
		return o, err
	}
	switch o.API {
	case "":
		o.API = "chat"
	case "chat", "responses":
	default:
		return o, fmt.Errorf("unknown api %q: use chat or responses", o.API)
	}
	switch o.GeminiSchema {
	case "":
		o.GeminiSchema = "openapi"
	case "openapi", "json":
	default:
		return o, fmt.Errorf("unknown gemini schema %q: use openapi or json", o.GeminiSchema)
	}
	return o, nil
}

// Result is one rendering: the value of the provider request's `tools`
// field (compact JSON, key order fixed; Pretty indents it) and what the
// renderer found.
type Result struct {
	Tools    []byte
	Findings []Finding
}

// Render renders tools (in the order given: the manifest's) for one
// provider. The error is only for bad Options; what a provider would
// reject is an error Finding.
func Render(tools []Tool, opts Options) (Result, error) {
	opts, err := opts.withDefaults()
	if err != nil {
		return Result{}, err
	}
	r := &run{provider: opts.Provider}
	var out *node
	switch opts.Provider {
	case OpenAI, OpenAIStrict:
		out = r.openai(tools, opts.Provider == OpenAIStrict, opts.API == "responses")
	case Anthropic, AnthropicStrict:
		out = r.anthropic(tools, opts.Provider == AnthropicStrict)
	case Gemini:
		out = r.gemini(tools, opts.GeminiSchema == "json")
	}
	return Result{Tools: out.bytes(), Findings: r.findings}, nil
}

// PrettyTools is Result.Tools as render prints it.
func (r Result) PrettyTools() []byte { return Pretty(r.Tools) }

// run collects one rendering's findings.
type run struct {
	provider Provider
	tool     string
	findings []Finding
	seen     map[string]bool // dedupe: an inlined $defs entry reports once
}

func (r *run) add(rule string, sev Severity, path, format string, args ...any) {
	f := Finding{Provider: string(r.provider), Tool: r.tool, Path: path, Severity: sev,
		Rule: rule, Message: fmt.Sprintf(format, args...), Source: ruleSource(rule, r.provider)}
	key := f.String()
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	if r.seen[key] {
		return
	}
	r.seen[key] = true
	r.findings = append(r.findings, f)
}

// parseParameters parses one tool's parameters for rewriting; a tool
// whose parameters are not a JSON object is an ALL-ROOT error and is
// rendered with {"type":"object"}.
func (r *run) parseParameters(t Tool) *node {
	root, _, err := parseTree(t.Parameters, true)
	if err != nil || !root.isObject() {
		r.add("ALL-ROOT", SeverityError, "", "parameters is not a JSON object: export a JSON Schema with type \"object\"")
		return newObject(kv("type", newString("object")))
	}
	return root
}

// checkRoot is ALL-ROOT / AN-ROOT-TYPE: the root must say type "object".
func (r *run) checkRoot(root *node, rule string) {
	if t := root.get("type"); t == nil || t.kind != kString || t.str != "object" {
		r.add(rule, SeverityError, "", "parameters.type must be \"object\": the provider rejects any other root")
	}
}

// describe appends notes to n's description the way pydantic-ai does:
// "desc (a, b)", or "a, b" when there is none.
func describe(n *node, notes []string) {
	if len(notes) == 0 {
		return
	}
	text := strings.Join(notes, ", ")
	if d := n.get("description"); d != nil && d.kind == kString && d.str != "" {
		text = d.str + " (" + text + ")"
	}
	n.set("description", newString(text))
}

// noteValue is a keyword value as a description note shows it.
func noteValue(v *node) string {
	if v.kind == kString {
		return v.str
	}
	var b bytes.Buffer
	v.compact(&b)
	return b.String()
}

// checkArrayItems is OA-ARRAY-ITEMS: OpenAI rejects an array schema
// without items (observed error text).
func (r *run) checkArrayItems(n *node) {
	if !n.isObject() {
		return
	}
	if hasType(n, "array") && !n.has("items") {
		r.add("OA-ARRAY-ITEMS", SeverityError, n.ptr, "array schema missing items: OpenAI rejects the request (invalid_function_parameters); add \"items\"")
	}
	eachSubschema(n, func(_ string, sub *node) { r.checkArrayItems(sub) })
}

// dropMessage words a finding for keywords moved to the description:
// what the provider does, and whether beeuni still checks them (formats
// are annotations it does not check).
func dropMessage(names []string, what string) string {
	var checked []string
	for _, n := range names {
		if n != "format" {
			checked = append(checked, n)
		}
	}
	msg := strings.Join(names, ", ") + " moved to the description: " + what
	if len(checked) > 0 {
		msg += "; beeuni still enforces " + strings.Join(checked, ", ") + " when validating"
	}
	if len(checked) < len(names) {
		msg += "; beeuni does not check formats (an annotation)"
	}
	return msg
}

// Rendering is the JSON answer of `beeuni tools render --json` (and of
// GET /beeuni/render, which sets Release).
type Rendering struct {
	Provider     string          `json:"provider"`
	API          string          `json:"api"`                     // chat or responses for the openai providers, else ""
	GeminiSchema string          `json:"gemini_schema,omitempty"` // openapi or json for gemini
	Agent        string          `json:"agent"`
	Release      string          `json:"release,omitempty"`
	Tools        json.RawMessage `json:"tools"`
	Findings     []Finding       `json:"findings"`
}

// NewRendering fills a Rendering from a Render result.
func NewRendering(opts Options, agent string, res Result, notLoaded []Finding) Rendering {
	opts, _ = opts.withDefaults()
	r := Rendering{Provider: string(opts.Provider), Agent: agent, Tools: res.Tools,
		Findings: append(append([]Finding{}, notLoaded...), res.Findings...)}
	switch opts.Provider {
	case OpenAI, OpenAIStrict:
		r.API = opts.API
	case Gemini:
		r.GeminiSchema = opts.GeminiSchema
	}
	return r
}

// JSON encodes v (a Rendering, or any answer holding findings) the way
// render prints: key order kept, no HTML escaping, Pretty's layout.
func JSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return Pretty(bytes.TrimSpace(b.Bytes())), nil
}
