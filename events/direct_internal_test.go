package events

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// leaderLastMsg, the leader's get behind a direct "not found", finds what
// is stored and reports what is not as ErrMsgNotFound.
func TestLeaderLastMsg(t *testing.T) {
	e, err := StartEmbedded(EmbeddedOptions{Port: -1, StoreDir: t.TempDir(), ServerName: "test"})
	if err != nil {
		t.Fatal(err)
	}
	defer e.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	b, err := Connect(ctx, e.ClientURL(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if err := b.Ensure(ctx, 1); err != nil {
		t.Fatal(err)
	}
	rec := []byte("a record")
	if err := b.PutRelease(ctx, "demo", "000001-a", rec); err != nil {
		t.Fatal(err)
	}
	meta := func(name string) string {
		return "$O." + BucketReleases + ".M." + base64.URLEncoding.EncodeToString([]byte(name))
	}
	m, err := b.leaderLastMsg(ctx, "OBJ_"+BucketReleases, meta("demo/000001-a"))
	if err != nil {
		t.Fatal(err)
	}
	var info jetstream.ObjectInfo
	if err := json.Unmarshal(m.Data, &info); err != nil || info.Name != "demo/000001-a" || info.Size != uint64(len(rec)) || m.Sequence == 0 {
		t.Fatalf("leader's meta: %+v (seq %d), %v", info, m.Sequence, err)
	}
	// Read without a context deadline: leaderGetTimeout bounds it.
	if _, err := b.leaderLastMsg(context.Background(), "OBJ_"+BucketReleases, meta("demo/000002-b")); !errors.Is(err, jetstream.ErrMsgNotFound) {
		t.Fatalf("absent meta: %v, want ErrMsgNotFound", err)
	}
	if got, err := b.GetRelease(ctx, "demo", "000001-a"); err != nil || !bytes.Equal(got, rec) {
		t.Fatalf("GetRelease = %q, %v", got, err)
	}
}
