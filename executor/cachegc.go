package executor

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// The content cache (DATA/cas) keeps, by this rule:
//
//   - in use, never removed: the content of the current release and of every
//     release a loaded tool set still uses (a turn pins it, a call in flight
//     runs on it, a converge lays it out);
//   - kept for replay and rollback: the content of the CacheKeep releases
//     switched to before the current one (default 1, the previous release);
//   - nothing else: content no kept release names is removed after every
//     switch, at start, and once a pinned tool set is freed.
//
// Past CacheMax (--cache-max), the content only the previous releases keep
// goes too, the oldest release's first; content in use is never removed for
// the bound (a warning says so, once). Laid-out release folders already
// follow the in-use rule (dropDir, removeStale); the collection removes any
// a failed removal left behind.
//
// Removing is safe at any point: a layout fetches what the cache lacks, and
// release folders hard-link their files, so a folder in use keeps its
// content when the cache's name of it goes.
const (
	DefaultCacheMax  = 1 << 30
	DefaultCacheKeep = 1
	keyHistory       = "history" // in bucketActive: []keptRelease
)

// keptRelease is a release switched to and the digests it names; bbolt
// keeps the current one and the CacheKeep before it, newest first.
type keptRelease struct {
	Release string   `json:"release"`
	Digests []string `json:"digests"`
}

// digests lists rec's distinct content digests. Its bundle pack is not
// one: it is read into memory (seedBundles), and a pack an earlier version
// cached goes with the next clean-up.
func digests(rec *release.Record) []string {
	out := make([]string, 0, len(rec.Entries))
	for _, en := range rec.Entries {
		out = append(out, en.Digest)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// putHistory records rec as the current release in tx, keeping the
// CacheKeep releases before it.
func (e *Executor) putHistory(tx *store.Tx, rec *release.Record) error {
	var hist []keptRelease
	if _, err := tx.Get(bucketActive, keyHistory, &hist); err != nil {
		hist = nil // unreadable history only costs refetches
	}
	hist = slices.DeleteFunc(hist, func(k keptRelease) bool { return k.Release == rec.ID })
	hist = append([]keptRelease{{Release: rec.ID, Digests: digests(rec)}}, hist...)
	if len(hist) > 1+e.cfg.CacheKeep {
		hist = hist[:1+e.cfg.CacheKeep]
	}
	return tx.Put(bucketActive, keyHistory, hist)
}

// kick asks the converge loop to collect the cache (a set was freed).
func (e *Executor) kick() {
	select {
	case e.gcKick <- struct{}{}:
	default:
	}
}

// cacheFile is one content file of the cache.
type cacheFile struct {
	digest string
	size   int64
	mod    time.Time
	rank   int // for the bound: the newest kept release naming it (0 newest)
}

// collect removes what the rule above does not keep. It runs on the
// converge loop's goroutine (or before it starts), so no layout runs
// meanwhile; the folder sweep holds dirsMu against dropDir.
func (e *Executor) collect() {
	var hist []keptRelease
	err := e.db.View(func(tx *store.Tx) error {
		_, err := tx.Get(bucketActive, keyHistory, &hist)
		return err
	})
	if err != nil {
		e.log.Warn("cache cleanup skipped: read the kept releases", "error", err)
		return
	}
	inUse := map[string]bool{}
	e.dirsMu.Lock()
	for _, ds := range e.dirDigests {
		for _, d := range ds {
			inUse[d] = true
		}
	}
	e.sweepFolders()
	e.dirsMu.Unlock()
	if len(hist) == 0 && len(inUse) == 0 {
		return // nothing is known to keep (state from an older beeuni): wait for a switch
	}
	rank := map[string]int{}
	for i, k := range hist {
		for _, d := range k.Digests {
			if i == 0 {
				inUse[d] = true // the current release, even when it could not be restored
			}
			if _, ok := rank[d]; !ok {
				rank[d] = i
			}
		}
	}
	entries, err := os.ReadDir(casDir(e.cfg.DataDir))
	if err != nil {
		e.log.Warn("cache cleanup skipped: list the cache", "error", err)
		return
	}
	var (
		total, used int64
		optional    []cacheFile // kept for replay only: the bound may remove them
		removed     int
	)
	for _, de := range entries {
		name := de.Name()
		if events.CheckDigest(name) != nil {
			continue // a fetch's temp file, or not ours
		}
		fi, err := de.Info()
		if err != nil {
			continue
		}
		r, kept := rank[name]
		switch {
		case inUse[name]:
			used += fi.Size()
		case !kept:
			if e.removeCached(name) {
				removed++
				continue
			}
		default:
			optional = append(optional, cacheFile{digest: name, size: fi.Size(), mod: fi.ModTime(), rank: r})
		}
		total += fi.Size()
	}
	limit := int64(e.cfg.CacheMax)
	if total > limit {
		slices.SortFunc(optional, func(a, b cacheFile) int {
			return cmp.Or(cmp.Compare(b.rank, a.rank), a.mod.Compare(b.mod))
		})
		for _, f := range optional {
			if total <= limit {
				break
			}
			if e.removeCached(f.digest) {
				removed++
				total -= f.size
			}
		}
	}
	switch {
	case used > limit && !e.overWarned:
		e.overWarned = true
		e.log.Warn("the content in use is over --cache-max: keeping it (it is served); raise --cache-max",
			"cache_bytes", total, "in_use_bytes", used, "cache_max", limit)
	case used <= limit:
		e.overWarned = false
	}
	e.cacheMetrics.bytes.Set(float64(total))
	e.cacheMetrics.removed.Add(float64(removed))
	if removed > 0 {
		e.log.Info("cache cleaned", "removed", removed, "cache_bytes", total, "releases_kept", len(hist))
	}
}

// removeCached deletes digest's cache file; a file already gone counts.
func (e *Executor) removeCached(digest string) bool {
	err := os.Remove(e.cachePath(digest))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		e.log.Warn("remove cached content", "digest", digest, "error", err)
		return false
	}
	return err == nil
}

// sweepFolders removes release folders no loaded set uses (a removal that
// failed before) and the spare folder's files, which would otherwise hold
// removed content on disk through their hard links. The caller holds
// dirsMu.
func (e *Executor) sweepFolders() {
	entries, err := os.ReadDir(releasesDir(e.cfg.DataDir))
	if err == nil {
		for _, d := range entries {
			p := filepath.Join(releasesDir(e.cfg.DataDir), d.Name())
			if _, ok := e.dirs[p]; !ok {
				if err := removeTree(p); err != nil {
					e.log.Warn("remove an old release folder", "dir", p, "error", err)
				}
			}
		}
	}
	// The spare keeps its folders: reusing them is what it is for.
	_ = filepath.WalkDir(spareDir(e.cfg.DataDir), func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return nil
		case d.IsDir():
			_ = os.Chmod(p, 0o755) // laid-out folders are read-only
		default:
			_ = os.Remove(p)
		}
		return nil
	})
}

