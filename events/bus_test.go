package events_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
)

const wait = 20 * time.Second

// connect returns a Bus on url with the streams and buckets ensured.
func connect(tb testing.TB, url string, replicas int) *events.Bus {
	tb.Helper()
	return connectWith(tb, url, replicas, events.Options{Name: tb.Name(), ResyncInterval: 500 * time.Millisecond})
}

func connectWith(tb testing.TB, url string, replicas int, o events.Options) *events.Bus {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	defer cancel()
	b, err := events.Connect(ctx, url, o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { b.Close() })
	if err := b.Ensure(ctx, replicas); err != nil {
		tb.Fatal(err)
	}
	return b
}

func testCtx(tb testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), wait)
	tb.Cleanup(cancel)
	return ctx
}

type desired struct {
	value string
	rev   uint64
}

// watchDesired runs WatchDesired until the test ends and returns what it sees.
func watchDesired(tb testing.TB, b *events.Bus, project string) <-chan desired {
	tb.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan desired, 100)
	done := make(chan error, 1)
	go func() {
		done <- b.WatchDesired(ctx, project, func(v []byte, rev uint64) { ch <- desired{string(v), rev} })
	}()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("WatchDesired: %v", err)
		}
	})
	return ch
}

func next(tb testing.TB, ch <-chan desired) desired {
	tb.Helper()
	select {
	case d := <-ch:
		return d
	case <-time.After(wait):
		tb.Fatal("no desired release delivered")
		return desired{}
	}
}

func TestDesired(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)

	if _, _, err := b.GetDesired(ctx, "demo"); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("GetDesired before any put = %v, want ErrNotFound", err)
	}
	rev1, err := b.PutDesired(ctx, "demo", []byte("r1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.PutDesired(ctx, "other", []byte("x1")); err != nil {
		t.Fatal(err)
	}
	v, rev, err := b.GetDesired(ctx, "demo")
	if err != nil || string(v) != "r1" || rev != rev1 {
		t.Fatalf("GetDesired = %q, %d, %v; want r1, %d", v, rev, err, rev1)
	}

	// A late joiner gets the current value at once, then each update, and
	// never another project's.
	ch := watchDesired(t, b, "demo")
	if d := next(t, ch); d != (desired{"r1", rev1}) {
		t.Fatalf("first delivery = %+v, want r1@%d", d, rev1)
	}
	for _, v := range []string{"r2", "r3"} {
		if _, err := b.PutDesired(ctx, "other", []byte("x-"+v)); err != nil {
			t.Fatal(err)
		}
		rev, err := b.PutDesired(ctx, "demo", []byte(v))
		if err != nil {
			t.Fatal(err)
		}
		if d := next(t, ch); d != (desired{v, rev}) {
			t.Fatalf("delivery = %+v, want %s@%d", d, v, rev)
		}
	}

	if _, err := b.PutDesired(ctx, "bad.name", nil); !errors.Is(err, events.ErrInvalidName) {
		t.Fatalf("PutDesired(bad.name) = %v, want ErrInvalidName", err)
	}
}

func TestReleases(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)

	ids, err := b.ListReleases(ctx, "demo")
	if err != nil || len(ids) != 0 {
		t.Fatalf("ListReleases on empty store = %v, %v", ids, err)
	}
	for _, r := range []struct{ project, id, data string }{
		{"demo", "000002-bbb", "two"},
		{"demo", "000001-aaa", "one"},
		{"other", "000001-ccc", "three"},
	} {
		if err := b.PutRelease(ctx, r.project, r.id, []byte(r.data)); err != nil {
			t.Fatal(err)
		}
	}
	// Same bytes again: fine. Other bytes: refused, records are immutable.
	if err := b.PutRelease(ctx, "demo", "000001-aaa", []byte("one")); err != nil {
		t.Fatalf("re-put identical release: %v", err)
	}
	if err := b.PutRelease(ctx, "demo", "000001-aaa", []byte("changed")); !errors.Is(err, events.ErrConflict) {
		t.Fatalf("re-put changed release = %v, want ErrConflict", err)
	}
	got, err := b.GetRelease(ctx, "demo", "000002-bbb")
	if err != nil || string(got) != "two" {
		t.Fatalf("GetRelease = %q, %v", got, err)
	}
	if _, err := b.GetRelease(ctx, "demo", "000009-zzz"); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("GetRelease missing = %v, want ErrNotFound", err)
	}
	ids, err = b.ListReleases(ctx, "demo")
	if err != nil || strings.Join(ids, ",") != "000001-aaa,000002-bbb" {
		t.Fatalf("ListReleases = %v, %v", ids, err)
	}
}

