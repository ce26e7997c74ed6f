package builtin_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// searchAPI is a local stand-in for the Beeuni search API: it checks each
// request as the real API would and answers with items derived from the
// query, so a test sees which query produced which items.
type searchAPI struct {
	tb    testing.TB
	token string

	mu       sync.Mutex
	requests []searchRequest
}

type searchRequest struct {
	Method, Path, Authorization, ContentType string
	Query                                    string
}

func newSearchAPI(tb testing.TB, token string) (*searchAPI, *httptest.Server) {
	tb.Helper()
	api := &searchAPI{tb: tb, token: token}
	srv := httptest.NewServer(api)
	tb.Cleanup(srv.Close)
	return api, srv
}

func (a *searchAPI) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	var in struct {
		Query string `json:"query"`
	}
	if err := json.Unmarshal(body, &in); err != nil {
		http.Error(w, "body is not JSON: "+string(body), http.StatusBadRequest)
		return
	}
	a.mu.Lock()
	a.requests = append(a.requests, searchRequest{r.Method, r.URL.Path, r.Header.Get("Authorization"), r.Header.Get("Content-Type"), in.Query})
	a.mu.Unlock()
	switch {
	case r.Header.Get("Authorization") != "Bearer "+a.token:
		http.Error(w, `{"error":"bad token"}`, http.StatusUnauthorized)
	case in.Query == "fail":
		http.Error(w, "search backend is down", http.StatusInternalServerError)
	case in.Query == "not json":
		io.WriteString(w, "<html>hello</html>")
	default:
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"items": []map[string]string{
			{"title": "About " + in.Query, "url": "https://example.com/" + strings.ReplaceAll(in.Query, " ", "-"), "path": r.URL.Path},
		}})
	}
}

func (a *searchAPI) seen() []searchRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.requests)
}

type searchOutput struct {
	Results []struct {
		Query string              `json:"query"`
		Items []map[string]string `json:"items"`
	} `json:"results"`
}

