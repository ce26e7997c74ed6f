package executor

import (
	"context"
	"os"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// seedBundles gives the bundler the controller's bundles of rec's modules
// (rec.Bundles, signed with the record, fetched like content and checked
// against its digest), so loading them runs no esbuild: each bundle is
// still used only where the laid-out files hash as its manifest says. The
// pack only spares work: one that cannot be had is logged, and the modules
// are bundled here.
func (e *Executor) seedBundles(ctx context.Context, rec *release.Record) {
	b := rec.Bundles
	if b == nil || events.CheckDigest(b.Digest) != nil {
		return
	}
	p := e.cachePath(b.Digest)
	if _, err := os.Lstat(p); err != nil {
		if err := e.fetch(ctx, b.Digest, p); err != nil {
			e.log.Info("the release's bundles could not be fetched; bundling its modules here", "release", rec.ID, "error", err)
			return
		}
	}
	pack, err := os.ReadFile(p)
	if err == nil {
		err = e.bundler.Seed(pack)
	}
	if err != nil {
		e.log.Warn("the release's bundles could not be read; bundling its modules here", "release", rec.ID, "error", err)
		return
	}
	e.cacheMetrics.seeded.Inc()
}
