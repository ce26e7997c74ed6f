package executor

import (
	"bytes"
	"context"
	"fmt"
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
//
// The pack is read into memory, not into the content cache: seeding puts
// its bundles in the bundler's bbolt cache, written with the switch, so a
// file of it would only cost a new inode and an fsync per release (a pack
// cached by an earlier version is still read).
func (e *Executor) seedBundles(ctx context.Context, rec *release.Record) {
	b := rec.Bundles
	if b == nil || events.CheckDigest(b.Digest) != nil {
		return
	}
	pack, err := os.ReadFile(e.cachePath(b.Digest))
	if err != nil {
		buf := &boundedBuffer{max: b.Size}
		if err := FetchContent(ctx, e.bus.Load(), b.Digest, buf); err != nil {
			e.log.Info("the release's bundles could not be fetched; bundling its modules here", "release", rec.ID, "error", err)
			return
		}
		pack = buf.Bytes()
	}
	if err := e.bundler.Seed(pack); err != nil {
		e.log.Warn("the release's bundles could not be read; bundling its modules here", "release", rec.ID, "error", err)
		return
	}
	e.cacheMetrics.seeded.Inc()
}

// boundedBuffer refuses to grow past max bytes: the signed record says how
// large the pack is, and a store serving more is not believed.
type boundedBuffer struct {
	bytes.Buffer
	max int64
}

func (b *boundedBuffer) Write(p []byte) (int, error) {
	if int64(b.Len()+len(p)) > b.max {
		return 0, fmt.Errorf("the bundle pack is larger than the %d bytes its record says", b.max)
	}
	return b.Buffer.Write(p)
}
