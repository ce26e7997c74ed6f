package schema

import (
	"fmt"
	"regexp"
	"strings"
)

// Severity of a finding (§3.1): error = the provider rejects the request
// (and so every tool in it); warning = accepted, but meaning or a
// constraint changed, or strict fell back to non-strict; info = advice.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
	SeverityInfo    Severity = "info"
)

// Finding is one lint or render finding; its JSON is the shape of §3.1.
type Finding struct {
	Provider string   `json:"provider"`
	Tool     string   `json:"tool"`
	Path     string   `json:"path"` // JSON Pointer in the tool's parameters ("" for the tool itself)
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	Source   string   `json:"source"`
}

// String is the text format of §3.1:
// `<provider> <tool> <pointer>: <severity>: <message> [<RULE>] (<source>)`;
// an empty tool or pointer is left out with its space.
func (f Finding) String() string {
	where := f.Provider
	for _, s := range []string{f.Tool, f.Path} {
		if s != "" {
			where += " " + s
		}
	}
	return fmt.Sprintf("%s: %s: %s [%s] (%s)", where, f.Severity, f.Message, f.Rule, f.Source)
}

// Sources (SPEC-beyond §9) the rules cite.
const (
	srcOpenAIStructured = "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas"                            // S1
	srcOpenAIFunctions  = "https://platform.openai.com/docs/guides/function-calling"                                                // S2
	srcOpenAIParallel   = "https://openai.com/index/introducing-structured-outputs-in-the-api/"                                     // S3
	srcOpenAIName       = "https://github.com/openai/openai-python/blob/main/src/openai/types/shared_params/function_definition.py" // S4
	srcOpenAIMaxTools   = "https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools"                            // S5
	srcOpenAIArrayItems = "https://github.com/kevinwatt/mysql-mcp/issues/5"                                                         // S6
	srcAnthropicTool    = "https://docs.anthropic.com/en/api/messages"                                                              // S7
	srcAnthropicStrict  = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"                                // S8
	srcAnthropicRoot    = "https://github.com/anthropics/claude-code/issues/5319"                                                   // S9
	srcGeminiSchema     = "https://ai.google.dev/api/caching#Schema"                                                                // S10
	srcVertexFunction   = "https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1beta1/FunctionDeclaration"        // S11
	srcGeminiErrors     = "https://github.com/zed-industries/zed/issues/53919"                                                      // S13
	srcFirebaseFormat   = "https://firebase.google.com/docs/reference/js/ai.schemashared"                                           // S14
	srcAgentsStrict     = "https://github.com/openai/openai-agents-python/blob/main/src/agents/strict_schema.py"                    // S15
	srcPydanticOpenAI   = "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/profiles/openai.py"       // S17
	srcPydanticGoogle   = "https://github.com/pydantic/pydantic-ai/blob/main/pydantic_ai_slim/pydantic_ai/profiles/google.py"       // S17
	srcVercelGemini     = "https://github.com/vercel/ai/blob/main/packages/google/src/convert-json-schema-to-openapi-schema.ts"     // S18
	srcLitellmVertex    = "https://github.com/BerriAI/litellm/blob/main/litellm/llms/vertex_ai/common_utils.py"                     // S19
	srcAdkStrict        = "https://github.com/google/adk-java/pull/1476"                                                            // S20
)

// rules maps each rule id to the source it cites. The AS-* ids name the
// anthropic-strict rewrite steps §3.5 describes without ids.
var rules = map[string]string{
	"ALL-ROOT":           srcAnthropicTool,
	"ALL-LOAD":           "", // the provider's own tools page, see ruleSource
	"OA-NAME":            srcOpenAIName,
	"AN-NAME":            srcAnthropicTool,
	"GM-NAME":            srcGeminiSchema,
	"OA-ARRAY-ITEMS":     srcOpenAIArrayItems,
	"OA-MAX-TOOLS":       srcOpenAIMaxTools,
	"OA-STRICT-HINT":     srcOpenAIFunctions,
	"OS-ADDPROPS":        srcOpenAIStructured,
	"OS-OPEN-MAP":        srcAgentsStrict,
	"OS-OPEN-OBJECT":     srcPydanticOpenAI,
	"OS-REQUIRED":        srcOpenAIStructured,
	"OS-NULLABLE":        srcOpenAIStructured,
	"OS-ONEOF":           srcAgentsStrict,
	"OS-ALLOF":           srcAgentsStrict,
	"OS-COMPOSITION":     srcOpenAIStructured,
	"OS-ROOT-ANYOF":      srcOpenAIStructured,
	"OS-REF-SIBLINGS":    srcPydanticOpenAI,
	"OS-DROP":            srcPydanticOpenAI,
	"OS-META":            srcPydanticOpenAI,
	"OS-LIMITS":          srcOpenAIStructured,
	"OS-PARALLEL":        srcOpenAIParallel,
	"AN-ROOT-COMBINATOR": srcAnthropicRoot,
	"AN-ROOT-TYPE":       srcAnthropicTool,
	"AS-DROP":            srcAnthropicStrict,
	"AS-MIN-ITEMS":       srcAnthropicStrict,
	"AS-RECURSIVE":       srcAnthropicStrict,
	"AS-ENUM":            srcAnthropicStrict,
	"AS-UNSUPPORTED":     srcAnthropicStrict,
	"AS-LIMITS":          srcAnthropicStrict,
	"GM-REF":             srcLitellmVertex,
	"GM-TYPE-ARRAY":      srcGeminiErrors,
	"GM-ANYOF-NULL":      srcVercelGemini,
	"GM-CONST":           srcPydanticGoogle,
	"GM-ONEOF":           srcGeminiSchema,
	"GM-ALLOF":           srcGeminiSchema,
	"GM-ENUM":            srcLitellmVertex,
	"GM-FORMAT":          srcFirebaseFormat,
	"GM-ANYOF-SIBLINGS":  srcLitellmVertex,
	"GM-EMPTY-OBJECT":    srcVercelGemini,
	"GM-FIELDS":          srcGeminiErrors,
	"GM-ARRAY-ITEMS":     srcLitellmVertex,
}

