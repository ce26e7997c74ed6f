package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// cached lists the digests in the executor's content cache.
func (n *node) cachedDigests() []string {
	n.tb.Helper()
	entries, err := os.ReadDir(casDir(n.dataDir))
	if err != nil {
		n.tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if events.CheckDigest(e.Name()) == nil {
			out = append(out, e.Name())
		}
	}
	slices.Sort(out)
	return out
}

// contentOf is the distinct digests the records name, sorted.
func contentOf(recs ...*release.Record) []string {
	var out []string
	for _, r := range recs {
		out = append(out, digests(r)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// sizeOf is the bytes of the distinct content the records name (their
// bundle packs are not cached).
func sizeOf(recs ...*release.Record) uint64 {
	sizes := map[string]int64{}
	for _, r := range recs {
		for _, e := range r.Entries {
			sizes[e.Digest] = e.Size
		}
	}
	var n uint64
	for s := range maps.Values(sizes) {
		n += uint64(s)
	}
	return n
}

// waitCache waits until the cache holds exactly the content of recs.
func (n *node) waitCache(what string, recs ...*release.Record) {
	n.tb.Helper()
	want := contentOf(recs...)
	waitFor(n.tb, convergeWait, func() error {
		if got := n.cachedDigests(); !slices.Equal(got, want) {
			return fmt.Errorf("cache holds %d digests (%v), want %d, the content of %s (%v)", len(got), got, len(want), what, want)
		}
		return nil
	})
}

// metric reads one unlabelled sample from /metrics.
func (n *node) metric(name string) float64 {
	n.tb.Helper()
	body := string(n.mustDo("GET", "/metrics", "").body)
	m := regexp.MustCompile(`(?m)^` + name + ` (\S+)$`).FindStringSubmatch(body)
	if m == nil {
		n.tb.Fatalf("no sample %s in /metrics:\n%s", name, body)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		n.tb.Fatal(err)
	}
	return v
}

// After several releases that change files the cache holds the current
// and the previous release's content only; a replay of a release whose
// content was removed fetches it again; a restart after the cache lost
// even the current content serves from the laid-out folder.
func TestCacheKeepsCurrentAndPrevious(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	n := startNode(t, "e1", data, f.natsURL)
	n.waitConverged(f.first.ID)
	recs := []*release.Record{f.first}
	for i := 2; i <= 4; i++ {
		rec := f.release(fmt.Sprintf("v%d", i), cproject(fmt.Sprintf("v%d", i)))
		recs = append(recs, rec)
		n.waitConverged(rec.ID)
		n.waitCache("the current and the previous release", recs[i-1], recs[i-2])
	}
	r1, r3, r4 := recs[0], recs[2], recs[3]
	n.waitDirs(r4.ID)
	waitFor(t, convergeWait, func() error {
		// answer.ts and wait.ts of v1 and of v2
		bytes, removed := n.metric("beeuni_executor_cache_bytes"), n.metric("beeuni_executor_cache_removed_total")
		if bytes != float64(sizeOf(r4, r3)) || removed != 4 {
			return fmt.Errorf("cache metrics: %v bytes, %v removed; want %d bytes, 6 removed", bytes, removed, sizeOf(r4, r3))
		}
		return nil
	})

	body, _ := json.Marshal(controller.ReplayRequest{Release: r1.ID})
	if _, err := f.Bus.Control(context.Background(), testProject, "replay", body); err != nil {
		t.Fatal(err)
	}
	n.waitConverged(r1.ID)
	n.expectAnswer("", "v1", r1.ID)
	n.waitCache("the replayed release and the one before it", r1, r4)

	// The worst an interrupted cleanup could leave: no cache at all, and a
	// partial fetch.
	n.stop()
	if err := os.RemoveAll(casDir(data)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(casDir(data), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(casDir(data)+"/.fetch-123", []byte("half"), 0o644); err != nil {
		t.Fatal(err)
	}
	n2 := startNode(t, "e1", data, f.natsURL)
	n2.waitConverged(r1.ID)
	n2.expectAnswer("", "v1", r1.ID)
	next := f.release("v5", cproject("v5"))
	n2.waitConverged(next.ID)
	n2.expectAnswer("", "v5", next.ID)
	n2.waitCache("v5 only: v1's content was not fetched again", next)
}

// Past --cache-max the content only previous releases keep goes, the
// oldest release's first. The bound is set at a restart, whose cleanup
// has no previous tool set in use: the order alone decides.
func TestCacheBoundRemovesOldestFirst(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	keep2 := func(max uint64) func(*Config) { return func(c *Config) { c.CacheKeep = 2; c.CacheMax = max } }
	n := startNode(t, "e1", data, f.natsURL, keep2(0))
	n.waitConverged(f.first.ID)
	var r2, r3, r4 *release.Record
	for i, r := range []**release.Record{&r2, &r3, &r4} {
		*r = f.release(fmt.Sprintf("v%d", i+2), cproject(fmt.Sprintf("v%d", i+2)))
		n.waitConverged((*r).ID)
	}
	n.waitCache("the current and two previous releases", r4, r3, r2)
	n.stop()

	bound := sizeOf(r4, r3)
	if sizeOf(r4, r2) != bound || sizeOf(r4, r3, r2) <= bound {
		t.Fatalf("sizes: r4+r3 %d, r4+r2 %d, r4+r3+r2 %d: the test's releases do not test the order", bound, sizeOf(r4, r2), sizeOf(r4, r3, r2))
	}
	n = startNode(t, "e1", data, f.natsURL, keep2(bound))
	n.waitConverged(r4.ID)
	n.waitCache("r4 and r3: r2, the oldest, went for the bound", r4, r3)
	if strings.Contains(n.logs.String(), "over --cache-max") {
		t.Errorf("warned about the content in use, which fits:\n%s", n.logs.String())
	}
}

// Content a turn still uses stays, whatever the bound, until the turn
// ends; the warning that the content in use is over the bound comes once.
func TestCacheKeepsPinnedRelease(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.CacheKeep = -1; c.CacheMax = 1 })
	r1 := f.first
	n.waitConverged(r1.ID)
	if tr := n.turn("POST", "a"); tr.Release != r1.ID {
		t.Fatalf("begin turn a: %+v", tr)
	}
	f.release("v2", cproject("v2"))
	r3 := f.release("v3", cproject("v3"))
	n.waitConverged(r3.ID)
	n.waitCache("the pinned and the current release", r1, r3)
	n.waitDirs(r1.ID, r3.ID)
	n.expectAnswer("a", "v1", r1.ID)
	n.expectAnswer("", "v3", r3.ID)
	if got := strings.Count(n.logs.String(), "the content in use is over --cache-max"); got != 1 {
		t.Errorf("warned %d times that the content in use is over the bound, want once:\n%s", got, n.logs.String())
	}

	n.turn("DELETE", "a")
	n.waitCache("the current release once the turn ended", r3)
	n.waitDirs(r3.ID)
	n.expectAnswer("a", "v3", r3.ID)
}
