package events_test

import (
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events"
)

// TestMaxConsumersPerStream: the server's default stops the 1,001st watch
// of the desired bucket (one consumer per executor); -1 lifts it.
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
		{"server default", 0, 1001, "maximum consumers limit reached"},
		{"lifted", -1, 1001, ""},
		{"set", 10, 11, "maximum consumers limit reached"},
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
