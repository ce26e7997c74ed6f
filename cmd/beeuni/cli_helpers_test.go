package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden/")

// result is one command run.
type result struct {
	code           int
	stdout, stderr string
}

// runIn runs the beeuni command line in process, as main would.
func runIn(tb testing.TB, args ...string) result {
	tb.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}
	code := a.run(context.Background(), args)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// copyProject copies a project tree to a new temp dir, so commands may
// change it.
func copyProject(tb testing.TB, src string) string {
	tb.Helper()
	dst := tb.TempDir()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		tb.Fatalf("copy %s: %v", src, err)
	}
	return dst
}

// checkGolden compares got with testdata/golden/name, or rewrites it with -update.
func checkGolden(tb testing.TB, name, got string) {
	tb.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test ./cmd/beeuni -update)", err)
	}
	if got != string(want) {
		tb.Errorf("%s differs:\n--- got\n%s--- want\n%s", path, got, want)
	}
}

// transcript renders a run for a golden file, with the temp dir as $DIR.
func transcript(dir string, args []string, r result) string {
	shown := make([]string, 0, len(args))
	for _, a := range args {
		shown = append(shown, strings.ReplaceAll(a, dir, "$DIR"))
	}
	var b strings.Builder
	b.WriteString("$ beeuni " + strings.Join(shown, " ") + "\n")
	b.WriteString("-- exit: " + itoa(r.code) + "\n-- stdout:\n" + strings.ReplaceAll(r.stdout, dir, "$DIR"))
	b.WriteString("-- stderr:\n" + strings.ReplaceAll(r.stderr, dir, "$DIR"))
	return b.String()
}

func itoa(n int) string { return string(rune('0' + n)) }