func digest(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestContent(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)

	for _, size := range []int{0, 10, 300 << 10} { // empty, small, several chunks
		data := bytes.Repeat([]byte{byte(size)}, size)
		d := digest(data)
		has, err := b.HasContent(ctx, d)
		if err != nil || has {
			t.Fatalf("size %d: HasContent before put = %v, %v", size, has, err)
		}
		if err := b.PutContent(ctx, d, bytes.NewReader(data)); err != nil {
			t.Fatal(err)
		}
		// A second put is skipped: the reader is not even read.
		if err := b.PutContent(ctx, d, errReader{}); err != nil {
			t.Fatalf("size %d: second put: %v", size, err)
		}
		if has, err := b.HasContent(ctx, d); err != nil || !has {
			t.Fatalf("size %d: HasContent after put = %v, %v", size, has, err)
		}
		var buf bytes.Buffer
		if err := b.GetContent(ctx, d, &buf); err != nil || !bytes.Equal(buf.Bytes(), data) {
			t.Fatalf("size %d: GetContent = %d bytes, %v", size, buf.Len(), err)
		}
	}
	missing := digest([]byte("never stored"))
	if err := b.GetContent(ctx, missing, &bytes.Buffer{}); !errors.Is(err, events.ErrNotFound) {
		t.Fatalf("GetContent missing = %v, want ErrNotFound", err)
	}
	for _, bad := range []string{"", "abc", strings.ToUpper(missing), "../" + missing[3:]} {
		if err := b.PutContent(ctx, bad, strings.NewReader("x")); !errors.Is(err, events.ErrInvalidName) {
			t.Errorf("PutContent(%q) = %v, want ErrInvalidName", bad, err)
		}
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) {
	return 0, errors.New("read when the content was already stored")
}

func TestExecutorStates(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)

	got, err := b.ExecutorStates(ctx, "demo")
	if err != nil || len(got) != 0 {
		t.Fatalf("ExecutorStates empty = %v, %v", got, err)
	}
	for _, s := range []struct{ project, id, state string }{
		{"demo", "e1", `{"v":1}`},
		{"demo", "e2", `{"v":2}`},
		{"demo", "e1", `{"v":3}`},
		{"demo2", "e9", `{"v":9}`}, // a project whose name extends "demo"
	} {
		if err := b.PutExecutorState(ctx, s.project, s.id, []byte(s.state)); err != nil {
			t.Fatal(err)
		}
	}
	got, err = b.ExecutorStates(ctx, "demo")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || string(got["e1"]) != `{"v":3}` || string(got["e2"]) != `{"v":2}` {
		t.Fatalf("ExecutorStates = %q", got)
	}
	if err := b.PutExecutorState(ctx, "demo", "e.1", nil); !errors.Is(err, events.ErrInvalidName) {
		t.Fatalf("bad executor id = %v", err)
	}
}

func TestSecrets(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)
	if err := b.SetSecret(ctx, "demo", "API_KEY", "k1"); err != nil {
		t.Fatal(err)
	}
	if err := b.SetSecret(ctx, "other", "API_KEY", "not-demo"); err != nil {
		t.Fatal(err)
	}

	w, err := b.NewSecretWatcher("demo")
	if err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- w.Run(wctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("SecretWatcher.Run: %v", err)
		}
	})
	select {
	case <-w.Ready():
	case <-ctx.Done():
		t.Fatal("secret watcher never ready")
	}
	if v, ok := w.Get("API_KEY"); !ok || v != "k1" {
		t.Fatalf("Get(API_KEY) = %q, %v", v, ok)
	}

	// A secret set after start is seen; a deleted one goes.
	if err := b.SetSecret(ctx, "demo", "TOKEN", "t1"); err != nil {
		t.Fatal(err)
	}
	if err := b.DeleteSecret(ctx, "demo", "API_KEY"); err != nil {
		t.Fatal(err)
	}
	natstest.WaitFor(t, wait, func() error {
		snap := w.Snapshot()
		if len(snap) != 1 || snap["TOKEN"] != "t1" {
			return fmt.Errorf("watcher has %d secrets, want only TOKEN", len(snap))
		}
		return nil
	})
	all, err := b.Secrets(ctx, "demo")
	if err != nil || len(all) != 1 || all["TOKEN"] != "t1" {
		t.Fatalf("Secrets = %d entries, %v", len(all), err)
	}

	// Errors never carry the value.
	err = b.SetSecret(ctx, "demo", "BAD NAME", "s3cr3t-value")
	if err == nil || strings.Contains(err.Error(), "s3cr3t-value") {
		t.Fatalf("SetSecret with bad name = %v", err)
	}
}

