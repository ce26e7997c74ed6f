package bench

import (
	"bytes"
	"context"
	"embed"
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

// nodeJS is the Node.js baseline server: js/node_server.cjs (HTTP) and
// js/call.cjs (the module calling, shared with other runtimes' baselines).
// It is what a user would write without beeuni, doing per call what
// beeuni's host does and no more, and it answers beeuni's bytes.
//
//go:embed js/call.cjs js/node_server.cjs
var nodeJS embed.FS

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
// bundled tools (name -> .cjs path), dir as context.directory, answering
// as release.
func startNode(ctx context.Context, node, dir, release string, tools map[string]string) (*nodeServer, error) {
	scripts := filepath.Join(dir, "node-server") // apart from the bundles: a tool may be named call
	if err := os.MkdirAll(scripts, 0o755); err != nil {
		return nil, fmt.Errorf("write the node server: %w", err)
	}
	for _, name := range []string{"call.cjs", "node_server.cjs"} {
		b, err := nodeJS.ReadFile("js/" + name)
		if err == nil {
			err = os.WriteFile(filepath.Join(scripts, name), b, 0o644)
		}
		if err != nil {
			return nil, fmt.Errorf("write the node server: %w", err)
		}
	}
	script := filepath.Join(scripts, "node_server.cjs")
	cfg, err := json.Marshal(map[string]any{"tools": tools, "dir": dir, "release": release})
	if err != nil {
		return nil, fmt.Errorf("start node: %w", err)
	}
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
