package process

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// The opencode the default runtime's plugin is tested against, from the npm
// registry. opencode installs @opencode-ai/plugin at its own version into each
// config folder it reads; the registry may not have that version, so the
// nearest published one is installed beside it and put there first.
const (
	opencodeVersion       = "1.18.34"
	opencodePluginVersion = "1.18.33"
	npmTimeout            = 5 * time.Minute
	opencodeTimeout       = 90 * time.Second // a session's turn on two shared cores
)

// opencodeKit is the installed opencode: its binary and the node_modules
// that hold @opencode-ai/plugin.
type opencodeKit struct {
	bin, modules string
}

// installOpencode installs opencode from the npm registry into the user's
// cache once (skipping the test when npm is absent; a failed install fails
// it) and returns where it is.
func installOpencode(tb testing.TB) opencodeKit {
	tb.Helper()
	if _, err := exec.LookPath("node"); err != nil {
		tb.Skip("node is not on PATH: skipping the test against the real opencode (install Node.js and npm to run it)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), npmTimeout)
	defer cancel()
	dir, err := npmcache.Install(ctx, "opencode-linux-x64@"+opencodeVersion, "@opencode-ai/plugin@"+opencodePluginVersion)
	if errors.Is(err, npmcache.ErrNoNPM) {
		tb.Skip("npm is not on PATH: skipping the test against the real opencode (install Node.js and npm to run it)")
	}
	if err != nil {
		tb.Fatalf("install opencode (npm is on PATH, so the registry must answer): %v", err)
	}
	kit := opencodeKit{bin: filepath.Join(dir, "node_modules", "opencode-linux-x64", "bin", "opencode"),
		modules: filepath.Join(dir, "node_modules")}
	if _, err := os.Stat(kit.bin); err != nil {
		tb.Fatalf("npm installed opencode-linux-x64 but %s is missing: %v", kit.bin, err)
	}
	return kit
}

// providePlugin makes @opencode-ai/plugin installed in an opencode config
// folder, as opencode checks it (node_modules there, the package named in
// package.json and package-lock.json), so opencode does not try to install
// its own version, which the registry lacks.
func (k opencodeKit) providePlugin(tb testing.TB, dir string) {
	tb.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	files := map[string]string{
		"package.json":      `{"dependencies":{"@opencode-ai/plugin":"` + opencodePluginVersion + `"}}`,
		"package-lock.json": `{"lockfileVersion":3,"packages":{"":{"dependencies":{"@opencode-ai/plugin":"` + opencodePluginVersion + `"}}}}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	if err := os.Symlink(k.modules, filepath.Join(dir, "node_modules")); err != nil && !errors.Is(err, os.ErrExist) {
		tb.Fatal(err)
	}
}

// ocClient waits as long as a turn may take.
var ocClient = &http.Client{Timeout: opencodeTimeout}

// opencodeServer is a running `opencode serve`.
type opencodeServer struct {
	url string
	p   *proc
}

// startOpencode runs `opencode serve` in dir with a home of its own (so the
// user's opencode configuration stays out) and the fake model as its only
// provider; env adds variables (BEEUNI_EXECUTOR_URL, OPENCODE_CONFIG_DIR).
func (k opencodeKit) start(tb testing.TB, name, dir, home string, model *fakeModel, env ...string) *opencodeServer {
	tb.Helper()
	addr := freeAddr(tb)
	_, port, _ := net.SplitHostPort(addr)
	cfg := fmt.Sprintf(`{"snapshot":false,"autoupdate":false,"share":"disabled","model":"fake/m","small_model":"fake/m",`+
		`"provider":{"fake":{"npm":"@ai-sdk/openai-compatible","name":"Fake","options":{"baseURL":%q,"apiKey":"test"},`+
		`"models":{"m":{"name":"M","tool_call":true}}}}}`, model.url+"/v1")
	vars := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "config"), "XDG_DATA_HOME=" + filepath.Join(home, "data"),
		"XDG_CACHE_HOME=" + filepath.Join(home, "cache"), "XDG_STATE_HOME=" + filepath.Join(home, "state"),
		"OPENCODE_CONFIG_CONTENT=" + cfg, "OPENCODE_DISABLE_MODELS_FETCH=1", "OPENCODE_DISABLE_AUTOUPDATE=1",
		"OPENCODE_DISABLE_EXTERNAL_SKILLS=1", "OPENCODE_DISABLE_CLAUDE_CODE=1", "OPENCODE_DISABLE_SHARE=1",
		"OPENCODE_DISABLE_LSP_DOWNLOAD=1", "OPENCODE_DISABLE_DEFAULT_PLUGINS=1", "OPENCODE_EXPERIMENTAL_DISABLE_FILEWATCHER=1"}
	k.providePlugin(tb, filepath.Join(home, "config", "opencode"))
	p := startProgram(tb, name, dir, append(vars, env...), k.bin, "serve", "--hostname", "127.0.0.1", "--port", port, "--print-logs")
	s := &opencodeServer{url: "http://" + addr, p: p}
	// A request sent before it says it listens can hang: wait for the line.
	waitFor(tb, opencodeTimeout, name+" to listen", func() error {
		if err := p.alive(); err != nil {
			return fmt.Errorf("%w: %w", errFatal, err)
		}
		if !strings.Contains(p.output(), "opencode server listening on") {
			return errors.New("not listening yet")
		}
		return nil
	})
	return s
}

// ids is GET /experimental/tool/ids: every tool the instance loaded.
func (s *opencodeServer) ids() ([]string, error) {
	var ids []string
	err := s.get("/experimental/tool/ids", &ids)
	return ids, err
}

// schemas is GET /experimental/tool: each tool's JSON Schema as the model
// gets it (provider and model only pick model-specific tools).
func (s *opencodeServer) schemas() (map[string]json.RawMessage, error) {
	var list []struct {
		ID         string          `json:"id"`
		Parameters json.RawMessage `json:"parameters"`
	}
	if err := s.get("/experimental/tool?provider=fake&model=m", &list); err != nil {
		return nil, err
	}
	out := map[string]json.RawMessage{}
	for _, t := range list {
		out[t.ID] = t.Parameters
	}
	return out, nil
}

func (s *opencodeServer) get(path string, v any) error {
	// The first request of an instance waits for it to load its plugins.
	resp, err := ocClient.Get(s.url + path)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s: %s", path, resp.Status, body)
	}
	return json.Unmarshal(body, v)
}

func (s *opencodeServer) post(tb testing.TB, path string, in, out any) {
	tb.Helper()
	b, _ := json.Marshal(in)
	ctx, cancel := context.WithTimeout(context.Background(), opencodeTimeout)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	resp, err := ocClient.Do(req)
	if err != nil {
		tb.Fatalf("POST %s: %v", path, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		tb.Fatalf("POST %s: %s: %s", path, resp.Status, body)
	}
	if err := json.Unmarshal(body, out); err != nil {
		tb.Fatalf("POST %s: %v: %s", path, err, body)
	}
}

// toolPart is a tool call of a session's messages, as opencode records it.
type toolPart struct {
	Tool  string `json:"tool"`
	State struct {
		Status string `json:"status"`
		Output string `json:"output"`
		Error  string `json:"error"`
	} `json:"state"`
}

// prompt runs one turn of a new session as agent and returns the session's
// id and the tool calls the turn made.
func (s *opencodeServer) prompt(tb testing.TB, agent, text string) (string, []toolPart) {
	tb.Helper()
	var session struct {
		ID string `json:"id"`
	}
	s.post(tb, "/session", map[string]any{}, &session)
	var reply json.RawMessage
	s.post(tb, "/session/"+session.ID+"/message", map[string]any{"agent": agent,
		"model": map[string]string{"providerID": "fake", "modelID": "m"},
		"parts": []map[string]string{{"type": "text", "text": text}}}, &reply)
	var msgs []struct {
		Parts []struct {
			Type string `json:"type"`
			toolPart
		} `json:"parts"`
	}
	if err := s.get("/session/"+session.ID+"/message", &msgs); err != nil {
		tb.Fatal(err)
	}
	var calls []toolPart
	for _, m := range msgs {
		for _, p := range m.Parts {
			if p.Type == "tool" {
				calls = append(calls, p.toolPart)
			}
		}
	}
	return session.ID, calls
}

// fakeModel is an OpenAI-compatible chat endpoint on loopback standing in for
// the model provider (no model runs here). It records the tools each request
// offers; a prompt "call NAME..." makes it call each tool NAME at once with
// {"name":"Ada"}, anything else makes it answer "done".
type fakeModel struct {
	url string
	mu  sync.Mutex
	log []modelRequest
}

type modelRequest struct {
	Prompt string   // the last user message
	Tools  []string // the tools offered
}

func startFakeModel(tb testing.TB) *fakeModel {
	tb.Helper()
	m := &fakeModel{}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(m.serve)}
	go srv.Serve(ln)
	tb.Cleanup(func() { srv.Close() })
	m.url = "http://" + ln.Addr().String()
	return m
}

func (m *fakeModel) serve(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Messages) == 0 {
		http.Error(w, "want a chat completion request", http.StatusBadRequest)
		return
	}
	var rec modelRequest
	for _, t := range req.Tools {
		rec.Tools = append(rec.Tools, t.Function.Name)
	}
	last := req.Messages[len(req.Messages)-1]
	if last.Role == "user" {
		rec.Prompt = string(last.Content)
	}
	m.mu.Lock()
	m.log = append(m.log, rec)
	m.mu.Unlock()

	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": "m",
			"choices": []map[string]any{{"index": 0, "delta": delta, "finish_reason": finish}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	if _, after, ok := strings.Cut(rec.Prompt, "call "); ok && len(rec.Tools) > 0 {
		var calls []map[string]any
		for i, tool := range strings.Fields(strings.Trim(after, `"]}\`)) {
			calls = append(calls, map[string]any{"index": i, "id": fmt.Sprintf("call_%d", i), "type": "function",
				"function": map[string]string{"name": strings.Trim(tool, `"\`), "arguments": `{"name":"Ada"}`}})
		}
		chunk(map[string]any{"role": "assistant", "tool_calls": calls}, nil)
		chunk(map[string]any{}, "tool_calls")
	} else {
		chunk(map[string]any{"role": "assistant", "content": "done"}, nil)
		chunk(map[string]any{}, "stop")
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// offered returns the tools offered with the request whose prompt holds
// marker and that offered any tool (the session's turn, not its title).
func (m *fakeModel) offered(tb testing.TB, marker string) []string {
	tb.Helper()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, r := range m.log {
		if strings.Contains(r.Prompt, marker) && len(r.Tools) > 0 {
			return r.Tools
		}
	}
	tb.Fatalf("the model got no request with tools for the prompt %q; requests: %+v", marker, m.log)
	return nil
}

// gitStatus is `git status --porcelain --untracked-files=all` in dir.
func gitStatus(tb testing.TB, dir string) string {
	tb.Helper()
	out, err := exec.Command("git", "-C", dir, "status", "--porcelain", "--untracked-files=all").CombinedOutput()
	if err != nil {
		tb.Fatalf("git status: %v\n%s", err, out)
	}
	return string(out)
}
