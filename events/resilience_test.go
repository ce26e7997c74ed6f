package events_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
)

func TestWatchDesiredSurvivesRestart(t *testing.T) {
	srv := natstest.RunServer(t)
	// No resync polling: the watch must come back through the reconnect.
	b := connectWith(t, srv.ClientURL(), 1, events.Options{ResyncInterval: time.Hour})
	ctx := testCtx(t)
	rev, err := b.PutDesired(ctx, "demo", []byte("before"))
	if err != nil {
		t.Fatal(err)
	}
	ch := watchDesired(t, b, "demo")
	if d := next(t, ch); d != (desired{"before", rev}) {
		t.Fatalf("got %+v", d)
	}

	natstest.Restart(t, srv)
	natstest.WaitFor(t, wait, func() error {
		if !b.Connected() {
			return errors.New("client not reconnected")
		}
		return nil
	})
	var rev2 uint64
	natstest.WaitFor(t, wait, func() error { // JetStream may need a moment after restart
		rev2, err = b.PutDesired(ctx, "demo", []byte("after"))
		return err
	})
	if rev2 <= rev {
		t.Fatalf("revision after restart %d <= %d: state not kept in the store folder", rev2, rev)
	}
	if d := next(t, ch); d != (desired{"after", rev2}) {
		t.Fatalf("after restart got %+v, want after@%d", d, rev2)
	}
	select {
	case d := <-ch:
		t.Fatalf("unexpected extra delivery %+v", d)
	default:
	}
}

func TestConnectError(t *testing.T) {
	srv := natstest.RunServer(t)
	url := srv.ClientURL()
	srv.Shutdown()
	_, err := events.Connect(context.Background(), url, events.Options{})
	if err == nil || !strings.Contains(err.Error(), "connect to NATS at "+url) || !strings.Contains(err.Error(), "--nats") {
		t.Fatalf("Connect to a stopped server = %v", err)
	}
}

func TestCluster(t *testing.T) {
	if testing.Short() {
		t.Skip("3-node cluster: skipped with -short")
	}
	c := natstest.RunCluster(t, 3)
	b := connect(t, c.URLs(), 3)
	ctx := testCtx(t)

	ch := watchDesired(t, b, "demo")
	rev, err := b.PutDesired(ctx, "demo", []byte("r1"))
	if err != nil {
		t.Fatal(err)
	}
	if d := next(t, ch); d != (desired{"r1", rev}) {
		t.Fatalf("got %+v", d)
	}
	data := []byte("content")
	if err := b.PutContent(ctx, digest(data), bytes.NewReader(data)); err != nil {
		t.Fatal(err)
	}

	// Lose the meta leader: the others elect a new one, the client fails
	// over, nothing stored is lost, and writes go on.
	stop := max(c.Leader(), 0)
	c.Stop(stop)
	var rev2 uint64
	natstest.WaitFor(t, wait, func() error {
		// Each attempt is short: one sent while the stream elects a new
		// leader gets no answer.
		actx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		rev2, err = b.PutDesired(actx, "demo", []byte("r2"))
		return err
	})
	if d := next(t, ch); d != (desired{"r2", rev2}) {
		t.Fatalf("after node loss got %+v, want r2@%d", d, rev2)
	}
	natstest.WaitFor(t, wait, func() error {
		actx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		var buf bytes.Buffer
		if err := b.GetContent(actx, digest(data), &buf); err != nil {
			return err
		}
		if buf.String() != "content" {
			return fmt.Errorf("content = %q", buf.String())
		}
		return b.Publish(actx, "demo", events.EventReleaseBuilt, []byte("r2"), "r2")
	})
}

// An executor starting while NATS is down connects when it comes up.
func TestRetryOnFailedConnect(t *testing.T) {
	srv := natstest.RunServer(t)
	url := srv.ClientURL()
	srv.Shutdown()
	b, err := events.Connect(context.Background(), url, events.Options{RetryOnFailedConnect: true})
	if err != nil {
		t.Fatalf("Connect with retry = %v, want a connection still trying", err)
	}
	t.Cleanup(func() { b.Close() })
	if b.Connected() {
		t.Fatal("connected to a stopped server")
	}
	natstest.Restart(t, srv)
	natstest.WaitFor(t, wait, func() error {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		return b.Ensure(ctx, 1)
	})
}
