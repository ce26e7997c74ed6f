package executor

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/loader"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
)

// manifest is the test project's beeuni.yaml. With a tools: key, only the
// Beeuni tools listed (show) load.
const manifest = `tools:
  show: beeuni:show
  answer: tools/answer.ts
  echo: tools/echo.ts
  boom: tools/boom.ts
  env: tools/env.ts
  wait: tools/wait.ts
agents:
  beeuni:
    tools: all
    secrets: all
  researcher:
    tools: [answer, echo, env]
    secrets: [API_KEY]
  greeter:
    tools: none
`

// project returns the files of a release whose answer tool says version.
func project(version string) map[string]string {
	return map[string]string{
		"beeuni.yaml":     manifest,
		"tools/answer.ts": answerTool(version),
		"tools/echo.ts": `export default {
  description: 'Return the arguments.',
  parameters: { type: 'object', properties: {} },
  execute(args: Record<string, unknown>) { return args },
}
`,
		"tools/boom.ts": `export default {
  description: 'Always throws.',
  parameters: { type: 'object', properties: {} },
  execute() { throw new Error('boom: set BOOM_OK to stop this') },
}
`,
		"tools/env.ts": envTool,
		// wait answers once the file named by args.flag (default go) exists in the
		// checkout, so a test decides when a call in flight ends.
		"tools/wait.ts": `import { existsSync } from 'node:fs'
import { join } from 'node:path'
export default {
  description: 'Wait for a flag file, then say which release answers.',
  parameters: { type: 'object', properties: { flag: { type: 'string' } } },
  async execute(args: { flag?: string }, context: { directory: string }) {
    while (!existsSync(join(context.directory, args.flag ?? 'go'))) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return '` + version + `:done'
  },
}
`,
	}
}

// answerTool is a module whose tool answers version.
func answerTool(version string) string {
	return `export default {
  description: 'Say which release answers.',
  parameters: { type: 'object', properties: {} },
  async execute() { return '` + version + `' },
}
`
}

// envTool is a module whose tool answers one variable of context.env.
const envTool = `export default {
  description: 'Read one variable of context.env.',
  parameters: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  execute(args: { name: string }, context: { env: Record<string, string> }) {
    return context.env[args.name] ?? '(unset)'
  },
}
`

// writeTree writes files into a new temporary directory.
func writeTree(tb testing.TB, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	return dir
}

// env is one test's executor: a server on loopback and what loads its sets.
type env struct {
	tb      testing.TB
	srv     *Server
	url     string
	logs    *syncBuffer
	log     *slog.Logger
	bundler *bundle.Bundler
	client  *http.Client
}

type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// start runs a Server with opts on a loopback port until the test ends.
// configure, if any, runs before Run.
func start(tb testing.TB, opts Options, configure ...func(*Server)) *env {
	tb.Helper()
	logs := &syncBuffer{}
	log := newTestLogger(logs)
	opts.Logger = log
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	opts.Listener = ln
	srv, err := NewServer(opts)
	if err != nil {
		tb.Fatal(err)
	}
	for _, c := range configure {
		c(srv)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-ran; err != nil {
			tb.Errorf("Run: %v", err)
		}
	})
	return &env{tb: tb, srv: srv, url: "http://" + ln.Addr().String(), logs: logs, log: log,
		bundler: newTestBundler(), client: newTestClient(tb)}
}

// newTestLogger logs everything, debug included, into w.
func newTestLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func newTestBundler() *bundle.Bundler { return bundle.New(nil) }

// newTestClient keeps enough idle connections for the concurrent tests.
func newTestClient(tb testing.TB) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 256
	tb.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr}
}

// optsJS are the runtime options of the test's tool sets.
func (e *env) optsJS() jshost.Options {
	return jshost.Options{Logger: e.log, Bundler: e.bundler, TempDir: e.tb.TempDir(), PoolSize: 4}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// load loads files as release id.
func (e *env) load(release string, files map[string]string) *ToolSet {
	e.tb.Helper()
	dir := writeTree(e.tb, files)
	return LoadToolSet(context.Background(), release, dir, loader.HarnessExperimental, e.optsJS())
}

// switchTo loads files as release and switches to it.
func (e *env) switchTo(release string, files map[string]string) *ToolSet {
	e.tb.Helper()
	ts := e.load(release, files)
	e.srv.Switch(ts)
	return ts
}

type reply struct {
	status int
	body   []byte
}

func (r reply) json(tb testing.TB) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		tb.Fatalf("answer %d is not a JSON object: %v: %q", r.status, err, r.body)
	}
	return m
}

// do sends one request; headers alternate name, value.
func (e *env) do(method, path, body string, headers ...string) (reply, error) {
	return e.doTimeout(0, method, path, body, headers...)
}

// doTimeout is do with a deadline (none when d is 0).
func (e *env) doTimeout(d time.Duration, method, path, body string, headers ...string) (reply, error) {
	ctx := context.Background()
	if d > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, d)
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, method, e.url+path, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return reply{status: resp.StatusCode, body: b}, err
}

func (e *env) mustDo(method, path, body string, headers ...string) reply {
	e.tb.Helper()
	r, err := e.do(method, path, body, headers...)
	if err != nil {
		e.tb.Fatalf("%s %s: %v", method, path, err)
	}
	return r
}

// call calls tool and returns its 200 answer, failing the test otherwise.
func (e *env) call(tool, body string, headers ...string) CallResponse {
	e.tb.Helper()
	r := e.mustDo("POST", "/beeuni/tools/"+tool, body, headers...)
	if r.status != http.StatusOK {
		e.tb.Fatalf("call %s: %d %s", tool, r.status, r.body)
	}
	var cr CallResponse
	if err := json.Unmarshal(r.body, &cr); err != nil {
		e.tb.Fatalf("call %s: %v: %q", tool, err, r.body)
	}
	return cr
}

// waitFor polls cond until it returns nil or the deadline passes.
func waitFor(tb testing.TB, d time.Duration, cond func() error) {
	tb.Helper()
	deadline := time.Now().Add(d)
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("condition not met after %v: %v", d, err)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func isDone(ts *ToolSet) bool {
	select {
	case <-ts.Done():
		return true
	default:
		return false
	}
}

func waitDone(tb testing.TB, ts *ToolSet) {
	tb.Helper()
	waitFor(tb, 10*time.Second, func() error {
		if !isDone(ts) {
			return errors.New("tool set " + ts.Release() + " not freed")
		}
		return nil
	})
}
