package bundle

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// guard keeps one build inside its project: esbuild resolves every import
// itself (its resolver caches folders for the whole build), the guard only
// looks at what is cheap to judge before resolving, and checks every file
// esbuild is about to read, by its real path, before it is read.
//
//   - What the host offers (Bundler.Offering: node: modules, and names
//     such as "bun:sqlite") stays external; other node: modules fail the
//     load by name, unless required lazily (see below).
//   - Packages: resolved from a node_modules next to the importer or above
//     it, up to the root. A package found nowhere inside the root (or whose
//     folder is a symlink out of it) is `Cannot find package '<name>'`.
//   - Relative and absolute paths: one that climbs out of the root fails.
//   - Every file loaded must lie inside the root once symlinks are resolved
//     (esbuild hands real paths): that catches what the cheap checks cannot
//     see (symlinked files and folders, tsconfig paths). Nothing outside
//     the root is ever read as a module.
//
// Lazy requires (`require()` and `import()` calls, which may never run or
// sit in a try/catch) of what cannot be found inside the root (a missing
// package or file, a path climbing out), or of node: modules not offered,
// are left external: the bundle keeps `require("<name>")` and the JS host
// throws `Cannot find module '<name>'` if it runs. A lazy require that
// reaches outside through a symlink is only seen at load, and fails.
type guard struct {
	root  string // the project root as given
	real  string // the root with symlinks resolved: esbuild's paths start here
	offer *offer // what the host answers to require
	// lazyMissing holds importer\x00specifier pairs a first build could not
	// resolve; a second build leaves them external when lazily required.
	lazyMissing map[string]bool

	mu    sync.Mutex
	pkgs  map[string]pkgFound     // dir\x00package -> where it was found
	files map[string]loadedFile   // real path -> what was loaded
	metas map[string]metaInserted // path from the root -> import.meta prefix
}

type pkgFound int

const (
	pkgMissing pkgFound = iota // no candidate inside the root
	pkgInside                  // a candidate inside the root: esbuild resolves it
	pkgEscapes                 // the candidate is a symlink out of the root
)

// loadedFile is one input as read: its stat before the read and its hash.
type loadedFile struct {
	size  int64
	mtime time.Time
	hash  string
}

func newGuard(root string, o *offer, lazyMissing map[string]bool) (*guard, error) {
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	return &guard{root: root, real: real, offer: o, lazyMissing: lazyMissing,
		pkgs: map[string]pkgFound{}, files: map[string]loadedFile{}, metas: map[string]metaInserted{}}, nil
}

func (g *guard) plugin() api.Plugin {
	return api.Plugin{Name: pluginName, Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: ".*", Namespace: "file"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return g.resolve(pb, a)
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: "file"}, g.load)
	}}
}

// lazy reports whether an import is a call that may never run.
func lazy(k api.ResolveKind) bool {
	return k == api.ResolveJSRequireCall || k == api.ResolveJSDynamicImport || k == api.ResolveJSRequireResolve
}

// DynamicImportPrefix marks, in a bundle, the name of an import() that
// cannot be satisfied: the host's require throws ERR_MODULE_NOT_FOUND for
// it, as Node's and Bun's import() do, where require() throws
// MODULE_NOT_FOUND (esbuild turns both into require calls).
const DynamicImportPrefix = "beeuni:import:"

// missing is the answer for an import that cannot be satisfied inside the
// root: external when lazy, else err.
func missing(a api.OnResolveArgs, err error) (api.OnResolveResult, error) {
	if lazy(a.Kind) {
		return lazyExternal(a), nil
	}
	return api.OnResolveResult{}, err
}

// lazyExternal leaves a lazy import that cannot be satisfied to fail when
// it runs.
func lazyExternal(a api.OnResolveArgs) api.OnResolveResult {
	if a.Kind == api.ResolveJSDynamicImport {
		return api.OnResolveResult{Path: DynamicImportPrefix + a.Path, External: true}
	}
	return api.OnResolveResult{Path: a.Path, External: true}
}

