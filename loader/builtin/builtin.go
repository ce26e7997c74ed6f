// Package builtin holds the five Beeuni tools as TypeScript sources embedded
// in the binary. The executor runs these bytes for `beeuni:<name>`, and
// `beeuni tools eject` writes the same bytes into a project.
package builtin

import (
	"bytes"
	"embed"
	"fmt"
	"slices"
	"text/template"
)

//go:embed tools/*.ts
var sources embed.FS

// searchTemplate is the source of web_search and image_search, which differ
// only in their endpoint and wording. It is rendered once, at start-up:
// the rendered bytes are the tool's source everywhere (run, listed,
// ejected), so an ejected file is the same bytes the sandbox runs and
// stands alone.
//
//go:embed search.ts.tmpl
var searchTemplate string

// searchTool fills searchTemplate for one search tool. Values are inserted
// as they are: no single quote, they sit in TypeScript string literals.
type searchTool struct {
	Name        string // the tool, its endpoint /v1/<Name> and its error messages
	Summary     string // the first comment line, after "<Name>: "
	Description string // the tool's description, before the "|||" advice
	Examples    string // queries joined by "|||", quoted in the description
	Query       string // the query argument's description
	Example     string // the query quoted when query is empty
}

var searchTools = []searchTool{
	{Name: "web_search", Summary: "search the web through the Beeuni search API.",
		Description: "Search the web. Returns, for each query, the result items the search found (typically title, url and snippet).",
		Examples:    "go generics tutorial|||rust traits vs interfaces",
		Query:       "What to search for.", Example: "beeuni tools"},
	{Name: "image_search", Summary: "search the web for images through the Beeuni search API.",
		Description: "Search the web for images. Returns, for each query, the image items the search found (typically image url, source page and title).",
		Examples:    "golden retriever puppy|||labrador puppy",
		Query:       "The images to search for.", Example: "bee on a sunflower"},
}

// rendered holds the rendered search tools' sources; it is never changed
// after init.
var rendered = renderSearchTools()

func renderSearchTools() map[string][]byte {
	tmpl := template.Must(template.New("search.ts.tmpl").Option("missingkey=error").Parse(searchTemplate))
	out := map[string][]byte{}
	for _, t := range searchTools {
		var b bytes.Buffer
		if err := tmpl.Execute(&b, t); err != nil {
			panic(fmt.Sprintf("render the Beeuni tool %s: %v", t.Name, err))
		}
		out[t.Name] = b.Bytes()
	}
	return out
}

// names is the fixed list of Beeuni tools, in the reference's order.
var names = [...]string{"web_search", "image_search", "scrape_webpage", "memory", "show"}

// Names returns the Beeuni tool names in the reference's order.
func Names() []string { return slices.Clone(names[:]) }

// Is reports whether name is a Beeuni tool.
func Is(name string) bool { return slices.Contains(names[:], name) }

// Source returns the TypeScript source of the Beeuni tool name (a copy: the
// caller may keep or change it).
func Source(name string) ([]byte, bool) {
	if !Is(name) {
		return nil, false
	}
	if b, ok := rendered[name]; ok {
		return slices.Clone(b), true
	}
	b, err := sources.ReadFile("tools/" + name + ".ts")
	if err != nil {
		return nil, false
	}
	return b, true
}

// Path is the module path a Beeuni tool's source has inside the binary, used
// in load failures and logs ("beeuni:web_search" resolves to it).
func Path(name string) string { return "beeuni/tools/" + name + ".ts" }