func TestEventsDedup(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)
	for _, p := range []struct{ typ, payload, id string }{
		{events.EventReleaseBuilt, "r1", "built-r1"},
		{events.EventReleaseBuilt, "r1", "built-r1"}, // a retried publish
		{events.EventReleaseRejected, "r2", "rejected-r2"},
		{events.EventReleaseBuilt, "r1", "built-r1"},
		{events.EventToolsLoadFailed, "f", ""}, // no id: never deduplicated
		{events.EventToolsLoadFailed, "f", ""},
	} {
		if err := b.Publish(ctx, "demo", p.typ, []byte(p.payload), p.id); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Publish(ctx, "other", events.EventReleaseBuilt, []byte("o"), "built-r1"); err != nil {
		t.Fatal(err)
	}

	for _, tc := range []struct {
		filter events.EventFilter
		want   string
	}{
		{events.EventFilter{Project: "demo"}, "release.built:r1:built-r1 release.rejected:r2:rejected-r2 tools.load_failed:f: tools.load_failed:f:"},
		{events.EventFilter{Project: "demo", Type: events.EventReleaseRejected}, "release.rejected:r2:rejected-r2"},
		{events.EventFilter{Project: "nobody"}, ""},
	} {
		evs, err := b.ReadEvents(ctx, tc.filter, 100)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range evs {
			if e.Project != tc.filter.Project || e.Seq == 0 || e.Time.IsZero() {
				t.Errorf("event %+v: wrong project or no metadata", e)
			}
			got = append(got, e.Type+":"+string(e.Payload)+":"+e.MsgID)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ReadEvents(%+v) = %q, want %q", tc.filter, strings.Join(got, " "), tc.want)
		}
	}
	// The "other" project's event with the same msg id was stored: dedup
	// is by id, and ids are the publisher's to make unique.
	evs, err := b.ReadEvents(ctx, events.EventFilter{}, 100)
	if err != nil || len(evs) != 4 {
		t.Fatalf("all events = %d, %v; want 4 (msg ids are global to the stream)", len(evs), err)
	}
}

func TestSubscribeEvents(t *testing.T) {
	b := connect(t, natstest.RunServer(t).ClientURL(), 1)
	ctx := testCtx(t)
	if err := b.Publish(ctx, "demo", events.EventReleaseBuilt, []byte("old"), "a"); err != nil {
		t.Fatal(err)
	}
	sctx, cancel := context.WithCancel(ctx)
	got := make(chan events.Event, 10)
	done := make(chan error, 1)
	go func() {
		done <- b.SubscribeEvents(sctx, events.EventFilter{Project: "demo"}, func(e events.Event) { got <- e })
	}()
	if err := b.Publish(ctx, "demo", events.EventExecutorConverged, []byte("new"), "b"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"old", "new"} {
		select {
		case e := <-got:
			if string(e.Payload) != want {
				t.Fatalf("event payload %q, want %q", e.Payload, want)
			}
		case <-ctx.Done():
			t.Fatalf("no event %q", want)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("SubscribeEvents = %v", err)
	}
}

func TestEnsureIdempotentAndMissing(t *testing.T) {
	srv := natstest.RunServer(t)
	ctx := testCtx(t)
	// Before Ensure: operations say how to get the buckets.
	bare, err := events.Connect(ctx, srv.ClientURL(), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bare.Close()
	if _, _, err := bare.GetDesired(ctx, "demo"); err == nil || !strings.Contains(err.Error(), "beeuni up") {
		t.Fatalf("GetDesired without buckets = %v, want a hint to start beeuni up", err)
	}
	b := connect(t, srv.ClientURL(), 1)
	if _, err := b.PutDesired(ctx, "demo", []byte("v")); err != nil {
		t.Fatal(err)
	}
	// Ensure again (another process starting) keeps the data.
	if err := connect(t, srv.ClientURL(), 1).Ensure(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if v, _, err := b.GetDesired(ctx, "demo"); err != nil || string(v) != "v" {
		t.Fatalf("after second Ensure: %q, %v", v, err)
	}
}

// ReadEvents must not leave a consumer behind per call: the stream allows
// 1000, and `beeuni status` or a test polling events would use them up.
func TestReadEventsLeavesNoConsumer(t *testing.T) {
	e := natstest.RunServer(t)
	ctx := context.Background()
	bus, err := events.Connect(ctx, e.ClientURL(), events.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer bus.Close()
	if err := bus.Ensure(ctx, 1); err != nil {
		t.Fatal(err)
	}
	if err := bus.Publish(ctx, "demo", "release.built", []byte("{}"), "x"); err != nil {
		t.Fatal(err)
	}
	for i := range 1100 {
		if evs, err := bus.ReadEvents(ctx, events.EventFilter{Project: "demo"}, 10); err != nil || len(evs) != 1 {
			t.Fatalf("call %d: %d events, %v", i+1, len(evs), err)
		}
	}
}