// cacheMetrics are the content cache's collectors.
type cacheMetrics struct {
	bytes   prometheus.Gauge
	removed prometheus.Counter
	seeded  prometheus.Counter
	built   prometheus.CounterFunc
}

// newCacheMetrics makes them; built counts the bundler's esbuild runs.
func newCacheMetrics(reg prometheus.Registerer, built func() float64) (*cacheMetrics, error) {
	m := &cacheMetrics{
		bytes: prometheus.NewGauge(prometheus.GaugeOpts{
			Name: "beeuni_executor_cache_bytes",
			Help: "Bytes of file content in the executor's content cache (as of its last cleanup, plus what was fetched since).",
		}),
		removed: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "beeuni_executor_cache_removed_total",
			Help: "Content files removed from the cache: named by no kept release, or over --cache-max.",
		}),
		seeded: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "beeuni_executor_bundle_packs_seeded_total",
			Help: "Releases whose modules were loaded from the controller's bundles (the release's signed bundle pack).",
		}),
		built: prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "beeuni_executor_bundles_built_total",
			Help: "Modules this executor ran esbuild for: neither its bundle cache nor the release's bundle pack had them.",
		}, built),
	}
	for _, c := range []prometheus.Collector{m.bytes, m.removed, m.seeded, m.built} {
		if err := reg.Register(c); err != nil {
			return nil, fmt.Errorf("register executor cache metrics: %w", err)
		}
	}
	return m, nil
}