func TestSearch(t *testing.T) {
	for _, tool := range []string{"web_search", "image_search"} {
		t.Run(tool, func(t *testing.T) {
			t.Parallel()
			api, srv := newSearchAPI(t, "tok-123")
			set := loadTool(t, tool, t.TempDir())
			env := map[string]string{"BEEUNI_API_URL": srv.URL + "/", "BEEUNI_TOKEN": "tok-123"}

			// Several queries: split on |||, trimmed, empties dropped, in order.
			var out searchOutput
			decode(t, wantOK(t, call(t, set, tool, map[string]any{"query": " bees ||| honey comb|||  |||wax"}, env)), &out)
			var queries []string
			for _, r := range out.Results {
				queries = append(queries, r.Query)
				if len(r.Items) != 1 || r.Items[0]["title"] != "About "+r.Query || r.Items[0]["path"] != "/v1/"+tool {
					t.Errorf("results for %q: items %v", r.Query, r.Items)
				}
			}
			if want := []string{"bees", "honey comb", "wax"}; !slices.Equal(queries, want) {
				t.Errorf("result queries %v, want %v", queries, want)
			}
			reqs := api.seen()
			if len(reqs) != 3 {
				t.Fatalf("API saw %d requests, want 3: %+v", len(reqs), reqs)
			}
			var seenQueries []string
			for _, r := range reqs {
				seenQueries = append(seenQueries, r.Query)
				if r.Method != http.MethodPost || r.Path != "/v1/"+tool || r.Authorization != "Bearer tok-123" || !strings.HasPrefix(r.ContentType, "application/json") {
					t.Errorf("request %+v: want POST /v1/%s, Bearer tok-123, application/json", r, tool)
				}
			}
			slices.Sort(seenQueries)
			if want := []string{"bees", "honey comb", "wax"}; !slices.Equal(seenQueries, want) {
				t.Errorf("API saw queries %v, want %v", seenQueries, want)
			}

			cases := []struct {
				name string
				args map[string]any
				env  map[string]string
				want string
			}{
				{"500", map[string]any{"query": "bees|||fail"}, env, tool + " API answered 500: search backend is down"},
				{"wrong token", map[string]any{"query": "bees"}, map[string]string{"BEEUNI_API_URL": srv.URL, "BEEUNI_TOKEN": "old"}, tool + ` API answered 401: {"error":"bad token"}`},
				{"not json", map[string]any{"query": "not json"}, env, tool + " API answered 200 with a body that is not JSON: <html>hello</html>"},
				{"no url", map[string]any{"query": "bees"}, map[string]string{"BEEUNI_TOKEN": "tok-123"},
					"BEEUNI_API_URL is not set: set it in the sandbox environment, or run `beeuni secrets set BEEUNI_API_URL=-` and grant it to this agent."},
				{"no token", map[string]any{"query": "bees"}, map[string]string{"BEEUNI_API_URL": srv.URL, "BEEUNI_TOKEN": ""},
					"BEEUNI_TOKEN is not set: set it in the sandbox environment, or run `beeuni secrets set BEEUNI_TOKEN=-` and grant it to this agent."},
				{"no env", map[string]any{"query": "bees"}, nil,
					"BEEUNI_API_URL is not set: set it in the sandbox environment, or run `beeuni secrets set BEEUNI_API_URL=-` and grant it to this agent."},
				{"no query", map[string]any{}, env, "query is empty: pass `query`" + queryExample(tool) + `; join several queries with "|||".`},
				{"only separators", map[string]any{"query": " ||| |||"}, env, "query is empty: pass `query`" + queryExample(tool) + `; join several queries with "|||".`},
				{"unreachable", map[string]any{"query": "bees"}, map[string]string{"BEEUNI_API_URL": "http://127.0.0.1:1", "BEEUNI_TOKEN": "t"}, ""},
			}
			for _, c := range cases {
				res := call(t, set, tool, c.args, c.env)
				if c.want == "" {
					prefix := tool + " API at http://127.0.0.1:1/v1/" + tool + " could not be reached: "
					if !res.IsError || !strings.HasPrefix(res.Output, prefix) || !strings.HasSuffix(res.Output, ". Check BEEUNI_API_URL.") {
						t.Errorf("%s: got %+v, want an error %q...", c.name, res, prefix)
					}
					continue
				}
				if !res.IsError || res.Output != c.want {
					t.Errorf("%s: got %+v\nwant error %q", c.name, res, c.want)
				}
			}
		})
	}
}

func queryExample(tool string) string {
	if tool == "web_search" {
		return `, e.g. {"query": "beeuni tools"}`
	}
	return `, e.g. {"query": "bee on a sunflower"}`
}

// A cancelled call aborts the request in flight: the API sees its request
// go away, and the call answers an error instead of waiting for the API.
func TestSearchAbort(t *testing.T) {
	arrived := make(chan struct{})
	gone := make(chan struct{})
	done := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// The server notices a client that went away only once it has read
		// the request body.
		io.Copy(io.Discard, r.Body)
		close(arrived)
		select {
		case <-r.Context().Done():
			close(gone)
		case <-done:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(done) }) // runs first: it lets a stuck handler end
	set := loadTool(t, "web_search", t.TempDir())

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-arrived:
			cancel()
		case <-done:
		}
	}()
	start := time.Now()
	res := callCtx(ctx, t, set, "web_search", map[string]any{"query": "slow"}, map[string]string{"BEEUNI_API_URL": srv.URL, "BEEUNI_TOKEN": "t"})
	if !res.IsError {
		t.Fatalf("cancelled call answered %q, want an error", res.Output)
	}
	select {
	case <-gone:
	case <-time.After(callTimeout):
		t.Fatal("the API request was not aborted")
	}
	if d := time.Since(start); d > callTimeout {
		t.Fatalf("cancelled call took %v", d)
	}
}
