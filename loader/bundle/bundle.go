// Package bundle turns a tool module (TypeScript or JavaScript, with its
// relative imports and the packages of a node_modules inside the project)
// into one CommonJS script the JS host runs, with esbuild. Results are
// cached by content: bundling an unchanged module again costs a few stat
// calls.
package bundle

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

// Cache keeps bundles across processes (e.g. bbolt-backed in the executor).
// Keys are content hashes; values are opaque bytes.
type Cache interface {
	Get(key string) ([]byte, bool)
	Put(key string, code []byte)
}

// Result is one bundled module.
type Result struct {
	// Code is a CommonJS script: run it as Node's module wrapper does, with
	// module, exports, require, __filename (the entry's absolute path, with
	// slashes) and __dirname in scope; require throws Node's
	// MODULE_NOT_FOUND error for what the host does not offer.
	Code []byte
	Key  string // sha256 hex of the inputs and the build settings
}

// version changes the keys when the build settings change.
const version = "beeuni-bundle-3"

// maxEntries bounds each in-memory map; past it the map starts over (the
// external Cache keeps what matters across that).
const maxEntries = 4096

// Bundler bundles modules and remembers the results. Safe for concurrent
// use. A Bundler made by New offers no module: Offering gives a view of
// the same caches that knows what the host running the bundles offers.
type Bundler struct {
	*store
	offer *offer
}

// store is what every view of one Bundler shares.
type store struct {
	ext   Cache
	built atomic.Uint64 // esbuild builds run

	mu        sync.Mutex
	byStat    map[string]statEntry // offer\x00root\x00entry -> inputs as last seen
	manifests map[string][]byte    // manifest key -> manifest JSON
	codes     map[string][]byte    // result key -> code
	maps      map[string][]byte    // result key -> source map (JSON, see Original)
	memos     map[string]any       // kind\x00result key -> derived value
	metas     map[string][]byte    // result key -> what its module's evaluation told (Pack, Seed)
}

// statEntry is the fast path: the inputs' sizes and mtimes when bundled.
type statEntry struct {
	inputs []statInput
	res    Result
}

type statInput struct {
	path  string
	size  int64
	mtime time.Time
}

// manifest records which files (and which contents) a bundle was made of.
type manifest struct {
	Inputs []manifestInput `json:"inputs"`
	Key    string          `json:"key"`
}

type manifestInput struct {
	Path string `json:"path"` // relative to root, slash-separated
	Hash string `json:"hash"`
}

// New returns a Bundler that offers no module; cache may be nil.
func New(cache Cache) *Bundler {
	return &Bundler{store: &store{
		ext:       cache,
		byStat:    map[string]statEntry{},
		manifests: map[string][]byte{},
		codes:     map[string][]byte{},
		maps:      map[string][]byte{},
		memos:     map[string]any{},
		metas:     map[string][]byte{},
	}, offer: newOffer(nil)}
}

// Offering is a view of b's caches for a host whose require answers the
// names given (without "node:": "fs", "fs/promises"; others as written:
// "bun:sqlite"). Those imports stay external; a static import of another
// Node built-in fails the load naming what tools may import (MayImport).
// The JS host passes its own list, so the two never disagree.
func (b *Bundler) Offering(names []string) *Bundler {
	return &Bundler{store: b.store, offer: newOffer(names)}
}

// Bundle bundles the module at entry (relative to root, slash-separated)
// inside root (absolute). Errors are one line a user can act on.
func (b *Bundler) Bundle(root, entry string) (Result, error) {
	root = filepath.Clean(root)
	rel := filepath.ToSlash(filepath.Clean(filepath.FromSlash(entry)))
	if !filepath.IsAbs(root) {
		return Result{}, fmt.Errorf("bundle %s: root %q is not an absolute path", entry, root)
	}
	if filepath.IsAbs(filepath.FromSlash(entry)) || rel == ".." || strings.HasPrefix(rel, "../") {
		return Result{}, fmt.Errorf("%s: the path leaves the project root: write it relative to the repository root", entry)
	}
	statKey := b.offer.digest + "\x00" + root + "\x00" + rel
	if res, ok := b.fromStat(statKey); ok {
		return res, nil
	}
	abs := filepath.Join(root, filepath.FromSlash(rel))
	src, err := os.ReadFile(abs)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Result{}, fmt.Errorf("%s: file not found", rel)
		}
		return Result{}, fmt.Errorf("%s: %w", rel, err)
	}
	mkey := hashOf(version, "manifest", b.offer.digest, rel, string(src))
	if res, stats, ok := b.fromManifest(root, rel, mkey, src); ok {
		b.rememberStat(statKey, stats, res)
		return res, nil
	}
	code, smap, g, err := b.build(root, rel)
	b.built.Add(1)
	if err != nil {
		return Result{}, err
	}
	m, stats := describe(root, rel, g)
	res := Result{Code: code, Key: m.Key}
	mb, _ := json.Marshal(m)
	b.put(b.manifests, "m:"+mkey, "m:"+mkey, mb)
	b.put(b.maps, res.Key, "s:"+res.Key, smap)
	b.put(b.codes, res.Key, res.Key, res.Code)
	b.rememberStat(statKey, stats, res)
	return res, nil
}

