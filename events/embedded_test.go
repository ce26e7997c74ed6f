package events_test

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events"
)

// TestMaxConsumersPerStream: the server's default limit (1,000 consumers a
// stream) would stop the 1,001st watch of the desired bucket, one consumer
// per executor; beeuni's streams carry a limit of their own, so it does not.
func TestMaxConsumersPerStream(t *testing.T) {
	if testing.Short() {
		t.Skip("creates a thousand consumers")
	}
	tests := []struct {
		name    string
		max     int
		watches int
		wantErr string
	}{
		// Ensure gives beeuni's streams a limit of their own
		// (FleetMaxConsumers), which the server's default does not cap.
		{"server default", 0, 1001, ""},
		{"lifted", -1, 1001, ""},
		{"server default of 10", 10, 11, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			e, err := events.StartEmbedded(events.EmbeddedOptions{Port: -1, StoreDir: t.TempDir(), ServerName: "test", MaxConsumersPerStream: tc.max})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(e.Shutdown)
			b := connect(t, e.ClientURL(), 1)
			ctx := testCtx(t)
			kv, err := b.JetStream().KeyValue(ctx, events.BucketDesired)
			if err != nil {
				t.Fatal(err)
			}
			info, err := b.JetStream().Stream(ctx, "KV_"+events.BucketDesired)
			if err != nil || info.CachedInfo().Config.MaxConsumers != events.FleetMaxConsumers {
				t.Fatalf("the desired stream's consumer limit: %v", err)
			}
			var got error
			for i := range tc.watches {
				w, err := kv.Watch(ctx, "p")
				if err != nil {
					got = err
					if i != tc.watches-1 {
						t.Fatalf("watch %d of %d failed: %v", i+1, tc.watches, err)
					}
					break
				}
				t.Cleanup(func() { _ = w.Stop() })
			}
			if (tc.wantErr == "") != (got == nil) || (got != nil && !strings.Contains(got.Error(), tc.wantErr)) {
				t.Fatalf("watch %d: %v, want %q", tc.watches, got, tc.wantErr)
			}
		})
	}
}
