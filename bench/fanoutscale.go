package bench

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/beeuni/beeuni/executor"
)

// fleetFiles is the fleet scenario's project at version v: the greet tool,
// twenty files that never change and two that change with it, so each
// release changes three files.
func fleetFiles(v int) map[string]string {
	files := greetFiles(v)
	for i := range 20 {
		files[fmt.Sprintf("data/static-%02d.txt", i)] = strings.Repeat(fmt.Sprintf("static file %d\n", i), 150)
	}
	for i := range 2 {
		files[fmt.Sprintf("data/changed-%d.txt", i)] = strings.Repeat(fmt.Sprintf("changed file %d, version %d\n", i, v), 100)
	}
	return files
}

// fleetBackends are the NATS set-ups the fleet scenario runs on.
var fleetBackends = []struct {
	name  string
	nodes int
}{{"single server", 1}, {"3-node cluster", 3}}

// fleetTimeout bounds one fan-out; a thousand subscribers on a loaded
// 2-core machine take seconds, not minutes.
const fleetTimeout = 5 * time.Minute

// joinBatch is how many subscribers join at once before the timed rounds.
const joinBatch = 100

func (r *run) fleetScale(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioFleet, Title: "controller's publish to N light subscribers holding the verified release",
		Baselines: []string{"bare NATS KV put to N watchers"}}
	if len(r.sizes.Subscribers) == 0 {
		return nil, fmt.Errorf("no subscriber counts in Sizes.Subscribers: give at least one")
	}
	maxN := slices.Max(r.sizes.Subscribers)
	// Each subscriber holds its socket and the server's end of it, in this
	// process; the nodes, the controller and the Go runtime need some more.
	limit, err := raiseFileLimit(uint64(2*maxN + 256))
	if err != nil {
		return nil, err
	}
	for _, b := range fleetBackends {
		if err := r.fleetOn(ctx, sc, b.name, b.nodes, maxN); err != nil {
			return nil, fmt.Errorf("%s: %w", b.name, err)
		}
	}
	if maxN >= 1000 {
		sc.target("1,000 subscribers measured on the embedded server and a 3-node cluster", true,
			"%d subscribers on each, see the rows", maxN)
	} else {
		sc.targetSkipped("1,000 subscribers measured on the embedded server and a 3-node cluster",
			fmt.Sprintf("not run at these sizes (up to %d; 1,000 run without --quick)", maxN))
	}
	sc.note("all in this process: NATS (one embedded server, then a 3-node in-process cluster with replicas 3, subscribers spread round-robin over the nodes), the controller on a go-git repository, N subscribers each with its own NATS connection")
	sc.note("a subscriber does an executor's work before the layout with the executor's own functions (executor.VerifyDesired, MissingDigests, FetchContent): watch the desired key, verify the signed pointer and record (ed25519, trust key) and the record's digest, fetch the content objects it lacks and check their SHA-256; no files, no JS host")
	sc.note("each round commits a release that changes 3 of %d files; times run from the controller signing the pointer (its `at`, just before the KV put) until each subscriber holds the verified release; last = the slowest subscriber", len(fleetFiles(0)))
	sc.note("hook to last: from the merge hook's POST (so with the controller's build, validation and upload) to the last subscriber; it has no baseline")
	sc.note("baseline: one bare KV put on the same servers and bucket until every subscriber's connection has it (watch callbacks)")
	sc.note("open-file limit %d (each subscriber uses two descriptors in this process: its socket and the server's)", limit)
	return sc, nil
}

