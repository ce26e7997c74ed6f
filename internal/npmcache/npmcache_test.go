package npmcache

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestInstallFromCacheAndWithoutNPM(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t.Setenv("HOME", t.TempDir())
	t.Setenv("PATH", t.TempDir()) // no npm
	ctx := context.Background()
	if _, err := Install(ctx, "tiny@1.0.0"); !errors.Is(err, ErrNoNPM) {
		t.Fatalf("not cached, no npm: %v, want ErrNoNPM", err)
	}
	// A set already installed needs no npm, whatever the order of specs.
	dir := cacheDir([]string{"b@2.0.0", "a@1.0.0"})
	pkg := filepath.Join(dir, "node_modules", "a", "index.js")
	if err := os.MkdirAll(filepath.Dir(pkg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkg, []byte("module.exports = 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := Install(ctx, "a@1.0.0", "b@2.0.0")
	if err != nil || got != dir {
		t.Fatalf("cached: %q %v, want %q", got, err, dir)
	}
	proj := t.TempDir()
	if err := Project(ctx, proj, "b@2.0.0", "a@1.0.0"); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(filepath.Join(proj, "node_modules", "a", "index.js")); err != nil || string(b) != "module.exports = 1\n" {
		t.Fatalf("project copy: %q %v", b, err)
	}
}
