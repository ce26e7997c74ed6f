package events_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
)

// randomBytes is n bytes that compress to nothing, so chunk counts are n
// over the chunk size.
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

func putContent(t *testing.T, b *events.Bus, data []byte) string {
	t.Helper()
	d := sum(data)
	if err := b.PutContent(testCtx(t), d, bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}
	return d
}

func getContent(ctx context.Context, b *events.Bus, d string) ([]byte, error) {
	var buf bytes.Buffer
	err := b.GetContent(ctx, d, &buf)
	return buf.Bytes(), err
}

// Small objects (one chunk, a few, none) are read without a consumer,
// large ones with one; both return the stored bytes.
func TestObjectReadsDirect(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)
	cases := []struct {
		name   string
		data   []byte
		direct bool
	}{
		{"one chunk", []byte("export default () => 'hi'\n"), true},
		{"empty", []byte{}, true},
		{"three chunks", randomBytes(t, 300<<10), true},
		{"eight chunks, the most read directly", randomBytes(t, 1<<20), true},
		{"nine chunks", randomBytes(t, 1<<20+1), false},
		{"sixteen chunks", randomBytes(t, 2<<20), false},
	}
	for _, c := range cases {
		d := putContent(t, b, c.data)
		before := b.ObjectReads()
		got, err := getContent(ctx, b, d)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(got, c.data) {
			t.Fatalf("%s: read %d bytes that differ from the %d stored", c.name, len(got), len(c.data))
		}
		after := b.ObjectReads()
		want := before
		if c.direct {
			want.Direct++
		} else {
			want.Consumer++
		}
		if after != want {
			t.Errorf("%s: reads went from %+v to %+v, want %+v", c.name, before, after, want)
		}
	}
	rec := []byte(`{"payload":"a signed record"}`)
	if err := b.PutRelease(ctx, "demo", "000001-abc", rec); err != nil {
		t.Fatal(err)
	}
	before := b.ObjectReads()
	if got, err := b.GetRelease(ctx, "demo", "000001-abc"); err != nil || !bytes.Equal(got, rec) {
		t.Fatalf("GetRelease = %q, %v; want %q", got, err, rec)
	}
	if after := b.ObjectReads(); after.Direct != before.Direct+1 {
		t.Errorf("GetRelease: reads went from %+v to %+v, want one more direct", before, after)
	}
}

// Absent and deleted objects are ErrNotFound, as with ObjectStore.Get.
func TestObjectReadsNotFound(t *testing.T) {
	srv := natstest.RunServer(t)
	b := connect(t, srv.ClientURL(), 1)
	ctx := testCtx(t)
	if _, err := getContent(ctx, b, sum([]byte("never stored"))); !errors.Is(err, events.ErrNotFound) {
		t.Errorf("absent content: %v, want ErrNotFound", err)
	}
	if _, err := b.OpenContent(ctx, sum([]byte("never stored"))); !errors.Is(err, events.ErrNotFound) {
		t.Errorf("OpenContent of absent content: %v, want ErrNotFound", err)
	}
	if _, err := b.GetRelease(ctx, "demo", "000009-none"); !errors.Is(err, events.ErrNotFound) {
		t.Errorf("absent release: %v, want ErrNotFound", err)
	}
	for _, data := range [][]byte{[]byte("deleted soon"), randomBytes(t, 300<<10), randomBytes(t, 2<<20)} {
		d := putContent(t, b, data)
		natstest.DamageContent(t, srv.ClientURL(), d, nil)
		if _, err := getContent(ctx, b, d); !errors.Is(err, events.ErrNotFound) {
			t.Errorf("deleted content of %d bytes: %v, want ErrNotFound", len(data), err)
		}
	}
}

// chunkStream is the content store's stream and the chunk messages of
// digest d, read as a hand with NATS credentials would.
func chunkStream(t *testing.T, url, d string) (jetstream.Stream, string, []uint64) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx := testCtx(t)
	os, err := js.ObjectStore(ctx, events.BucketContent)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.GetInfo(ctx, d)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(ctx, "OBJ_"+events.BucketContent)
	if err != nil {
		t.Fatal(err)
	}
	subj := fmt.Sprintf("$O.%s.C.%s", events.BucketContent, info.NUID)
	var seqs []uint64
	for next := uint64(1); ; {
		m, err := st.GetMsg(ctx, next, jetstream.WithGetMsgSubject(subj))
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		seqs = append(seqs, m.Sequence)
		next = m.Sequence + 1
	}
	if len(seqs) != int(info.Chunks) {
		t.Fatalf("found %d chunk messages of %s, its meta says %d", len(seqs), d, info.Chunks)
	}
	return st, subj, seqs
}

