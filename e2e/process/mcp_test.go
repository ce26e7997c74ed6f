package process

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpSession is the go-sdk client connected to a process's /beeuni/mcp.
type mcpSession struct {
	cs      *mcp.ClientSession
	changed atomic.Int32
	stream  chan struct{} // closed once the standalone GET stream is open
}

// streamWatch tells when the client's standalone GET stream is open: a
// list_changed sent before it has nowhere to go.
type streamWatch struct {
	once sync.Once
	open func()
}

func (s *streamWatch) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := http.DefaultTransport.RoundTrip(r)
	if err == nil && r.Method == http.MethodGet && resp.StatusCode == http.StatusOK {
		s.once.Do(s.open)
	}
	return resp, err
}

func mcpConnect(t *testing.T, endpoint string) *mcpSession {
	t.Helper()
	s := &mcpSession{stream: make(chan struct{})}
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, &mcp.ClientOptions{
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) { s.changed.Add(1) },
	})
	hc := &http.Client{Transport: &streamWatch{open: func() { close(s.stream) }}}
	cs, err := client.Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: hc},
		&mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatalf("connect to %s: %v", endpoint, err)
	}
	t.Cleanup(func() { _ = cs.Close() })
	waitFor(t, startTimeout, "the standalone GET stream", func() error {
		select {
		case <-s.stream:
			return nil
		default:
			return errors.New("not open")
		}
	})
	s.cs = cs
	return s
}

func (s *mcpSession) names(t *testing.T) []string {
	t.Helper()
	var out []string
	for tl, err := range s.cs.Tools(t.Context(), nil) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		out = append(out, tl.Name)
	}
	slices.Sort(out)
	return out
}

// TestUpMCP is an MCP client of a real `beeuni up`: the demo's tools, a
// commit that adds a tool notifies the session once and lists it, and
// after a restart the old session is gone (404) while a new one lists the
// restored set.
func TestUpMCP(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	dir := t.TempDir()
	listen := freeAddr(t)
	args := []string{"up", "--demo", "--nats-port", "-1", "--listen", listen}
	up := startProc(t, "beeuni up", dir, nil, args...)
	b := waitBanner(t, up)
	endpoint := "http://" + listen + "/beeuni/mcp"

	s := mcpConnect(t, endpoint)
	before := s.names(t)
	if !slices.Contains(before, "greet") || slices.Contains(before, "shout") {
		t.Fatalf("the demo lists %v", before)
	}
	res, err := s.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "greet", Arguments: map[string]any{"name": "Ada"}})
	if err != nil || res.IsError || !strings.HasPrefix(res.Content[0].(*mcp.TextContent).Text, "Hello, Ada") || res.Meta["beeuni/release"] != b.release {
		t.Fatalf("greet: %v %+v", err, res)
	}

	// A commit that adds a tool: one notification, the tool listed.
	demo := filepath.Join(dir, ".beeuni", "demo")
	manifest, err := os.ReadFile(filepath.Join(demo, "beeuni.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head := commitIn(t, demo, "Add shout", map[string]string{
		"beeuni.yaml":    string(manifest) + "  shout: tools/shout.ts\n",
		"tools/shout.ts": "export default { description: 'Shout.', parameters: { type: 'object', properties: { text: { type: 'string' } } }, execute: (a: { text?: string }) => (a.text ?? '').toUpperCase() }\n",
	})
	resp, err := httpc.Post("http://"+listen+"/hooks/merge", "application/json", strings.NewReader(`{"commit":"`+head+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	waitFor(t, startTimeout, "tools/list_changed", func() error {
		if s.changed.Load() == 0 {
			return errors.New("no notification yet")
		}
		return nil
	})
	after := s.names(t)
	if !slices.Contains(after, "shout") || len(after) != len(before)+1 {
		t.Fatalf("after the commit: %v", after)
	}
	if n := s.changed.Load(); n != 1 {
		t.Fatalf("%d notifications, want 1", n)
	}
	res, err = s.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": "hi"}})
	if err != nil || res.Content[0].(*mcp.TextContent).Text != "HI" {
		t.Fatalf("shout: %v %+v", err, res)
	}
	release := res.Meta["beeuni/release"]

	// A restart: the old session is unknown; a new one lists the restored set.
	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up exited %d after SIGINT, want 0", code)
	}
	up = startProc(t, "beeuni up (again)", dir, nil, args...)
	waitBanner(t, up)
	_, err = s.cs.ListTools(t.Context(), nil)
	if !errors.Is(err, mcp.ErrSessionMissing) {
		t.Fatalf("the old session after a restart: %v, want session missing (404)", err)
	}
	s2 := mcpConnect(t, endpoint)
	if got := s2.names(t); fmt.Sprint(got) != fmt.Sprint(after) {
		t.Fatalf("after the restart: %v, want %v", got, after)
	}
	res, err = s2.cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "shout", Arguments: map[string]any{"text": "again"}})
	if err != nil || res.Meta["beeuni/release"] != release {
		t.Fatalf("shout after the restart: %v %+v, want release %v", err, res, release)
	}
	if code := up.stop(os.Interrupt); code != 0 {
		t.Fatalf("beeuni up (again) exited %d after SIGINT, want 0", code)
	}
}