// Built counts the modules b (and every view of its caches) ran esbuild
// for: a module found in a cache, or seeded from a pack, is not counted.
func (b *Bundler) Built() uint64 { return b.built.Load() }

// BundleSource bundles an in-memory module (the Beeuni tools) that imports
// node: modules only; name is the file name errors show.
func (b *Bundler) BundleSource(name string, source []byte) (Result, error) {
	key := hashOf(version, "source", b.offer.digest, name, string(source))
	b.mu.Lock()
	code, ok := b.codes[key]
	b.mu.Unlock()
	if ok {
		return Result{Code: code, Key: key}, nil
	}
	if b.ext != nil {
		if code, ok := b.ext.Get(key); ok {
			b.put(b.codes, key, key, code)
			return Result{Code: code, Key: key}, nil
		}
	}
	opts := options("", sourceGuard(b.offer))
	opts.Sourcemap = api.SourceMapNone // trusted sources of the binary: nothing to point users at
	opts.Stdin = &api.StdinOptions{Contents: string(source), Sourcefile: name, Loader: loaderFor(name)}
	out := api.Build(opts)
	if len(out.Errors) > 0 {
		return Result{}, errors.New(errorLine(out.Errors, nil))
	}
	code = out.OutputFiles[0].Contents
	b.put(b.codes, key, key, code)
	return Result{Code: code, Key: key}, nil
}

// Memo returns the value derived from the bundle with key (e.g. a compiled
// program), computing it with make once; kind separates kinds of values.
// Hosts sharing a Bundler share these too.
func (b *Bundler) Memo(kind, key string, make func() any) any {
	k := kind + "\x00" + key
	b.mu.Lock()
	v, ok := b.memos[k]
	b.mu.Unlock()
	if ok {
		return v
	}
	v = make()
	b.mu.Lock()
	defer b.mu.Unlock()
	if old, ok := b.memos[k]; ok {
		return old
	}
	if len(b.memos) >= maxEntries {
		clear(b.memos)
	}
	b.memos[k] = v
	return v
}

// Forget drops a value Memo keeps (one that must be computed again).
func (b *Bundler) Forget(kind, key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.memos, kind+"\x00"+key)
}

// build runs esbuild on the entry rel under root. When the first build
// fails on imports it could not resolve, a second one leaves those that are
// lazy requires external (they fail only if they run); a static import of
// them still fails.
func (b *Bundler) build(root, rel string) (code, smap []byte, _ *guard, _ error) {
	var lazyMissing map[string]bool
	for {
		g, err := newGuard(root, b.offer, lazyMissing)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("bundle %s: %w", rel, err)
		}
		opts := options(g.real, g.plugin())
		opts.EntryPoints = []string{filepath.Join(g.real, filepath.FromSlash(rel))}
		opts.Outfile = filepath.Join(g.real, ".beeuni-bundle.js") // never written: Write is false
		opts.Define = metaDefine
		out := api.Build(opts)
		if len(out.Errors) > 0 {
			if lazyMissing == nil {
				if lazyMissing = unresolvedImports(g.real, out.Errors); len(lazyMissing) > 0 {
					continue
				}
			}
			return nil, nil, nil, errors.New(errorLine(out.Errors, g.metas))
		}
		for _, f := range out.OutputFiles {
			switch {
			case strings.HasSuffix(f.Path, ".js"):
				code = f.Contents
			case strings.HasSuffix(f.Path, ".js.map"):
				smap = f.Contents
			}
		}
		if code == nil {
			return nil, nil, nil, fmt.Errorf("bundle %s: esbuild wrote no script", rel)
		}
		if len(g.metas) > 0 {
			code = append(code, metaHelperFor(rel)...)
			smap = withPrefixes(smap, g.metas)
		}
		return code, smap, g, nil
	}
}

