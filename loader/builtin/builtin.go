// Package builtin holds the five Beeuni tools as TypeScript sources embedded
// in the binary. The executor runs these bytes for `beeuni:<name>`, and
// `beeuni tools eject` writes the same bytes into a project.
package builtin

import (
	"embed"
	"slices"
)

//go:embed tools/*.ts
var sources embed.FS

// names is the fixed list of Beeuni tools, in the reference's order.
var names = [...]string{"web_search", "image_search", "scrape_webpage", "memory", "show"}

// Names returns the Beeuni tool names in the reference's order.
func Names() []string { return slices.Clone(names[:]) }

// Is reports whether name is a Beeuni tool.
func Is(name string) bool { return slices.Contains(names[:], name) }

// Source returns the TypeScript source of the Beeuni tool name.
func Source(name string) ([]byte, bool) {
	if !Is(name) {
		return nil, false
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
