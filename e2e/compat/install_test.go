package compat

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// install is the shared npm install of packages/ (Bun, esbuild and every
// package the corpus uses), kept in the user's cache folder by lock hash.
type install struct {
	root string             // holds node_modules
	lock map[string]lockPkg // package-lock.json "packages", by path
}

type lockPkg struct {
	Dependencies         map[string]string `json:"dependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

func (in *install) bun() string {
	return filepath.Join(in.root, "node_modules", "@oven", "bun-linux-x64", "bin", "bun")
}

func (in *install) esbuild() string {
	return filepath.Join(in.root, "node_modules", "esbuild", "lib", "main.js")
}

// installPackages runs `npm ci` of packages/ into the cache once per lock
// file, when the live side is asked for (COMPAT_LIVE or -update). It
// returns nil, and why, when the live side does not run; a failed install
// with npm present fails the test.
func installPackages(tb testing.TB) (*install, string) {
	tb.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		return nil, "the corpus installs Bun as @oven/bun-linux-x64: linux/amd64 only"
	}
	if !*update && os.Getenv("COMPAT_LIVE") == "" {
		return nil, "set COMPAT_LIVE=1 (or pass -update) to install Bun and the packages and compare live; " +
			"left out of the default run because beeuni bundles large packages for minutes today and the load starves timing-sensitive tests"
	}
	npm, err := exec.LookPath("npm")
	if err != nil {
		return nil, "npm is not on PATH: Bun and the packages cannot be installed"
	}
	if _, err := exec.LookPath("node"); err != nil {
		return nil, "node is not on PATH"
	}
	lockData, err := os.ReadFile(filepath.Join("packages", "package-lock.json"))
	if err != nil {
		tb.Fatalf("read packages/package-lock.json: %v", err)
	}
	pkgData, err := os.ReadFile(filepath.Join("packages", "package.json"))
	if err != nil {
		tb.Fatalf("read packages/package.json: %v", err)
	}
	sum := sha256.Sum256(append(append([]byte{}, pkgData...), lockData...))
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	root := filepath.Join(cache, "beeuni-compat", hex.EncodeToString(sum[:])[:16])
	in := &install{root: root}
	var lock struct {
		Packages map[string]lockPkg `json:"packages"`
	}
	if err := json.Unmarshal(lockData, &lock); err != nil {
		tb.Fatalf("packages/package-lock.json: %v", err)
	}
	in.lock = lock.Packages
	if _, err := os.Stat(filepath.Join(root, ".complete")); err == nil {
		return in, ""
	}
	// Install beside the final folder and rename it in place, so a run that
	// dies half way never leaves a folder that looks complete.
	if err := os.MkdirAll(filepath.Dir(root), 0o755); err != nil {
		tb.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(root), ".install-")
	if err != nil {
		tb.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	for name, data := range map[string][]byte{"package.json": pkgData, "package-lock.json": lockData} {
		if err := os.WriteFile(filepath.Join(tmp, name), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error")
	cmd.Dir = tmp
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("npm ci of e2e/compat/packages into %s: %v\n%s", tmp, err, out)
	}
	if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Rename(tmp, root); err != nil {
		if _, serr := os.Stat(filepath.Join(root, ".complete")); serr != nil {
			tb.Fatalf("move the install into %s: %v", root, err)
		}
	}
	return in, ""
}

// closure returns the node_modules folders (lock paths such as
// "node_modules/zod") a case needs: its packages and, transitively, what
// they depend on, resolved as Node resolves them from each package's folder.
// Nested node_modules come along inside their parent's folder.
func (in *install) closure(pkgs []string) ([]string, error) {
	var out []string
	seen := map[string]bool{}
	var visit func(p string) error
	visit = func(p string) error {
		if seen[p] {
			return nil
		}
		seen[p] = true
		if !nested(p, out) {
			out = append(out, p)
		}
		meta := in.lock[p]
		for _, deps := range []map[string]string{meta.Dependencies, meta.OptionalDependencies, meta.PeerDependencies} {
			for dep := range deps {
				// Optional and other-platform packages may be in the lock
				// and not on disk.
				if found, ok := in.resolve(p, dep); ok && in.present(found) {
					if err := visit(found); err != nil {
						return err
					}
				}
			}
		}
		return nil
	}
	for _, name := range pkgs {
		p := "node_modules/" + name
		if _, ok := in.lock[p]; !ok {
			return nil, fmt.Errorf("package %s is not in packages/package-lock.json: add it to packages/package.json and run npm install there", name)
		}
		if err := visit(p); err != nil {
			return nil, err
		}
	}
	// A folder listed before its parent was found is inside the parent now.
	var top []string
	for _, p := range out {
		if !nested(p, out) {
			top = append(top, p)
		}
	}
	return top, nil
}

// present reports whether the lock path was installed on this machine.
func (in *install) present(p string) bool {
	_, err := os.Stat(filepath.Join(in.root, filepath.FromSlash(p)))
	return err == nil
}

// resolve finds dep as Node would from the package at lock path from.
func (in *install) resolve(from, dep string) (string, bool) {
	dir := from
	for {
		p := dir + "/node_modules/" + dep
		if _, ok := in.lock[p]; ok {
			return p, true
		}
		i := strings.LastIndex(dir, "/node_modules/")
		if i < 0 {
			break
		}
		dir = dir[:i]
	}
	p := "node_modules/" + dep
	_, ok := in.lock[p]
	return p, ok
}

// nested reports whether p lies inside another folder of list.
func nested(p string, list []string) bool {
	for _, q := range list {
		if q != p && strings.HasPrefix(p, q+"/") {
			return true
		}
	}
	return false
}

// linkModules lays the case's package closure into dir/node_modules with
// hard links (a copy where links fail): the bundler refuses symlinks that
// leave the project, as it must.
func (in *install) linkModules(dir string, pkgs []string) error {
	folders, err := in.closure(pkgs)
	if err != nil {
		return err
	}
	for _, f := range folders {
		src := filepath.Join(in.root, filepath.FromSlash(f))
		dst := filepath.Join(dir, filepath.FromSlash(f))
		if err := copyTree(src, dst, true); err != nil {
			return fmt.Errorf("lay out %s: %w", path.Base(f), err)
		}
	}
	return nil
}

// copyTree copies the folder src to dst, hard-linking files when link is
// set (and copying where a link fails); symlinks are copied as symlinks.
func copyTree(src, dst string, link bool) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type()&fs.ModeSymlink != 0:
			to, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(to, target)
		}
		if link && os.Link(p, target) == nil {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, info.Mode().Perm())
	})
}
