package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// nodeServerJS is the Node.js baseline: the same modules behind Node's own
// http server, answering beeuni's response shape. It is what a user would
// write without beeuni: require the module, call execute, JSON out.
const nodeServerJS = `'use strict'
const http = require('node:http')
const cfg = JSON.parse(process.argv[2])
const tools = {}
for (const [name, file] of Object.entries(cfg.tools)) {
  const m = require(file)
  tools[name] = m.default || m
}
const server = http.createServer((req, res) => {
  const chunks = []
  req.on('data', (c) => chunks.push(c))
  req.on('end', async () => {
    const send = (status, obj) => {
      const out = JSON.stringify(obj) + '\n'
      res.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(out) })
      res.end(out)
    }
    const name = req.url.startsWith('/beeuni/tools/') ? req.url.slice('/beeuni/tools/'.length) : ''
    const tool = tools[name]
    if (!tool) return send(404, { error: 'no tool named ' + name + ' is loaded' })
    let args
    try {
      const body = Buffer.concat(chunks).toString()
      args = body.trim() === '' ? {} : JSON.parse(body)
    } catch (e) {
      return send(400, { error: 'the body is not valid JSON' })
    }
    const ac = new AbortController()
    const context = { sessionId: req.headers['x-beeuni-session'] || '', agent: req.headers['x-beeuni-agent'] || 'beeuni',
      directory: cfg.dir, env: { ...process.env }, signal: ac.signal }
    try {
      const v = await tool.execute(args, context)
      const output = typeof v === 'string' ? v : JSON.stringify(v, null, 2)
      send(200, { output, is_error: false, release: 'node' })
    } catch (e) {
      send(200, { output: String(e && e.message || e), is_error: true, release: 'node' })
    }
  })
})
server.keepAliveTimeout = 120000
server.listen(0, '127.0.0.1', () => { console.log(server.address().port) })
`

// nodeServer is a running Node.js baseline server.
type nodeServer struct {
	cmd  *exec.Cmd
	url  string
	done chan error
}

// bundleForNode bundles each module (name -> absolute path) into a CommonJS
// file for Node with esbuild, as beeuni bundles it for goja.
func bundleForNode(dir string, modules map[string]string) (map[string]string, error) {
	out := map[string]string{}
	for name, src := range modules {
		dst := filepath.Join(dir, "node", name+".cjs")
		res := api.Build(api.BuildOptions{EntryPoints: []string{src}, Bundle: true, Platform: api.PlatformNode,
			Format: api.FormatCommonJS, Outfile: dst, Write: true, LogLevel: api.LogLevelSilent})
		if len(res.Errors) > 0 {
			return nil, fmt.Errorf("bundle %s for node: %s", src, res.Errors[0].Text)
		}
		out[name] = dst
	}
	return out, nil
}

// startNode starts the baseline server on a free loopback port with the
// bundled tools (name -> .cjs path), dir as context.directory.
func startNode(ctx context.Context, node, dir string, tools map[string]string) (*nodeServer, error) {
	script := filepath.Join(dir, "node", "server.cjs")
	if err := os.MkdirAll(filepath.Dir(script), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(script, []byte(nodeServerJS), 0o644); err != nil {
		return nil, fmt.Errorf("write the node server: %w", err)
	}
	cfg, _ := json.Marshal(map[string]any{"tools": tools, "dir": dir})
	cmd := exec.Command(node, script, string(cfg))
	cmd.Dir = dir
	stderr := &limitedWriter{}
	cmd.Stderr = stderr
	port := make(chan string, 1)
	cmd.Stdout = &firstLine{ch: port}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start node: %w", err)
	}
	s := &nodeServer{cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	select {
	case p := <-port:
		if _, err := strconv.Atoi(p); err != nil {
			s.stop()
			return nil, fmt.Errorf("node server did not start: %q %s", p, stderr.String())
		}
		s.url = "http://127.0.0.1:" + p
		return s, nil
	case <-time.After(20 * time.Second):
		s.stop()
		return nil, fmt.Errorf("node server did not start within 20s: %s", stderr.String())
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
}

func (s *nodeServer) pid() int { return s.cmd.Process.Pid }

// stop kills the server and waits for it.
func (s *nodeServer) stop() {
	_ = s.cmd.Process.Kill()
	<-s.done
}

// firstLine sends the first line written to it on ch.
type firstLine struct {
	buf  []byte
	ch   chan string
	sent bool
}

func (f *firstLine) Write(p []byte) (int, error) {
	if !f.sent {
		f.buf = append(f.buf, p...)
		if i := bytes.IndexByte(f.buf, '\n'); i >= 0 {
			f.ch <- strings.TrimSpace(string(f.buf[:i]))
			f.sent = true
		}
	}
	return len(p), nil
}

// limitedWriter keeps the first 4 KB written to it, for error messages; a
// child process writes it while the caller may read it.
type limitedWriter struct {
	mu  sync.Mutex
	buf strings.Builder
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if k := min(4096-l.buf.Len(), len(p)); k > 0 {
		l.buf.Write(p[:k])
	}
	return len(p), nil
}

func (l *limitedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
