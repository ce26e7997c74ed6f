package builtin_test

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.txt from what the tools answer")

type scrapeOutput struct {
	URL     string `json:"url"`
	Status  int    `json:"status"`
	Title   string `json:"title"`
	Content string `json:"content"`
}

// pageServer serves testdata/page.html and a few other pages.
func pageServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	page, err := os.ReadFile(filepath.Join("testdata", "page.html"))
	if err != nil {
		tb.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/guide", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	})
	mux.HandleFunc("/old-guide", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/guide", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/notes.txt", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		fmt.Fprint(w, "  Plain <b>text</b> &amp; spaces\n\nkept as is\n")
	})
	mux.HandleFunc("/data.json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"bees": [1, 2]}`)
	})
	mux.HandleFunc("/logo.png", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/png")
		w.Write([]byte("\x89PNG\r\n\x1a\n"))
	})
	mux.HandleFunc("/missing", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, "<html><head><title>Not found</title></head><body><h1>404</h1><p>No page at this address.</p></body></html>")
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<title>Big</title><p>"+strings.Repeat("honey ", 30_000)+"</p>")
	})
	srv := httptest.NewServer(mux)
	tb.Cleanup(srv.Close)
	return srv
}

func TestScrapeWebpageHTML(t *testing.T) {
	srv := pageServer(t)
	set := loadTool(t, "scrape_webpage", t.TempDir())

	var out scrapeOutput
	decode(t, wantOK(t, call(t, set, "scrape_webpage", map[string]string{"url": srv.URL + "/old-guide"}, nil)), &out)
	if out.URL != srv.URL+"/guide" {
		t.Errorf("url = %q, want the page the redirect led to, %q", out.URL, srv.URL+"/guide")
	}
	if out.Status != 200 {
		t.Errorf("status = %d, want 200", out.Status)
	}
	if want := "Keeping Bees & Making Honey – A Beginner's Guide"; out.Title != want {
		t.Errorf("title = %q, want %q", out.Title, want)
	}
	golden := filepath.Join("testdata", "page.golden.txt")
	if *update {
		if err := os.WriteFile(golden, []byte(out.Content+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if out.Content+"\n" != string(want) {
		t.Errorf("content differs from %s (run go test -run TestScrapeWebpageHTML -update to see the new one in git diff):\n%s", golden, out.Content)
	}
	// The golden file says it too: what is not text never reaches the content.
	for _, gone := range []string{"<p", "<a", "not text", "font-family", "icon", "JavaScript", "commented out", "late.js"} {
		if strings.Contains(out.Content, gone) {
			t.Errorf("content keeps %q", gone)
		}
	}
}

func TestScrapeWebpage(t *testing.T) {
	srv := pageServer(t)
	set := loadTool(t, "scrape_webpage", t.TempDir())
	cases := []struct {
		name string
		url  string
		want scrapeOutput
	}{
		{"text as is", srv.URL + "/notes.txt", scrapeOutput{Status: 200, Content: "  Plain <b>text</b> &amp; spaces\n\nkept as is\n"}},
		{"json as is", srv.URL + "/data.json", scrapeOutput{Status: 200, Content: `{"bees": [1, 2]}`}},
		{"error page returned", srv.URL + "/missing", scrapeOutput{Status: 404, Title: "Not found", Content: "# 404\n\nNo page at this address."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out scrapeOutput
			decode(t, wantOK(t, call(t, set, "scrape_webpage", map[string]string{"url": c.url}, nil)), &out)
			c.want.URL = c.url
			if out != c.want {
				t.Errorf("got  %+v\nwant %+v", out, c.want)
			}
		})
	}

	t.Run("cut", func(t *testing.T) {
		var out scrapeOutput
		decode(t, wantOK(t, callOrSpill(t, set, "scrape_webpage", map[string]string{"url": srv.URL + "/big"}, nil)), &out)
		total := len(strings.TrimSpace(strings.Repeat("honey ", 30_000)))
		wantTail := fmt.Sprintf("\n\n[content cut: showing the first 100000 of %d characters]", total)
		if !strings.HasSuffix(out.Content, wantTail) || len(out.Content) != 100_000+len(wantTail) {
			t.Errorf("content of %d chars ends %q, want 100000 chars then %q", len(out.Content), out.Content[max(0, len(out.Content)-80):], wantTail)
		}
	})

	errs := []struct{ name, url, want string }{
		{"ftp", "ftp://example.com/file", `url "ftp://example.com/file" is not http or https: scrape_webpage fetches only http(s) URLs.`},
		{"file", "file:///etc/passwd", `url "file:///etc/passwd" is not http or https: scrape_webpage fetches only http(s) URLs.`},
		{"relative", "/guide", `url "/guide" is not a URL: pass an absolute http(s) URL, e.g. "https://example.com/docs".`},
		{"empty", "", `url is empty: pass ` + "`url`" + `, an absolute http(s) URL, e.g. "https://example.com/docs".`},
		{"image", srv.URL + "/logo.png", srv.URL + "/logo.png is image/png, not a web page: scrape_webpage reads HTML, text and JSON."},
	}
	for _, c := range errs {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, call(t, set, "scrape_webpage", map[string]string{"url": c.url}, nil), c.want)
		})
	}
	t.Run("unreachable", func(t *testing.T) {
		res := call(t, set, "scrape_webpage", map[string]string{"url": "http://127.0.0.1:1/x"}, nil)
		if !res.IsError || !strings.HasPrefix(res.Output, "could not fetch http://127.0.0.1:1/x: ") {
			t.Errorf("got %+v, want an error that names the URL", res)
		}
	})
}
