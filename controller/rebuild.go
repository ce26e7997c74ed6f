package controller

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// rebuildState fills an empty state (a new data folder, or a corrupt state
// database moved aside) from the project's releases in NATS, so that:
//   - the next release continues their sequence: no id is reused and the
//     fleet's pointer never goes back;
//   - the newest commit recorded there (published or rejected) is not
//     built again, and a replay's hold on an earlier release stays;
//   - every record signed by this controller's key is kept again, for
//     incremental builds and replays.
//
// A release built and stored but not yet published when the state was
// lost was never seen by the fleet: its commit is built again, once.
func (c *Controller) rebuildState(ctx context.Context, st *state) error {
	bus, project := c.cfg.Bus, c.cfg.Project
	ids, err := bus.ListReleases(ctx, project)
	if err != nil {
		return fmt.Errorf("rebuild the state from NATS: %w", err)
	}
	if len(ids) == 0 {
		return nil
	}
	pub := c.cfg.Key.Public().(ed25519.PublicKey)
	type kept struct {
		rec *release.Record
		env release.Envelope
	}
	var recs []kept
	for _, id := range ids {
		raw, err := bus.GetRelease(ctx, project, id)
		if err != nil {
			return fmt.Errorf("rebuild the state from NATS: %w", err)
		}
		var env release.Envelope
		var rec release.Record
		err = json.Unmarshal(raw, &env)
		if err == nil {
			err = release.Verify(pub, env, &rec)
		}
		if err == nil {
			err = release.VerifyRecord(&rec)
		}
		if err != nil {
			c.log.Warn("rebuilding the state: skipped a release this controller did not sign", "release", id, "error", err)
			continue
		}
		recs = append(recs, kept{&rec, env})
	}
	next := state{}
	var publishedSeq uint64
	for _, k := range recs {
		if k.rec.Seq > next.Seq {
			next.Seq, next.LastCommit = k.rec.Seq, k.rec.Commit
		}
		if k.rec.Status != release.StatusRejected && k.rec.Seq > publishedSeq {
			publishedSeq, next.LastPublished = k.rec.Seq, k.rec.ID
		}
	}
	raw, _, err := bus.GetDesired(ctx, project)
	switch {
	case err == nil:
		var env release.Envelope
		var ptr release.Pointer
		if json.Unmarshal(raw, &env) == nil && release.Verify(pub, env, &ptr) == nil {
			next.Desired = ptr.Release
			if ptr.Replay {
				next.Pin = &pin{Release: ptr.Release, Head: next.LastCommit}
			}
		}
	case !errors.Is(err, events.ErrNotFound):
		return fmt.Errorf("rebuild the state from NATS: %w", err)
	}
	err = c.cfg.DB.Update(func(tx *store.Tx) error {
		for _, k := range recs {
			if err := tx.Put(bucketReleases, k.rec.ID, stored{Status: k.rec.Status, Envelope: k.env}); err != nil {
				return err
			}
		}
		return putState(tx, next)
	})
	if err != nil {
		return fmt.Errorf("rebuild the state from NATS: %w", err)
	}
	c.log.Info("state rebuilt from the releases in NATS", "releases", len(recs), "seq", next.Seq,
		"last_commit", next.LastCommit, "desired", next.Desired)
	*st = next
	return nil
}