func (g *guard) resolve(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, error) {
	if a.PluginData == selfMark || a.Kind == api.ResolveEntryPoint {
		return api.OnResolveResult{}, nil
	}
	if r, err, ok := g.offer.resolve(a); ok {
		return r, err
	}
	if lazy(a.Kind) && g.lazyMissing[a.Importer+"\x00"+a.Path] {
		return lazyExternal(a), nil
	}
	switch {
	case strings.HasPrefix(a.Path, "#"):
		return api.OnResolveResult{}, nil // package.json "imports": esbuild resolves, load checks
	case isBare(a.Path):
		return g.resolvePackage(pb, a)
	}
	p := filepath.Clean(a.Path)
	if !filepath.IsAbs(p) {
		p = filepath.Join(a.ResolveDir, p)
	}
	if !inside(g.real, p) && !inside(g.root, p) {
		return missing(a, fmt.Errorf("%q resolves outside the project root: keep imported files inside the repository", a.Path))
	}
	return api.OnResolveResult{}, nil
}

// resolve answers what the host offers, node: modules and bare built-in
// names (an import of `http` means node:http, not a package); ok is false
// for other paths.
func (o *offer) resolve(a api.OnResolveArgs) (api.OnResolveResult, error, bool) {
	name, isNode := strings.CutPrefix(a.Path, "node:")
	switch {
	case isNode || nodeBuiltins[a.Path]:
		if o.names[name] || lazy(a.Kind) {
			return api.OnResolveResult{Path: "node:" + name, External: true}, nil, true
		}
		return api.OnResolveResult{}, fmt.Errorf("node:%s is not available to tools (they may import %s)", name, o.hint), true
	case o.names[a.Path]: // offered under its own name ("bun:sqlite")
		return api.OnResolveResult{Path: a.Path, External: true}, nil, true
	}
	return api.OnResolveResult{}, nil, false
}

// resolvePackage lets esbuild resolve a package found inside the root; one
// found nowhere inside gets esbuild's full answer (tsconfig paths may map
// it to a file), which must then lie inside the root.
func (g *guard) resolvePackage(pb api.PluginBuild, a api.OnResolveArgs) (api.OnResolveResult, error) {
	name := packageName(a.Path)
	//lint:ignore ST1005 SPEC section 3: Node's own words, which modules and users match on
	notFound := fmt.Errorf("Cannot find package '%s'", name)
	switch g.findPackage(a.ResolveDir, name) {
	case pkgInside:
		return api.OnResolveResult{}, nil
	case pkgEscapes:
		return missing(a, notFound)
	}
	// Rare (a missing package, or tsconfig paths): pb.Resolve makes a new
	// resolver with empty caches, which is why it is not the common path.
	r := pb.Resolve(a.Path, api.ResolveOptions{
		Importer: a.Importer, Namespace: a.Namespace, ResolveDir: a.ResolveDir,
		Kind: a.Kind, PluginData: selfMark, With: a.With,
	})
	if len(r.Errors) > 0 || r.External || r.Namespace != "file" || !inside(g.real, r.Path) {
		return missing(a, notFound)
	}
	return api.OnResolveResult{Path: r.Path, Namespace: r.Namespace, Suffix: r.Suffix}, nil
}

// findPackage looks for node_modules/<name> (a folder, or a file with one
// of the module extensions) from dir up to the root, as Node does, and
// remembers the answer for the build.
func (g *guard) findPackage(dir, name string) pkgFound {
	key := dir + "\x00" + name
	g.mu.Lock()
	f, ok := g.pkgs[key]
	g.mu.Unlock()
	if ok {
		return f
	}
	f = pkgMissing
	for d := dir; inside(g.real, d); d = filepath.Dir(d) {
		if f = g.candidate(filepath.Join(d, "node_modules", filepath.FromSlash(name))); f != pkgMissing || d == g.real {
			break
		}
	}
	g.mu.Lock()
	g.pkgs[key] = f
	g.mu.Unlock()
	return f
}

