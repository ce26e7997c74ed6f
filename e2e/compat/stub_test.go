package compat

import (
	"compress/gzip"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
)

// The loopback stub is the only server the corpus talks to: every runtime
// gets its URL as COMPAT_HTTP. Its answers are fixed (no Date header), so a
// tool that prints what it fetched prints the same text everywhere.

const stubPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Release notes &amp; changes</title>
<meta name="description" content="What changed in beeuni 1.2"></head>
<body><nav><a href="/">Home</a> | <a href="/docs/">Docs</a></nav>
<article><h1>Release notes</h1>
<p>Version <strong>1.2</strong> adds <em>faster</em> tool calls and <a href="docs/calls.html">call batching</a>.</p>
<h2>Fixed</h2>
<ul><li>URL resolution</li><li>Buffer &lt;-&gt; string encodings</li><li>Caf&eacute; &#x2615; names</li></ul>
<table><tr><th>Tool</th><th>ms</th></tr><tr><td>greet</td><td>1.5</td></tr><tr><td>scrape</td><td>12</td></tr></table>
<pre><code>beeuni tools call greet --args '{"name":"Ada"}'</code></pre>
</article>
<footer><p>&copy; 2024 Example</p></footer></body></html>
`

// stubPDF is a small, fixed "PDF" for tools that fetch and encode bytes.
var stubPDF = []byte("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n")

func startStub(tb testing.TB) *httptest.Server {
	tb.Helper()
	mux := http.NewServeMux()
	writeJSON := func(w http.ResponseWriter, status int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("GET /json", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 200, map[string]any{"id": 42, "name": "beeuni", "tags": []string{"tools", "agents"}, "price": 1234.5})
	})
	mux.HandleFunc("GET /page.html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		_, _ = io.WriteString(w, stubPage)
	})
	mux.HandleFunc("GET /ai.pdf", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/pdf")
		_, _ = w.Write(stubPDF)
	})
	mux.HandleFunc("GET /gzip", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Content-Encoding", "gzip")
		zw := gzip.NewWriter(w)
		_, _ = io.WriteString(zw, strings.Repeat("compressed line\n", 4))
		_ = zw.Close()
	})
	mux.HandleFunc("GET /redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/json", http.StatusFound)
	})
	mux.HandleFunc("/status/404", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, 404, map[string]any{"error": map[string]any{"message": "no such thing", "type": "not_found"}})
	})
	// /echo answers what it received: method, path, query, the headers a
	// tool sets on purpose, and the body.
	mux.HandleFunc("/echo/", func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		headers := map[string]string{}
		for _, h := range []string{"Content-Type", "Authorization", "X-Api-Key", "X-Trace", "Accept"} {
			if v := r.Header.Get(h); v != "" {
				headers[strings.ToLower(h)] = v
			}
		}
		q := r.URL.Query()
		keys := make([]string, 0, len(q))
		for k := range q {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		query := map[string][]string{}
		for _, k := range keys {
			query[k] = q[k]
		}
		writeJSON(w, 200, map[string]any{"method": r.Method, "path": r.URL.Path, "query": query, "headers": headers, "body": string(body)})
	})
	// An OpenAI-compatible chat completion that repeats the request's model
	// and last message, so the SDK's request building is visible.
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model    string `json:"model"`
			Messages []struct {
				Content any `json:"content"`
			} `json:"messages"`
			Tools []any `json:"tools"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		last := ""
		if n := len(req.Messages); n > 0 {
			b, _ := json.Marshal(req.Messages[n-1].Content)
			last = string(b)
		}
		writeJSON(w, 200, map[string]any{
			"id": "chatcmpl-compat", "object": "chat.completion", "created": 1704164645, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
				"message": map[string]any{"role": "assistant", "content": "echo " + last + " tools=" + itoa(len(req.Tools)), "refusal": nil}}},
			"usage": map[string]any{"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18},
		})
	})
	// An Anthropic Messages answer, built the same way.
	mux.HandleFunc("POST /v1/messages", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Model     string `json:"model"`
			MaxTokens int    `json:"max_tokens"`
			System    any    `json:"system"`
			Messages  []struct {
				Content any `json:"content"`
			} `json:"messages"`
		}
		_ = json.NewDecoder(r.Body).Decode(&req)
		last := ""
		if n := len(req.Messages); n > 0 {
			b, _ := json.Marshal(req.Messages[n-1].Content)
			last = string(b)
		}
		writeJSON(w, 200, map[string]any{
			"id": "msg_compat", "type": "message", "role": "assistant", "model": req.Model,
			"content":     []any{map[string]any{"type": "text", "text": "echo " + last + " max_tokens=" + itoa(req.MaxTokens)}},
			"stop_reason": "end_turn", "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 9, "output_tokens": 4},
		})
	})
	srv := httptest.NewServer(noDate(mux))
	tb.Cleanup(srv.Close)
	return srv
}

// noDate drops the Date header Go's server adds, so fetched headers are
// the same in every run.
func noDate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()["Date"] = nil
		h.ServeHTTP(w, r)
	})
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
