package builtin_test

import (
	"testing"
)

// BenchmarkScrapeWebpage: fetch testdata/page.html from a local server and
// turn it into text, through the host.
func BenchmarkScrapeWebpage(b *testing.B) {
	srv := pageServer(b)
	set := loadTool(b, "scrape_webpage", b.TempDir())
	args := map[string]string{"url": srv.URL + "/guide"}
	for b.Loop() {
		wantOK(b, call(b, set, "scrape_webpage", args, nil))
	}
}

// BenchmarkWebSearch: three queries against a local API, through the host.
func BenchmarkWebSearch(b *testing.B) {
	_, srv := newSearchAPI(b, "tok")
	set := loadTool(b, "web_search", b.TempDir())
	env := map[string]string{"BEEUNI_API_URL": srv.URL, "BEEUNI_TOKEN": "tok"}
	args := map[string]string{"query": "bees|||honey|||wax"}
	for b.Loop() {
		wantOK(b, call(b, set, "web_search", args, env))
	}
}

// BenchmarkMemory: one str_replace and one view of a note, through the host.
func BenchmarkMemory(b *testing.B) {
	root := b.TempDir()
	writeFile(b, root, "memory/notes.md", "state: a\n")
	set := loadTool(b, "memory", root)
	state := "a"
	for b.Loop() {
		next := map[string]string{"a": "b", "b": "a"}[state]
		wantOK(b, call(b, set, "memory", map[string]any{"command": "str_replace", "path": "memory/notes.md", "old_str": "state: " + state, "new_str": "state: " + next}, nil))
		if got := wantOK(b, call(b, set, "memory", map[string]any{"command": "view", "path": "memory/notes.md"}, nil)); got != "state: "+next+"\n" {
			b.Fatalf("view = %q", got)
		}
		state = next
	}
}

// BenchmarkShowFile: check a file argument, through the host.
func BenchmarkShowFile(b *testing.B) {
	root := b.TempDir()
	writeFile(b, root, "src/main.go", "package main\n")
	set := loadTool(b, "show", root)
	for b.Loop() {
		wantOK(b, call(b, set, "show", map[string]string{"type": "file", "path": "src/main.go"}, nil))
	}
}