// unresolvedImports are the importer\x00path pairs of esbuild's
// `Could not resolve` errors.
func unresolvedImports(workDir string, msgs []api.Message) map[string]bool {
	m := map[string]bool{}
	for _, msg := range msgs {
		if spec, ok := unresolved(msg.Text); ok && msg.Location != nil {
			m[filepath.Join(workDir, filepath.FromSlash(msg.Location.File))+"\x00"+spec] = true
		}
	}
	return m
}

// describe makes the manifest of a build from what its guard loaded: each
// input's hash, and its stat for the fast path. The key covers the entry,
// the settings and every input.
func describe(root, rel string, g *guard) (manifest, []statInput) {
	paths := make([]string, 0, len(g.files))
	for p := range g.files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	m := manifest{Inputs: make([]manifestInput, 0, len(paths))}
	stats := make([]statInput, 0, len(paths))
	parts := []string{version, "bundle", rel}
	for _, p := range paths {
		f, r := g.files[p], g.rel(p)
		m.Inputs = append(m.Inputs, manifestInput{Path: r, Hash: f.hash})
		stats = append(stats, statInput{path: filepath.Join(root, filepath.FromSlash(r)), size: f.size, mtime: f.mtime})
		parts = append(parts, r, f.hash)
	}
	m.Key = hashOf(parts...)
	return m, stats
}

func (b *store) fromStat(key string) (Result, bool) {
	b.mu.Lock()
	e, ok := b.byStat[key]
	b.mu.Unlock()
	if !ok {
		return Result{}, false
	}
	for _, in := range e.inputs {
		st, err := os.Stat(in.path)
		if err != nil || st.Size() != in.size || !st.ModTime().Equal(in.mtime) {
			return Result{}, false
		}
	}
	return e.res, true
}

// fromManifest finds a bundle made of the same contents (under any root),
// in memory or in the external cache, checking every input's hash.
func (b *store) fromManifest(root, rel, mkey string, src []byte) (Result, []statInput, bool) {
	mb, ok := b.get(b.manifests, "m:"+mkey, "m:"+mkey)
	if !ok {
		return Result{}, nil, false
	}
	var m manifest
	if json.Unmarshal(mb, &m) != nil {
		return Result{}, nil, false
	}
	stats := make([]statInput, 0, len(m.Inputs))
	for _, in := range m.Inputs {
		abs := filepath.Join(root, filepath.FromSlash(in.Path))
		st, err := os.Stat(abs)
		if err != nil {
			return Result{}, nil, false
		}
		data := src
		if in.Path != rel {
			if data, err = os.ReadFile(abs); err != nil {
				return Result{}, nil, false
			}
		}
		if fileHash(data) != in.Hash {
			return Result{}, nil, false
		}
		stats = append(stats, statInput{path: abs, size: st.Size(), mtime: st.ModTime()})
	}
	code, ok := b.get(b.codes, m.Key, m.Key)
	if !ok {
		return Result{}, nil, false
	}
	return Result{Code: code, Key: m.Key}, stats, true
}

func (b *store) rememberStat(key string, stats []statInput, res Result) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.byStat) >= maxEntries {
		clear(b.byStat)
	}
	b.byStat[key] = statEntry{inputs: stats, res: res}
}

// get looks in memory, then in the external cache (extKey).
func (b *store) get(m map[string][]byte, key, extKey string) ([]byte, bool) {
	b.mu.Lock()
	v, ok := m[key]
	b.mu.Unlock()
	if ok {
		return v, true
	}
	if b.ext == nil {
		return nil, false
	}
	if v, ok = b.ext.Get(extKey); ok {
		b.mu.Lock()
		m[key] = v
		b.mu.Unlock()
	}
	return v, ok
}

// put stores in memory and in the external cache (extKey).
func (b *store) put(m map[string][]byte, key, extKey string, v []byte) {
	b.mu.Lock()
	if len(m) >= maxEntries {
		clear(m)
	}
	m[key] = v
	b.mu.Unlock()
	if b.ext != nil {
		b.ext.Put(extKey, v)
	}
}

func loaderFor(name string) api.Loader {
	if l, ok := loaders[strings.ToLower(filepath.Ext(name))]; ok {
		return l
	}
	return api.LoaderTS
}

// fileHash is the sha256 hex of a file's bytes.
func fileHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

func hashOf(parts ...string) string {
	h := sha256.New()
	for _, p := range parts {
		fmt.Fprintf(h, "%d:%s", len(p), p)
	}
	return hex.EncodeToString(h.Sum(nil))
}
