// Package npmcache installs pinned npm packages once into a per-user cache,
// for the tests and benchmarks that need real packages. npm runs only when
// the exact set of packages is not cached yet.
package npmcache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// ErrNoNPM is returned when npm is not on PATH: callers skip, saying so.
var ErrNoNPM = errors.New("npm is not on PATH")

// Install returns a folder holding node_modules with exactly the packages
// given as name@version, installing them with npm on first use (later uses
// need no npm). The folder is shared: copy from it, never write into it.
func Install(ctx context.Context, specs ...string) (string, error) {
	dir := cacheDir(specs)
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err == nil {
		return dir, nil
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return "", ErrNoNPM
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return "", fmt.Errorf("npm cache: %w", err)
	}
	// Install beside the final folder, then rename: a reader never sees a
	// half-installed folder, and of two concurrent installs one wins.
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".install-")
	if err != nil {
		return "", fmt.Errorf("npm cache: %w", err)
	}
	defer os.RemoveAll(tmp)
	if err := os.WriteFile(filepath.Join(tmp, "package.json"), []byte(`{"name":"beeuni-npm-cache","private":true}`+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("npm cache: %w", err)
	}
	args := append([]string{"install", "--no-audit", "--no-fund", "--silent", "--save-exact"}, specs...)
	cmd := exec.CommandContext(ctx, npm, args...)
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("npm install %s: %v: %s", strings.Join(specs, " "), err, strings.TrimSpace(string(out)))
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, serr := os.Stat(filepath.Join(dir, "node_modules")); serr == nil {
			return dir, nil // another install won
		}
		return "", fmt.Errorf("npm cache: %w", err)
	}
	return dir, nil
}

// cacheDir is the folder of one set of packages, under the user's cache.
func cacheDir(specs []string) string {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	specs = slices.Sorted(slices.Values(specs))
	sum := sha256.Sum256([]byte(strings.Join(specs, "\n")))
	return filepath.Join(base, "beeuni", "npm", hex.EncodeToString(sum[:8]))
}

// Project copies the cached node_modules for specs into dir (which then
// holds a project of its own: bundling it never reaches the cache).
func Project(ctx context.Context, dir string, specs ...string) error {
	src, err := Install(ctx, specs...)
	if err != nil {
		return err
	}
	if err := os.CopyFS(filepath.Join(dir, "node_modules"), os.DirFS(filepath.Join(src, "node_modules"))); err != nil {
		return fmt.Errorf("copy node_modules: %w", err)
	}
	return nil
}
