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

// jsFiles are the JavaScript baseline servers: js/node_server.cjs (Node's
// http) and js/bun_server.cjs (Bun.serve), both calling through js/call.cjs.
// They are what a user would write without beeuni, doing per call what
// beeuni's host does and no more, and they answer beeuni's bytes.
//
//go:embed js/call.cjs js/node_server.cjs js/bun_server.cjs
var jsFiles embed.FS

// jsServer is a running Node.js or Bun baseline server.
type jsServer struct {
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

// startNode starts the Node.js baseline server on a free loopback port with
// the bundled tools (name -> .cjs path), dir as context.directory,
// answering as release.
func startNode(ctx context.Context, node, dir, release string, tools map[string]string) (*jsServer, error) {
	return startJS(ctx, "node", node, "node_server.cjs", dir, release, tools)
}

// startBun starts the Bun baseline server likewise, with the tools' own
// TypeScript files (name -> .ts path): Bun runs them without a bundle.
func startBun(ctx context.Context, bun, dir, release string, tools map[string]string) (*jsServer, error) {
	return startJS(ctx, "bun", bun, "bun_server.cjs", dir, release, tools)
}

// startJS starts bin (node or bun) on server, one of the embedded scripts,
// which prints its port on its first line.
func startJS(ctx context.Context, name, bin, server, dir, release string, tools map[string]string) (*jsServer, error) {
	scripts := filepath.Join(dir, name+"-server") // apart from the tools: a tool may be named call
	if err := os.MkdirAll(scripts, 0o755); err != nil {
		return nil, fmt.Errorf("write the %s server: %w", name, err)
	}
	for _, f := range []string{"call.cjs", server} {
		b, err := jsFiles.ReadFile("js/" + f)
		if err == nil {
			err = os.WriteFile(filepath.Join(scripts, f), b, 0o644)
		}
		if err != nil {
			return nil, fmt.Errorf("write the %s server: %w", name, err)
		}
	}
	script := filepath.Join(scripts, server)
	cfg, err := json.Marshal(map[string]any{"tools": tools, "dir": dir, "release": release})
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	cmd := exec.Command(bin, script, string(cfg))
	cmd.Dir = dir
	stderr := &limitedWriter{}
	cmd.Stderr = stderr
	port := make(chan string, 1)
	cmd.Stdout = &firstLine{ch: port}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", name, err)
	}
	s := &jsServer{cmd: cmd, done: make(chan error, 1)}
	go func() { s.done <- cmd.Wait() }()
	select {
	case p := <-port:
		if _, err := strconv.Atoi(p); err != nil {
			s.stop()
			return nil, fmt.Errorf("%s server did not start: %q %s", name, p, stderr.String())
		}
		s.url = "http://127.0.0.1:" + p
		return s, nil
	case <-time.After(20 * time.Second):
		s.stop()
		return nil, fmt.Errorf("%s server did not start within 20s: %s", name, stderr.String())
	case <-ctx.Done():
		s.stop()
		return nil, ctx.Err()
	}
}

func (s *jsServer) pid() int { return s.cmd.Process.Pid }

// stop kills the server and waits for it.
func (s *jsServer) stop() {
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
