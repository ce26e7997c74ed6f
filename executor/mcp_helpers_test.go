package executor

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mproject is a release for the MCP tests. answer says version (its
// description and schema do not change with it); with extra, a tool named
// extra is added (the visible list changes).
func mproject(version string, extra string) map[string]string {
	files := project(version)
	files["beeuni.yaml"] = `tools:
  web_search: beeuni:web_search
  answer: tools/answer.ts
  echo: tools/echo.ts
  boom: tools/boom.ts
  typed: tools/typed.ts
  slow: tools/slow.ts
  long: tools/long.ts
` + map[bool]string{true: "  extra: tools/extra.ts\n"}[extra != ""] + `agents:
  beeuni:
    tools: all
    secrets: all
  researcher:
    tools: [answer, echo` + map[bool]string{true: ", extra"}[extra != ""] + `]
  writer:
    tools: [answer, boom]
  five:
    tools: [answer, echo, boom, typed, slow]
`
	files["tools/typed.ts"] = `export default {
  description: 'Look up an order.',
  parameters: { type: 'object', properties: { id: { type: 'string' }, include_items: { type: 'boolean' } }, required: ['id'] },
  execute(a: { id: string }) { return 'order ' + a.id },
}
`
	files["tools/slow.ts"] = `export default {
  description: 'Never answers; 100 ms allowed.',
  timeout: 100,
  parameters: { type: 'object', properties: {} },
  execute() { return new Promise(() => {}) },
}
`
	// long waits up to 10 s for context.signal and says so in a file.
	files["tools/long.ts"] = `import { writeFileSync } from 'node:fs'
export default {
  description: 'Waits ten seconds unless aborted.',
  parameters: { type: 'object', properties: {} },
  execute(a: unknown, context: { directory: string; signal: AbortSignal }) {
    writeFileSync(context.directory + '/long-started', '')
    return new Promise((resolve) => {
      const t = setTimeout(() => { writeFileSync(context.directory + '/long-ended', ''); resolve('done') }, 10000)
      context.signal.addEventListener('abort', () => {
        clearTimeout(t)
        writeFileSync(context.directory + '/long-aborted', String(context.signal.reason?.name))
        resolve('aborted')
      })
    })
  },
}
`
	if extra != "" {
		files["tools/extra.ts"] = `export default {
  description: ` + "'" + extra + "'" + `,
  parameters: { type: 'object', properties: {} },
  execute() { return 'extra' },
}
`
	}
	return files
}

// mcpClient is one go-sdk client session against the test's executor.
type mcpClient struct {
	cs      *mcp.ClientSession
	changed atomic.Int32  // tools/list_changed notifications received
	stream  chan struct{} // closed once the standalone GET stream is open
}

// headerTransport adds headers to every request, and tells when the
// client's standalone GET stream is open (a notification sent before it
// is lost, as the spec allows).
type headerTransport struct {
	base    http.RoundTripper
	headers []string
	once    sync.Once
	onGET   func()
}

func (h *headerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	for i := 0; i+1 < len(h.headers); i += 2 {
		r.Header.Set(h.headers[i], h.headers[i+1])
	}
	resp, err := h.base.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet && resp.StatusCode == http.StatusOK && h.onGET != nil {
		h.once.Do(h.onGET)
	}
	return resp, err
}

// mcpConnect initializes a session at path (protocol version, "" for the
// newest beeuni speaks) with extra headers.
func (e *env) mcpConnect(path, version string, headers ...string) *mcpClient {
	e.tb.Helper()
	c, err := e.mcpTryConnect(path, version, headers...)
	if err != nil {
		e.tb.Fatalf("connect to %s: %v", path, err)
	}
	return c
}

func (e *env) mcpTryConnect(path, version string, headers ...string) (*mcpClient, error) {
	c := &mcpClient{stream: make(chan struct{})}
	client := mcp.NewClient(&mcp.Implementation{Name: "beeuni-test", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { c.changed.Add(1) },
	})
	tr := &headerTransport{base: e.client.Transport, headers: headers, onGET: func() { close(c.stream) }}
	if version == "" {
		version = "2025-11-25"
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: e.url + path, HTTPClient: &http.Client{Transport: tr}},
		&mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	c.cs = cs
	e.tb.Cleanup(func() { _ = cs.Close() })
	return c, nil
}

// ready waits until the client can receive notifications.
func (c *mcpClient) ready(tb testing.TB) {
	tb.Helper()
	select {
	case <-c.stream:
	case <-time.After(10 * time.Second):
		tb.Fatal("the standalone GET stream did not open")
	}
}

// names lists the session's tools, every page, sorted.
func (c *mcpClient) names(tb testing.TB) []string {
	tb.Helper()
	var out []string
	for t, err := range c.cs.Tools(tb.Context(), nil) {
		if err != nil {
			tb.Fatalf("tools/list: %v", err)
		}
		out = append(out, t.Name)
	}
	slices.Sort(out)
	return out
}

// call calls a tool and fails the test on a protocol error.
func (c *mcpClient) call(tb testing.TB, name string, args any) *mcp.CallToolResult {
	tb.Helper()
	res, err := c.cs.CallTool(tb.Context(), &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		tb.Fatalf("tools/call %s: %v", name, err)
	}
	return res
}

// callErr calls a tool and wants a JSON-RPC error.
func (c *mcpClient) callErr(tb testing.TB, name string) *jsonrpc.Error {
	tb.Helper()
	_, err := c.cs.CallTool(tb.Context(), &mcp.CallToolParams{Name: name, Arguments: map[string]any{}})
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		tb.Fatalf("tools/call %s: %v, want a JSON-RPC error", name, err)
	}
	return je
}

func text(tb testing.TB, r *mcp.CallToolResult) string {
	tb.Helper()
	if len(r.Content) != 1 {
		tb.Fatalf("content %+v, want one text", r.Content)
	}
	t, ok := r.Content[0].(*mcp.TextContent)
	if !ok {
		tb.Fatalf("content %T, want text", r.Content[0])
	}
	return t.Text
}

// waitChanged waits for the client to have received n notifications.
func (c *mcpClient) waitChanged(tb testing.TB, n int32) {
	tb.Helper()
	waitFor(tb, 10*time.Second, func() error {
		if got := c.changed.Load(); got < n {
			return errors.New("not yet notified")
		}
		return nil
	})
}

// quiet is how long a test waits to see that no (further) notification
// comes: far longer than beeuni's sync delay plus the SDK's 10 ms debounce.
const quiet = 300 * time.Millisecond

// settle waits the quiet time (a negative check cannot poll) and returns
// the notifications received.
func (c *mcpClient) settle() int32 {
	time.Sleep(quiet)
	return c.changed.Load()
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	ja, _ := json.Marshal(x)
	jb, _ := json.Marshal(y)
	return string(ja) == string(jb)
}

func joined(s []string) string { return strings.Join(s, ",") }

// exists is nil once path exists.
func exists(path string) error {
	_, err := os.Stat(path)
	return err
}

// initBody is an initialize request, and mcpHeaders what the transport
// wants with it, for the raw-HTTP tests.
const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`

var mcpHeaders = []string{"Content-Type", "application/json", "Accept", "application/json, text/event-stream"}
