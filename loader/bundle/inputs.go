package bundle

import (
	"path/filepath"
	"slices"

	"github.com/evanw/esbuild/pkg/api"
)

// Inputs lists the files bundling entry (relative to root) reads, relative
// to root and slash-separated, sorted: the entry, the files it imports and
// the package files it pulls in. It is what esbuild managed to load, even
// when the build fails on something else, so a caller can check where each
// input comes from (`beeuni validate` asks Git whether it ships them). An
// entry that cannot be read gives no input; the error is for a root that
// cannot be resolved.
func (b *Bundler) Inputs(root, entry string) ([]string, error) {
	g, err := newGuard(filepath.Clean(root), b.offer, nil)
	if err != nil {
		return nil, err
	}
	opts := options(g.real, g.plugin())
	opts.EntryPoints = []string{filepath.Join(g.real, filepath.FromSlash(entry))}
	opts.Outfile = filepath.Join(g.real, ".beeuni-bundle.js") // never written: Write is false
	opts.Define = metaDefine
	api.Build(opts)
	g.mu.Lock()
	defer g.mu.Unlock()
	out := make([]string, 0, len(g.files))
	for p := range g.files {
		out = append(out, g.rel(p))
	}
	slices.Sort(out)
	return out, nil
}
