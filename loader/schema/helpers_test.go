package schema_test

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/beeuni/beeuni/loader/builtin"
	"github.com/beeuni/beeuni/loader/bundle"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// lookupOrder is the reference's tools/lookup_order.ts parameters.
const lookupOrder = `{"type":"object","properties":{"id":{"type":"string","description":"The order id, e.g. \"A-1042\""},"include_items":{"type":"boolean","description":"Also list the items"}},"required":["id"]}`

var (
	builtinsOnce sync.Once
	builtinTools []schema.Tool
	builtinErr   error
)

// builtins loads the five Beeuni tools with the JS host (its public Load)
// and returns them as the model sees them, in the reference's order.
func builtins(tb testing.TB) []schema.Tool {
	tb.Helper()
	builtinsOnce.Do(func() {
		var specs []jshost.Spec
		for _, n := range builtin.Names() {
			code, _ := builtin.Source(n)
			specs = append(specs, jshost.Spec{Name: n, Source: "beeuni:" + n, Code: code})
		}
		dir, err := os.MkdirTemp("", "schema-builtins")
		if err != nil {
			builtinErr = err
			return
		}
		defer os.RemoveAll(dir)
		set := jshost.Load(context.Background(), specs, jshost.Options{Root: dir, Logger: slog.New(slog.DiscardHandler), Bundler: bundle.New(nil)})
		defer set.Close()
		for _, f := range set.Failures() {
			builtinErr = &loadError{f}
			return
		}
		for _, t := range set.Tools() {
			builtinTools = append(builtinTools, schema.Tool{Name: t.Name, Description: t.Description, Parameters: t.Parameters})
		}
	})
	if builtinErr != nil {
		tb.Fatalf("load the Beeuni tools: %v", builtinErr)
	}
	return builtinTools
}

type loadError struct{ f jshost.Failure }

func (e *loadError) Error() string { return e.f.Name + ": " + e.f.Reason }

// builtinTool returns one Beeuni tool by name.
func builtinTool(tb testing.TB, name string) schema.Tool {
	tb.Helper()
	for _, t := range builtins(tb) {
		if t.Name == name {
			return t
		}
	}
	tb.Fatalf("no Beeuni tool %s", name)
	return schema.Tool{}
}

// checkGolden compares got with testdata/name, or rewrites it with -update.
func checkGolden(tb testing.TB, name string, got []byte) {
	tb.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test ./loader/schema -update)", err)
	}
	if string(got) != string(want) {
		tb.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}
