package builtin_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/beeuni/beeuni/loader/builtin"
	"github.com/beeuni/beeuni/loader/jshost"
)

// callTimeout bounds each call in these tests; the tools answer in
// milliseconds, so reaching it is a failure, not a slow machine.
const callTimeout = 20 * time.Second

// loadTool loads the Beeuni tool name through the real JS host, with root as
// the checkout, and fails the test when it does not load.
func loadTool(tb testing.TB, name, root string) *jshost.Set {
	tb.Helper()
	src, ok := builtin.Source(name)
	if !ok {
		tb.Fatalf("builtin.Source(%q): no source", name)
	}
	set := jshost.Load(context.Background(), []jshost.Spec{{Name: name, Source: "beeuni:" + name, Code: src}}, jshost.Options{
		Root:    root,
		TempDir: tb.TempDir(),
		Logger:  slog.New(slog.DiscardHandler),
	})
	tb.Cleanup(set.Close)
	if f := set.Failures(); len(f) > 0 {
		tb.Fatalf("beeuni:%s did not load: %+v", name, f)
	}
	return set
}

// call runs the tool with args (marshalled to JSON) and env, and returns
// what the model would receive.
func call(tb testing.TB, set *jshost.Set, name string, args any, env map[string]string) jshost.Result {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	return callCtx(ctx, tb, set, name, args, env)
}

func callCtx(ctx context.Context, tb testing.TB, set *jshost.Set, name string, args any, env map[string]string) jshost.Result {
	tb.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatalf("marshal args: %v", err)
	}
	res, err := set.Call(ctx, name, raw, jshost.CallContext{SessionID: "s-test", Agent: "beeuni", Env: env})
	if err != nil {
		tb.Fatalf("call %s %s: %v", name, raw, err)
	}
	if res.Spilled != nil {
		tb.Fatalf("call %s %s: output spilled to %s; the tests keep outputs small", name, raw, res.Spilled.Path)
	}
	return res
}

// callOrSpill is call for outputs that may be over the spill size: it
// returns the whole output, read back from the spill file.
func callOrSpill(tb testing.TB, set *jshost.Set, name string, args any, env map[string]string) jshost.Result {
	tb.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		tb.Fatalf("marshal args: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), callTimeout)
	defer cancel()
	res, err := set.Call(ctx, name, raw, jshost.CallContext{SessionID: "s-test", Agent: "beeuni", Env: env})
	if err != nil {
		tb.Fatalf("call %s %s: %v", name, raw, err)
	}
	if res.Spilled != nil {
		b, err := os.ReadFile(res.Spilled.Path)
		if err != nil {
			tb.Fatalf("read the spilled output: %v", err)
		}
		res.Output = string(b)
	}
	return res
}

// wantOK fails unless res is a successful output, and returns it.
func wantOK(tb testing.TB, res jshost.Result) string {
	tb.Helper()
	if res.IsError {
		tb.Fatalf("tool error: %s", res.Output)
	}
	return res.Output
}

// wantError fails unless res is a tool error whose message is want exactly.
func wantError(tb testing.TB, res jshost.Result, want string) {
	tb.Helper()
	if !res.IsError {
		tb.Fatalf("want error %q, got output %q", want, res.Output)
	}
	if res.Output != want {
		tb.Fatalf("error message:\n got %q\nwant %q", res.Output, want)
	}
}

// decode unmarshals a JSON output into v.
func decode(tb testing.TB, out string, v any) {
	tb.Helper()
	if err := json.Unmarshal([]byte(out), v); err != nil {
		tb.Fatalf("output is not JSON (%v): %q", err, out)
	}
}

// writeFile writes content at rel inside root, creating its folders.
func writeFile(tb testing.TB, root, rel, content string) {
	tb.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// readFile returns the content at rel inside root, or fails.
func readFile(tb testing.TB, root, rel string) string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}
