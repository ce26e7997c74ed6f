package events_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
)

func sum(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// TestMissingContent: absent, deleted and damaged objects are missing;
// looked up one by one and, past 64 digests, through one listing.
func TestMissingContent(t *testing.T) {
	srv := natstest.RunServer(t)
	b := connect(t, srv.ClientURL(), 1)
	ctx := t.Context()
	var all []string
	for i := range 70 {
		data := []byte(fmt.Sprintf("content %d\n", i))
		d := sum(data)
		all = append(all, d)
		if err := b.PutContent(ctx, d, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
	}
	absent := sum([]byte("never stored"))
	natstest.DamageContent(t, srv.ClientURL(), all[3], nil)
	natstest.DamageContent(t, srv.ClientURL(), all[5], []byte("not content 5\n"))
	want := []string{all[3], all[5], absent}
	for _, n := range []int{3, 6, 70} { // one by one, and listed
		digests := append(slices.Clone(all[:n]), absent)
		got, err := b.MissingContent(ctx, digests)
		if err != nil {
			t.Fatal(err)
		}
		var w []string
		for _, d := range want {
			if slices.Contains(digests, d) {
				w = append(w, d)
			}
		}
		if !slices.Equal(got, w) {
			t.Errorf("%d digests: missing %v, want %v", len(digests), got, w)
		}
	}
	// PutContent replaces the damaged object and refuses bytes that are
	// not what the name says.
	if err := b.PutContent(ctx, all[5], bytes.NewReader([]byte("content 5\n"))); err != nil {
		t.Fatal(err)
	}
	if err := b.PutContent(ctx, absent, bytes.NewReader([]byte("something else"))); !errors.Is(err, events.ErrConflict) {
		t.Fatalf("PutContent of bytes that do not match = %v, want ErrConflict", err)
	}
	if got, err := b.MissingContent(ctx, []string{all[5], absent}); err != nil || !slices.Equal(got, []string{absent}) {
		t.Fatalf("after the repair: missing %v, %v; want only %s", got, err, absent)
	}
}