// fleetOn measures every size on one NATS set-up of nodes nodes.
func (r *run) fleetOn(ctx context.Context, sc *Scenario, name string, nodes, maxN int) error {
	dir, err := r.scratch("fleet")
	if err != nil {
		return err
	}
	version := 0
	f, err := startFleetOn(ctx, dir, fleetFiles(version), nodes, "")
	if err != nil {
		return err
	}
	defer f.close()
	var urls []string
	for _, n := range f.nodes {
		urls = append(urls, n.ClientURL())
	}
	subs := newSubscribers(ctx, benchProject, f.key.Public().(ed25519.PublicKey), urls, maxN)
	defer subs.close() // before the fleet closes: deferred last
	fo := &fanout{}
	var wg sync.WaitGroup
	wctx, stop := context.WithCancel(ctx)
	defer wg.Wait()
	defer stop()

	var firstN int
	var firstRSS float64
	for _, n := range r.sizes.Subscribers {
		from := len(subs.subs)
		r.progress("fleet: %s, connecting %d more subscribers (%d in all)", name, n-from, n)
		start := time.Now()
		// In batches: the timed figure is a release reaching a joined
		// fleet, not a thousand cold starts at once.
		for len(subs.subs) < n {
			batch := len(subs.subs)
			if err := subs.add(min(joinBatch, n-batch)); err != nil {
				return err
			}
			if _, err := subs.wait(ctx, f.ctl.Status().Desired, batch, fleetTimeout); err != nil {
				return fmt.Errorf("joining: %w", err)
			}
			for _, s := range subs.subs[batch:] {
				fo.watch(wctx, &wg, s.bus)
			}
			// Let the new watchers get the current value before timing.
			if _, err := fo.put(ctx, f.bus, -1); err != nil {
				return fmt.Errorf("joining the baseline's watchers: %w", err)
			}
		}
		joined := time.Since(start)
		var cols [4][]float64 // p50, p90, p99, last
		var base [4][]float64
		var total []float64
		retried := subs.retries.Load()
		for round := range r.cfg.Rounds {
			r.progress("fleet: %s, %d subscribers, round %d/%d", name, n, round+1, r.cfg.Rounds)
			version++
			took, hookToLast, err := fleetRelease(ctx, f, subs, fleetFiles(version))
			if err != nil {
				return err
			}
			for i, v := range quantiles(took) {
				cols[i] = append(cols[i], v)
			}
			total = append(total, ms(hookToLast))
			b, err := fo.put(ctx, f.bus, round)
			if err != nil {
				return err
			}
			for i, v := range quantiles(b) {
				base[i] = append(base[i], v)
			}
		}
		label := fmt.Sprintf("%s, %d subscribers", name, n)
		for i, m := range []string{"p50 ms", "p90 ms", "p99 ms", "last ms"} {
			sc.row(label, m, "lower", cols[i], base[i])
		}
		sc.row(label, "hook to last ms", "lower", total).skip(0, "no baseline: it includes the controller's build")
		pm, _ := procMem(os.Getpid())
		rss := pm.rss
		var mem runtime.MemStats
		runtime.ReadMemStats(&mem)
		perSub := ""
		if firstN > 0 && n > firstN && rss > firstRSS {
			perSub = fmt.Sprintf(", about %.0f KB more per added subscriber", (rss-firstRSS)*1024/float64(n-firstN))
		} else {
			firstN, firstRSS = n, rss
		}
		reads := subs.objectReads()
		sc.note("%s, %d subscribers: %d object reads with message gets, %d with a consumer (large objects, or a direct read that did not verify), joining included",
			name, n, reads.Direct, reads.Consumer)
		sc.note("%s: %d subscribers joined (connect, watch, verify, fetch all %d files; in batches of %d, each with the baseline's watch) in %s; %d tries again in the timed rounds (a failure that may pass, retried after the executor's delay of %s); process RSS %.0f MB, Go heap in use %.0f MB, %d goroutines%s",
			name, n, len(fleetFiles(0)), joinBatch, joined.Round(time.Millisecond), subs.retries.Load()-retried, executor.RetryDelay(0),
			rss, float64(mem.HeapInuse)/(1<<20), runtime.NumGoroutine(), perSub)
	}
	return nil
}

// fleetRelease commits files, calls the merge hook and returns how long
// after the controller signed the pointer each subscriber held the
// release, and the time from the hook's POST to the last of them.
func fleetRelease(ctx context.Context, f *fleet, subs *subscribers, files map[string]string) ([]time.Duration, time.Duration, error) {
	before := f.ctl.Status().Desired
	commit, err := f.commit(files)
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	if err := f.hook(ctx, commit); err != nil {
		return nil, 0, err
	}
	var want string
	if !waitUntil(ctx, 2*time.Minute, time.Millisecond, func() bool {
		want = f.ctl.Status().Desired
		return want != before
	}) {
		return nil, 0, fmt.Errorf("the controller published no new release within two minutes (status %+v)%s", f.ctl.Status(), f.stopped())
	}
	took, err := subs.wait(ctx, want, 0, fleetTimeout)
	return took, time.Since(start), err
}

// quantiles returns the p50, p90, p99 and maximum of durations, in ms.
func quantiles(ds []time.Duration) [4]float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return [4]float64{ms(percentile(s, 0.5)), ms(percentile(s, 0.9)), ms(percentile(s, 0.99)), ms(s[len(s)-1])}
}