// ruleSource is the URL a finding cites. ALL-LOAD cites the provider's
// tools documentation (the tool is missing from its tools list); the OS-*
// steps anthropic-strict shares cite Anthropic's page.
func ruleSource(rule string, p Provider) string {
	if p == AnthropicStrict && strings.HasPrefix(rule, "OS-") {
		return srcAnthropicStrict
	}
	if rule != "ALL-LOAD" {
		return rules[rule]
	}
	switch p {
	case OpenAI, OpenAIStrict:
		return srcOpenAIFunctions
	case Anthropic, AnthropicStrict:
		return srcAnthropicTool
	default:
		return srcVertexFunction
	}
}

// NotLoaded is the error finding for a module that did not load (§3.1):
// it is left out of the rendering.
func NotLoaded(p Provider, tool, reason string) Finding {
	return Finding{Provider: string(p), Tool: tool, Severity: SeverityError, Rule: "ALL-LOAD",
		Message: "not loaded: " + reason, Source: ruleSource("ALL-LOAD", p)}
}

// Lint renders tools for each provider (all when none is given) and
// returns the findings, provider by provider.
func Lint(tools []Tool, providers ...Provider) []Finding {
	if len(providers) == 0 {
		providers = Providers
	}
	var out []Finding
	for _, p := range providers {
		res, err := Render(tools, Options{Provider: p})
		if err != nil {
			continue // ParseProvider checked p
		}
		out = append(out, res.Findings...)
	}
	return out
}

// HasErrors reports whether any finding is an error (exit code 1).
func HasErrors(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}

// ParseProviders reads a comma-separated --provider list ("" is all).
func ParseProviders(s string) ([]Provider, error) {
	if strings.TrimSpace(s) == "" {
		return append([]Provider(nil), Providers...), nil
	}
	var out []Provider
	for _, part := range strings.Split(s, ",") {
		p, err := ParseProvider(strings.TrimSpace(part))
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

var (
	openAIName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,64}$`)
	geminiName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,63}$`)
	vertexName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_.-]{0,63}$`)
)

// checkName applies the provider's tool-name rule (§3.3).
func (r *run) checkName(name string) {
	switch r.provider {
	case OpenAI, OpenAIStrict:
		if !openAIName.MatchString(name) {
			r.add("OA-NAME", SeverityError, "", "name %q is not a-z, A-Z, 0-9, _ or -, at most 64 characters: OpenAI rejects it", name)
		}
	case Anthropic, AnthropicStrict:
		if !openAIName.MatchString(name) { // the same rule: ^[a-zA-Z0-9_-]{1,64}$
			r.add("AN-NAME", SeverityError, "", "name %q does not match ^[a-zA-Z0-9_-]{1,64}$: Anthropic rejects it", name)
		}
	case Gemini:
		switch {
		case !geminiName.MatchString(name) && !vertexName.MatchString(name):
			r.add("GM-NAME", SeverityError, "", "name %q fits neither the Gemini API rule (a-z, A-Z, 0-9, _ or -, at most 63) nor Vertex AI's (a letter or _ first, then letters, digits, _ . -, at most 64)", name)
		case !geminiName.MatchString(name):
			r.add("GM-NAME", SeverityWarning, "", "name %q has %d characters: the Gemini API allows at most 63 (Vertex AI allows 64)", name, len(name))
		}
	}
}
