package builtin_test

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"unicode/utf8"
)

// FuzzMemoryPath: whatever path the model sends, create writes inside
// memory/ or nowhere.
func FuzzMemoryPath(f *testing.F) {
	for _, seed := range []string{
		"memory/a.md", "memory/x/../b.md", "../outside/x", "/etc/x", "memory/../x", "memory/out/x", "memory/up/x",
		"memory//./c.md", "memory\\..\\x", "memory/\x00", " memory/d.md ", "memory/..", "memory/...", "memory/a/b/c/d/e.md",
	} {
		f.Add(seed)
	}
	base := f.TempDir()
	root := filepath.Join(base, "checkout")
	outside := filepath.Join(base, "outside")
	writeFile(f, outside, "keep.txt", "keep\n")
	writeFile(f, root, "memory/.keep", "")
	if err := os.Symlink(outside, filepath.Join(root, "memory", "out")); err != nil {
		f.Skipf("symlinks not available: %v", err)
	}
	if err := os.Symlink("../..", filepath.Join(root, "memory", "up")); err != nil {
		f.Fatal(err)
	}
	set := loadTool(f, "memory", root)
	memoryDir := filepath.Join(root, "memory")

	f.Fuzz(func(t *testing.T, p string) {
		res := call(t, set, "memory", map[string]any{"command": "create", "path": p, "file_text": "fuzz\n"}, nil)
		if res.IsError && !strings.Contains(res.Output, "memory/") {
			t.Errorf("create %q: error %q does not say where paths go", p, res.Output)
		}
		err := filepath.WalkDir(base, func(file string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if file == filepath.Join(outside, "keep.txt") || strings.HasPrefix(file, memoryDir+string(filepath.Separator)) {
				return nil
			}
			t.Errorf("create %q wrote %s, outside memory/", p, file)
			return os.Remove(file)
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzScrapeHTML: any page converts, in time, to well-formed output.
func FuzzScrapeHTML(f *testing.F) {
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		f.Fatal(err)
	}
	for _, seed := range []string{
		string(page), "", "<", "<a", "<a href='>", "<p>x</p", "<!-- open", "<script>never closed", "&#0;&#xD800;&#x110000;&#99999999;",
		"&amp;amp;", "<pre>a\n  b</pre><pre>", "\x00<pre>\x000\x00</pre>", "<h7>x</h7><h1>", "<li><li><li>", strings.Repeat("<a ", 2000),
		strings.Repeat("<div>", 3000) + "deep", "<title>t</title><title>u", "\xff\xfe<p>bad utf8</p>",
	} {
		f.Add(seed)
	}
	var body atomic.Pointer[string] // the page the server answers
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, *body.Load())
	}))
	f.Cleanup(srv.Close)
	set := loadTool(f, "scrape_webpage", f.TempDir())

	f.Fuzz(func(t *testing.T, html string) {
		body.Store(&html)
		res := callOrSpill(t, set, "scrape_webpage", map[string]string{"url": srv.URL}, nil)
		if res.IsError {
			t.Fatalf("page %q: %s", html, res.Output)
		}
		var out scrapeOutput
		decode(t, res.Output, &out)
		if out.Status != 200 || strings.ContainsRune(out.Content, 0) || strings.ContainsAny(out.Title, "\n\t") {
			t.Errorf("page %q: %+v", html, out)
		}
		if n := utf8.RuneCountInString(out.Content); n > 100_000+200 {
			t.Errorf("page %q: content of %d characters, over the cap", html, n)
		}
	})
}
