package process

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/release"
)

// natsFix is a real NATS server in the test process and the test's own
// connection to it, to read what the fleet was told (and to tamper with it).
type natsFix struct {
	srv *events.Embedded
	bus *events.Bus
}

func newNATS(tb testing.TB) *natsFix {
	tb.Helper()
	n := &natsFix{srv: natstest.RunServer(tb)}
	bus, err := events.Connect(tb.Context(), n.srv.ClientURL(), events.Options{Name: "e2e", RetryOnFailedConnect: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { bus.Close() })
	if err := bus.Ensure(tb.Context(), 1); err != nil {
		tb.Fatal(err)
	}
	n.bus = bus
	return n
}

// url is the server's client URL; it stays the same across a restart.
func (n *natsFix) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.srv.Port()) }

// desired returns the release the fleet of project is told to run, with
// the commit its record names.
func (n *natsFix) desired(ctx context.Context, project string) (ptr release.Pointer, commit string, err error) {
	raw, _, err := n.bus.GetDesired(ctx, project)
	if err != nil {
		return ptr, "", err
	}
	if err := openUnverified(raw, &ptr); err != nil {
		return ptr, "", fmt.Errorf("desired pointer of %s: %w", project, err)
	}
	rec, err := n.record(ctx, project, ptr.Release)
	if err != nil {
		return ptr, "", err
	}
	return ptr, rec.Commit, nil
}

// record reads a release record as the controller published it.
func (n *natsFix) record(ctx context.Context, project, id string) (release.Record, error) {
	var rec release.Record
	raw, err := n.bus.GetRelease(ctx, project, id)
	if err != nil {
		return rec, err
	}
	if err := openUnverified(raw, &rec); err != nil {
		return rec, fmt.Errorf("release %s: %w", id, err)
	}
	return rec, nil
}

// releases lists the records of project's releases.
func (n *natsFix) releases(ctx context.Context, project string) ([]release.Record, error) {
	ids, err := n.bus.ListReleases(ctx, project)
	if err != nil {
		return nil, err
	}
	var out []release.Record
	for _, id := range ids {
		rec, err := n.record(ctx, project, id)
		if err != nil {
			return nil, err
		}
		out = append(out, rec)
	}
	return out, nil
}

// openUnverified decodes a signed envelope's payload (the executors are
// the ones that verify).
func openUnverified(raw []byte, into any) error {
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("not a signed envelope: %w", err)
	}
	return json.Unmarshal(env.Payload, into)
}

// stop shuts the server down (its store folder stays).
func (n *natsFix) stop() { n.srv.Shutdown() }

// start starts the server again on the same port with the same store
// folder, as a NATS restart in production would; clients reconnect.
func (n *natsFix) start(tb testing.TB) {
	tb.Helper()
	o := n.srv.Options()
	o.Port = n.srv.Port()
	// The old listener's port can take a moment to be free again.
	waitFor(tb, startTimeout, fmt.Sprintf("NATS to start again on port %d", o.Port), func() error {
		e, err := events.StartEmbedded(o)
		if err != nil {
			return err
		}
		tb.Cleanup(e.Shutdown)
		n.srv = e
		return nil
	})
}
