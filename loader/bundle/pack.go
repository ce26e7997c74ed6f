package bundle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// packVersion is the layout of a pack's JSON; a pack of another layout is
// refused by Seed (the reader bundles itself then).
const packVersion = 1

// packJSON is a pack's encoding: the cache entries of its bundles under
// their cache keys ("m:<manifest key>", "s:<result key>" for source maps,
// "<result key>" for code), and what evaluating a bundle told under its
// result key (readers of before metas ignore them). JSON sorts map keys,
// so the same bundles make the same bytes, and so the same content digest.
type packJSON struct {
	V       int                        `json:"v"`
	Entries map[string][]byte          `json:"entries"`
	Metas   map[string]json.RawMessage `json:"metas,omitempty"`
}

// Pack bundles each of entries (relative to root, as for Bundle) and
// returns the cache entries of their builds: what a Bundler offering the
// same modules needs to find those bundles again without esbuild (Seed).
// Manifests name every input with its hash, and a seeded bundle is used
// only where the files it was made of hash the same, so a pack cannot make
// a reader run a bundle of other sources. Entries that fail to bundle are
// left out: their loads fail and are reported where they run. The result
// is nil when no entry bundled.
//
// metas (by entry, as given) are what evaluating each entry told (the JS
// host's description of its tool, JSON); each is packed under its
// bundle's key, and kept, so a later Pack of the same bundle ships it
// too. A reader seeded with the pack finds it with Meta.
func (b *Bundler) Pack(root string, entries []string, metas map[string][]byte) ([]byte, error) {
	p := packJSON{V: packVersion, Entries: map[string][]byte{}, Metas: map[string]json.RawMessage{}}
	for _, entry := range entries {
		res, err := b.Bundle(root, entry)
		if err != nil {
			continue
		}
		rel := filepath.ToSlash(filepath.Clean(filepath.FromSlash(entry)))
		src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		mkey := "m:" + hashOf(version, "manifest", b.offer.digest, rel, string(src))
		m, ok1 := b.get(b.manifests, mkey, mkey)
		smap, ok2 := b.get(b.maps, res.Key, "s:"+res.Key)
		if !ok1 || !ok2 {
			continue // dropped from memory meanwhile: the reader bundles it
		}
		p.Entries[mkey], p.Entries["s:"+res.Key], p.Entries[res.Key] = m, smap, res.Code
		if meta, ok := metas[entry]; ok && json.Valid(meta) {
			b.setMeta(res.Key, meta)
		}
		if meta, ok := b.Meta(res.Key); ok {
			p.Metas[res.Key] = meta
		}
	}
	if len(p.Entries) == 0 {
		return nil, nil
	}
	out, err := json.Marshal(p)
	if err != nil {
		return nil, fmt.Errorf("encode the bundles of %s: %w", root, err)
	}
	return out, nil
}

// Seed adds the bundles of a pack to b's caches, memory and external, so
// Bundle finds them as if b had made them. Only a pack from a trusted
// source (a signed release's) may be seeded: its code is run as it is.
func (b *Bundler) Seed(pack []byte) error {
	var p packJSON
	if err := json.Unmarshal(pack, &p); err != nil {
		return fmt.Errorf("read a bundle pack: %w", err)
	}
	if p.V != packVersion {
		return fmt.Errorf("read a bundle pack: layout %d, this beeuni reads %d", p.V, packVersion)
	}
	for k, v := range p.Entries {
		m, key := b.codes, k
		switch {
		case strings.HasPrefix(k, "m:"):
			m = b.manifests
		case strings.HasPrefix(k, "s:"):
			m, key = b.maps, k[2:]
		}
		if _, ok := b.get(m, key, k); !ok {
			b.put(m, key, k, v)
		}
	}
	for k, v := range p.Metas {
		if _, ok := p.Entries[k]; ok {
			b.setMeta(k, v)
		}
	}
	return nil
}

// Meta is what evaluating the bundle of result key told, as a pack
// shipped it or Pack was given it. It is kept with the bundles, in the
// external cache too ("x:<result key>"), so a reader restarted loads the
// module as it did before the restart.
func (b *Bundler) Meta(key string) ([]byte, bool) {
	return b.get(b.metas, key, "x:"+key)
}

func (b *Bundler) setMeta(key string, meta []byte) {
	if old, ok := b.get(b.metas, key, "x:"+key); ok && bytes.Equal(old, meta) {
		return
	}
	b.put(b.metas, key, "x:"+key, slices.Clone(meta))
}
