package executor

import (
	"testing"

	"github.com/beeuni/beeuni/events"
)

// The controller ships its bundles with the release: an executor loads
// every module of it, and of the next release, without running esbuild.
// An executor that cannot fetch the pack bundles the modules itself and
// serves the release all the same.
func TestConvergeShippedBundles(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	if f.first.Bundles == nil {
		t.Fatal("the first release names no bundle pack")
	}
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	n.waitConverged(f.first.ID)
	n.expectAnswer("", "v1", f.first.ID)
	rec := f.release("v2", cproject("v2"))
	if rec.Bundles == nil || rec.Bundles.Digest == f.first.Bundles.Digest {
		t.Fatalf("release v2's bundles %+v: want a new pack (answer.ts changed)", rec.Bundles)
	}
	n.waitConverged(rec.ID)
	n.expectAnswer("", "v2", rec.ID)
	if got := n.metric("beeuni_executor_bundles_built_total"); got != 0 {
		t.Errorf("the executor ran esbuild %v times, want 0: every module was in the packs", got)
	}
	if got := n.metric("beeuni_executor_bundle_packs_seeded_total"); got != 2 {
		t.Errorf("%v packs seeded, want 2", got)
	}

	// The pack lost from NATS: a new executor bundles all three modules.
	os, err := f.Bus.JetStream().ObjectStore(t.Context(), events.BucketContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Delete(t.Context(), rec.Bundles.Digest); err != nil {
		t.Fatal(err)
	}
	n2 := startNode(t, "e2", t.TempDir(), f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	n2.waitConverged(rec.ID)
	n2.expectAnswer("", "v2", rec.ID)
	if got := n2.metric("beeuni_executor_bundles_built_total"); got != 3 {
		t.Errorf("without the pack the executor ran esbuild %v times, want 3", got)
	}
}

// TestBoundedBuffer: a pack served larger than its signed record says is
// refused, not read into memory whole.
func TestBoundedBuffer(t *testing.T) {
	for _, tc := range []struct {
		max    int64
		writes []string
		ok     bool
	}{
		{5, []string{"ab", "cde"}, true},
		{5, []string{"abc", "def"}, false},
		{0, []string{"a"}, false},
		{0, nil, true},
	} {
		b := &boundedBuffer{max: tc.max}
		var err error
		for _, w := range tc.writes {
			if _, err = b.Write([]byte(w)); err != nil {
				break
			}
		}
		if (err == nil) != tc.ok || int64(b.Len()) > tc.max {
			t.Errorf("max %d, writes %q: err %v, %d bytes held", tc.max, tc.writes, err, b.Len())
		}
	}
}