// candidate judges one place a package may be, by its real path: the
// package folder, or a node_modules on its way, may be a symlink.
func (g *guard) candidate(p string) pkgFound {
	for _, ext := range append([]string{""}, resolveExtensions...) {
		if _, err := os.Lstat(p + ext); err != nil {
			continue
		}
		real, err := filepath.EvalSymlinks(p + ext)
		if err != nil {
			continue // dangling: Node would not find it either
		}
		if !inside(g.real, real) {
			return pkgEscapes
		}
		return pkgInside
	}
	return pkgMissing
}

// load refuses a file outside the root before esbuild reads it, then reads
// it once for esbuild and for the content hash, adding the import.meta
// prefix where the module uses it.
func (g *guard) load(a api.OnLoadArgs) (api.OnLoadResult, error) {
	if !inside(g.real, a.Path) {
		if name, ok := packageOf(a.Path); ok {
			//lint:ignore ST1005 SPEC section 3: Node's own words, which modules and users match on
			return api.OnLoadResult{}, fmt.Errorf("Cannot find package '%s'", name)
		}
		return api.OnLoadResult{}, fmt.Errorf("%q is outside the project root (symlinks followed): keep imported files inside the repository", a.Path)
	}
	data, st, err := readFile(a.Path)
	if err != nil {
		return api.OnLoadResult{}, err
	}
	rel := g.rel(a.Path)
	src, ins := string(data), metaInserted{}
	loader, known := loaders[strings.ToLower(filepath.Ext(a.Path))]
	if known && loader != api.LoaderJSON && len(a.With) == 0 {
		src, ins = withMeta(src, rel)
	}
	g.mu.Lock()
	g.files[a.Path] = loadedFile{size: st.Size(), mtime: st.ModTime(), hash: fileHash(data)}
	if ins.at.line > 0 {
		g.metas[rel] = ins
	}
	g.mu.Unlock()
	if !known || len(a.With) > 0 {
		return api.OnLoadResult{}, nil // esbuild's own loader choice (and its error for none)
	}
	return api.OnLoadResult{Contents: &src, Loader: loader}, nil
}

// rel is a real path relative to the root, slash-separated.
func (g *guard) rel(p string) string {
	r, err := filepath.Rel(g.real, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(r)
}

// packageOf names the package a path outside the root belongs to: the
// part after its last node_modules.
func packageOf(p string) (string, bool) {
	p = filepath.ToSlash(p)
	i := strings.LastIndex(p, "/node_modules/")
	if i < 0 {
		return "", false
	}
	name := packageName(p[i+len("/node_modules/"):])
	return name, name != ""
}

const pluginName = "beeuni"

// selfResolve marks the resolutions the plugin asks esbuild to do itself.
type selfResolve struct{}

var selfMark = &selfResolve{}

// sourceGuard is the guard of in-memory sources (the Beeuni tools): they
// may import what the host offers only.
func sourceGuard(o *offer) api.Plugin {
	return api.Plugin{Name: pluginName, Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: ".*"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if r, err, ok := o.resolve(a); ok {
				return r, err
			}
			return api.OnResolveResult{}, fmt.Errorf("%q cannot be imported here: this module may import node: modules only", a.Path)
		})
	}}
}

// readFile reads a file and its stat from one open: the stat is taken
// before the read, so if the file changes in between the recorded stat is
// older than the file and the next Bundle builds again.
func readFile(p string) ([]byte, os.FileInfo, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	buf.Grow(int(st.Size()) + 1)
	if _, err := buf.ReadFrom(f); err != nil {
		return nil, nil, err
	}
	return buf.Bytes(), st, nil
}
