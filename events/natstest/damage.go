package natstest

import (
	"bytes"
	"context"
	"testing"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/beeuni/beeuni/events"
)

// DamageContent stores data under digest in the content store with no
// check, or deletes the object when data is nil: the store damaged the way
// a disk fault or a hand with NATS credentials would, for tests that prove
// the fleet heals.
func DamageContent(tb testing.TB, url, digest string, data []byte) {
	tb.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		tb.Fatalf("damage content: connect to %s: %v", url, err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		tb.Fatal(err)
	}
	ctx := context.Background()
	os, err := js.ObjectStore(ctx, events.BucketContent)
	if err != nil {
		tb.Fatalf("damage content: open %s: %v", events.BucketContent, err)
	}
	if data == nil {
		err = os.Delete(ctx, digest)
	} else {
		_, err = os.Put(ctx, jetstream.ObjectMeta{Name: digest}, bytes.NewReader(data))
	}
	if err != nil {
		tb.Fatalf("damage content %s: %v", digest, err)
	}
}
