package schema_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/beeuni/beeuni/loader/schema"
)

// combos are every provider/api/gemini-schema combination (§3.7 test 1).
var combos = []schema.Options{
	{Provider: schema.OpenAI, API: "chat"},
	{Provider: schema.OpenAI, API: "responses"},
	{Provider: schema.OpenAIStrict, API: "chat"},
	{Provider: schema.OpenAIStrict, API: "responses"},
	{Provider: schema.Anthropic},
	{Provider: schema.AnthropicStrict},
	{Provider: schema.Gemini, GeminiSchema: "openapi"},
	{Provider: schema.Gemini, GeminiSchema: "json"},
}

func comboName(o schema.Options) string {
	switch {
	case o.API != "":
		return string(o.Provider) + "." + o.API
	case o.GeminiSchema != "":
		return string(o.Provider) + "." + o.GeminiSchema
	}
	return string(o.Provider)
}

// renderText is a rendering as a golden file holds it: the tools JSON as
// render prints it, then the findings in the text format.
func renderText(tb testing.TB, tools []schema.Tool, o schema.Options) []byte {
	tb.Helper()
	res, err := schema.Render(tools, o)
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	b.Write(res.PrettyTools())
	b.WriteString("\n-- findings:\n")
	for _, f := range res.Findings {
		fmt.Fprintln(&b, f.String())
	}
	return b.Bytes()
}

func TestRenderGoldenBuiltins(t *testing.T) {
	tools := builtins(t)
	for _, o := range combos {
		t.Run(comboName(o), func(t *testing.T) {
			got := renderText(t, tools, o)
			if again := renderText(t, tools, o); !bytes.Equal(got, again) {
				t.Fatalf("rendering is not deterministic:\n%s\n---\n%s", got, again)
			}
			checkGolden(t, "golden/builtins."+comboName(o)+".txt", got)
		})
	}
}