// A chunk damaged inside the stream (its message deleted, replaced by
// other bytes, or more bytes) is never returned as the content: the direct
// read does not verify, the read with a consumer reports the mismatch.
func TestObjectReadsDamagedChunk(t *testing.T) {
	srv := natstest.RunServer(t)
	b := connect(t, srv.ClientURL(), 1)
	ctx := testCtx(t)
	nc, err := nats.Connect(srv.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name   string
		size   int
		chunk  int    // which chunk to damage
		data   []byte // what replaces it; nil: deleted
		direct bool
	}{
		{"one chunk, other bytes of its size", 100, 0, bytes.Repeat([]byte("x"), 100), true},
		{"one chunk, longer", 100, 0, bytes.Repeat([]byte("x"), 200), true},
		{"one chunk, deleted", 100, 0, nil, true},
		{"three chunks, the middle one replaced", 300 << 10, 1, bytes.Repeat([]byte("y"), 128<<10), true},
		{"three chunks, the last one deleted", 300 << 10, 2, nil, true},
		{"sixteen chunks, one replaced", 2 << 20, 5, bytes.Repeat([]byte("z"), 128<<10), false},
	}
	for _, c := range cases {
		data := randomBytes(t, c.size)
		d := putContent(t, b, data)
		st, subj, seqs := chunkStream(t, srv.ClientURL(), d)
		if err := st.DeleteMsg(ctx, seqs[c.chunk]); err != nil {
			t.Fatal(err)
		}
		if c.data != nil {
			// Appended after the meta: a chunk stored where none belongs.
			if _, err := js.Publish(ctx, subj, c.data); err != nil {
				t.Fatal(err)
			}
		}
		before := b.ObjectReads()
		// A deleted only chunk leaves the consumer waiting for it: the
		// read ends at this deadline.
		rctx, cancel := context.WithTimeout(ctx, 3*time.Second)
		got, err := getContent(rctx, b, d)
		cancel()
		if err == nil {
			t.Errorf("%s: read %d bytes (equal to the stored: %v), want an error", c.name, len(got), bytes.Equal(got, data))
		}
		if after := b.ObjectReads(); after.Consumer != before.Consumer+1 || after.Direct != before.Direct {
			t.Errorf("%s: reads went from %+v to %+v, want the direct read refused and one with a consumer", c.name, before, after)
		}
	}
}

// On a 3-node cluster with replicas 3, readers on every node read what a
// writer on one node has just stored: a read that reaches a replica not
// caught up yet fails as ErrNotFound (converging tries again) or falls back
// to the stream leader, and never returns other bytes.
func TestObjectReadsCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("3-node cluster: skipped with -short")
	}
	c := natstest.RunCluster(t, 3)
	w := connect(t, c.Nodes[0].ClientURL(), 3)
	var readers []*events.Bus
	for _, n := range c.Nodes {
		readers = append(readers, connect(t, n.ClientURL(), 3))
	}
	ctx := testCtx(t)
	for i := range 10 {
		data := fmt.Appendf(nil, "file %d\n", i)
		if i%3 == 2 {
			data = append(data, randomBytes(t, 300<<10)...)
		}
		d := putContent(t, w, data)
		id := fmt.Sprintf("%06d-x", i)
		if err := w.PutRelease(ctx, "demo", id, data); err != nil {
			t.Fatal(err)
		}
		for ri, r := range readers {
			natstest.WaitFor(t, wait, func() error {
				got, err := getContent(ctx, r, d)
				if errors.Is(err, events.ErrNotFound) {
					return fmt.Errorf("reader on node %d: %w", ri+1, err)
				}
				if err != nil {
					t.Fatalf("reader on node %d, content %d: %v", ri+1, i, err)
				}
				if !bytes.Equal(got, data) {
					t.Fatalf("reader on node %d read %d bytes other than the %d stored", ri+1, len(got), len(data))
				}
				rec, err := r.GetRelease(ctx, "demo", id)
				if errors.Is(err, events.ErrNotFound) {
					return fmt.Errorf("reader on node %d: %w", ri+1, err)
				}
				if err != nil || !bytes.Equal(rec, data) {
					t.Fatalf("reader on node %d, release %s: %d bytes, %v", ri+1, id, len(rec), err)
				}
				return nil
			})
		}
	}
	for ri, r := range readers {
		if n := r.ObjectReads(); n.Direct == 0 {
			t.Errorf("reader on node %d: %+v, want direct reads", ri+1, n)
		}
	}
}
