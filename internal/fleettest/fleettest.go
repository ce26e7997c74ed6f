// Package fleettest holds the real parts a controller works on, for the
// tests of the packages that run one (controller, executor): a Git
// repository in a temp folder, a NATS server with JetStream and beeuni's
// buckets, a signing key, and verified reads of what was published.
// It does not import the controller, whose own tests use it.
package fleettest

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/internal/gitrepo"
	"github.com/beeuni/beeuni/release"
)

// Fleet is one project's real parts. Everything is stopped or removed at
// the end of the test.
type Fleet struct {
	tb      testing.TB
	Project string
	RepoDir string           // a Git repository on branch main, no commit yet
	NATS    *events.Embedded // one server, JetStream in a temp folder
	Bus     *events.Bus      // a connection with the streams and buckets made
	Key     ed25519.PrivateKey
}

// New makes the parts of project.
func New(tb testing.TB, project string) *Fleet {
	tb.Helper()
	f := &Fleet{tb: tb, Project: project, RepoDir: filepath.Join(tb.TempDir(), "project")}
	if err := gitrepo.Init(f.RepoDir); err != nil {
		tb.Fatal(err)
	}
	f.NATS = natstest.RunServer(tb)
	ctx := context.Background()
	bus, err := events.Connect(ctx, f.NATS.ClientURL(), events.Options{RetryOnFailedConnect: true})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { bus.Close() })
	if err := bus.Ensure(ctx, 1); err != nil {
		tb.Fatal(err)
	}
	f.Bus = bus
	if _, f.Key, err = ed25519.GenerateKey(nil); err != nil {
		tb.Fatal(err)
	}
	return f
}

// TrustKey is the public half of Key: what executors are given.
func (f *Fleet) TrustKey() ed25519.PublicKey { return f.Key.Public().(ed25519.PublicKey) }

// Commit writes files (gitrepo.Delete deletes) and commits them to main; it
// returns the commit id.
func (f *Fleet) Commit(msg string, files map[string]string) string {
	f.tb.Helper()
	h, err := gitrepo.Commit(f.RepoDir, msg, files)
	if err != nil {
		f.tb.Fatal(err)
	}
	return h
}

// Desired returns the verified pointer the fleet is told to run.
func (f *Fleet) Desired() (release.Pointer, error) {
	var p release.Pointer
	raw, _, err := f.Bus.GetDesired(context.Background(), f.Project)
	if err == nil {
		err = f.open(raw, &p)
	}
	return p, err
}

// Record fetches release id from NATS and verifies its signature and its
// digest.
func (f *Fleet) Record(id string) (*release.Record, error) {
	var rec release.Record
	raw, err := f.Bus.GetRelease(context.Background(), f.Project, id)
	if err == nil {
		err = f.open(raw, &rec)
	}
	if err == nil {
		err = release.VerifyRecord(&rec)
	}
	if err != nil {
		return nil, fmt.Errorf("release %s: %w", id, err)
	}
	return &rec, nil
}

// open verifies a signed envelope with TrustKey and decodes its payload.
func (f *Fleet) open(raw []byte, into any) error {
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return err
	}
	return release.Verify(f.TrustKey(), env, into)
}

// WaitDesiredCommit waits until the desired release is built from commit
// and returns its record.
func (f *Fleet) WaitDesiredCommit(commit string, timeout time.Duration) *release.Record {
	f.tb.Helper()
	var rec *release.Record
	natstest.WaitFor(f.tb, timeout, func() error {
		p, err := f.Desired()
		if err != nil {
			return err
		}
		if rec, err = f.Record(p.Release); err != nil {
			return err
		}
		if rec.Commit != commit {
			return fmt.Errorf("desired release %s is of commit %s, want %s", rec.ID, rec.Commit, commit)
		}
		return nil
	})
	return rec
}

// EventTypes returns the types of the events stored for the project, in
// order.
func (f *Fleet) EventTypes() []string {
	f.tb.Helper()
	evs, err := f.Bus.ReadEvents(context.Background(), events.EventFilter{Project: f.Project}, 1000)
	if err != nil {
		f.tb.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}
