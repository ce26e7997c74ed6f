package bench

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

func TestFleetScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS (one server and a 3-node cluster), a controller and subscribers")
	}
	sizes := tinySizes
	sizes.Subscribers = []int{2, 5}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, []string{ScenarioFleet}, Config{Rounds: 2, Quick: true, Sizes: sizes, Progress: testWriter{t}})
	if err != nil {
		t.Fatal(err)
	}
	sc := rep.Scenarios[0]
	metrics := []string{"p50 ms", "p90 ms", "p99 ms", "last ms", "hook to last ms"}
	if got, want := len(sc.Rows), len(fleetBackends)*len(sizes.Subscribers)*len(metrics); got != want {
		t.Fatalf("%d rows, want %d", got, want)
	}
	for i := 0; i < len(sc.Rows); i += len(metrics) {
		rows := sc.Rows[i : i+len(metrics)]
		for round := range 2 {
			var v []float64
			for j, r := range rows {
				if r.Metric != metrics[j] {
					t.Fatalf("%s: metric %q, want %q", r.Case, r.Metric, metrics[j])
				}
				v = append(v, r.Beeuni.Samples[round])
			}
			// Quantiles grow, and the slowest subscriber held the release
			// after the hook's POST and the controller's signing.
			if !slices.IsSorted(v) || v[0] <= 0 {
				t.Errorf("%s round %d: %v are not positive and ascending", rows[0].Case, round, v)
			}
		}
		if rows[0].Baselines[0].Stat == nil || rows[4].Baselines[0].Skipped == "" {
			t.Errorf("%s: want the bare put beside the quantiles and no baseline for hook to last: %+v %+v", rows[0].Case, rows[0].Baselines, rows[4].Baselines)
		}
	}
	joined := strings.Join(sc.Notes, "\n")
	for _, want := range []string{"single server: 5 subscribers joined", "3-node cluster: 5 subscribers joined", "open-file limit"} {
		if !strings.Contains(joined, want) {
			t.Errorf("notes lack %q:\n%s", want, joined)
		}
	}
}

func digestOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// TestSubscribersVerify runs light subscribers against a real controller's
// releases: intact ones are held by every subscriber with exactly their
// content; a content object replaced in NATS, or a pointer signed by
// another key, fails the wait.
func TestSubscribersVerify(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS and a controller")
	}
	_, otherKey, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		tamper  bool               // replace one content object before the subscribers join
		trust   ed25519.PrivateKey // nil: the controller's key
		wantErr error
		wantMsg string
	}{
		{name: "intact"},
		{name: "content object replaced", tamper: true, wantMsg: "NATS holds a damaged copy"},
		{name: "pointer signed by another key", trust: otherKey, wantErr: release.ErrBadSignature},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			f, err := startFleetOn(ctx, t.TempDir(), fleetFiles(0), 1, "")
			if err != nil {
				t.Fatal(err)
			}
			defer f.close()
			if tc.tamper {
				// Stored with the object store's own digest of the new
				// bytes: only the subscriber's SHA-256 check can see it.
				obj, err := f.bus.JetStream().ObjectStore(ctx, events.BucketContent)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := obj.PutBytes(ctx, digestOf(fleetFiles(0)["data/static-07.txt"]), []byte("tampered\n")); err != nil {
					t.Fatal(err)
				}
			}
			trust := f.key
			if tc.trust != nil {
				trust = tc.trust
			}
			subs := newSubscribers(ctx, benchProject, trust.Public().(ed25519.PublicKey), []string{f.nats.ClientURL()}, 5)
			defer subs.close()
			if err := subs.add(5); err != nil {
				t.Fatal(err)
			}
			_, err = subs.wait(ctx, f.ctl.Status().Desired, 0, 30*time.Second)
			switch {
			case tc.wantErr != nil || tc.wantMsg != "":
				if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) || !strings.Contains(err.Error(), tc.wantMsg) {
					t.Fatalf("wait = %v, want an error (%v) naming %q", err, tc.wantErr, tc.wantMsg)
				}
				return
			case err != nil:
				t.Fatal(err)
			}
			// A release changing three files: each subscriber holds the
			// verified new content, and only the new release's.
			took, _, err := fleetRelease(ctx, f, subs, fleetFiles(1))
			if err != nil {
				t.Fatal(err)
			}
			if len(took) != 5 {
				t.Fatalf("%d subscribers held the release, want 5", len(took))
			}
			subs.close() // their state is read below, after the watches end
			want := map[string]bool{}
			for _, c := range fleetFiles(1) {
				want[digestOf(c)] = true
			}
			for i, s := range subs.subs {
				if len(s.have) != len(want) {
					t.Errorf("subscriber %d holds %d digests, want %d", i, len(s.have), len(want))
				}
				for d := range want {
					if !s.have[d] {
						t.Errorf("subscriber %d lacks %s", i, d)
					}
				}
			}
		})
	}
}

// TestStartNATSCluster: the cluster helper gives three nodes whose buckets
// take three replicas.
func TestStartNATSCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a 3-node NATS cluster")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	nodes, err := startNATS(ctx, filepath.Join(t.TempDir(), "nats"), 3)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		for _, n := range nodes {
			n.Shutdown()
		}
	}()
	bus, err := events.Connect(ctx, nodes[2].ClientURL(), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	if err := bus.Ensure(ctx, 3); err != nil {
		t.Fatalf("replicas 3 on the cluster: %v", err)
	}
}
