package controller

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// reconcile is one look at the branch: finish a publish a crash left
// pending, then build, validate, sign, store and publish the head if it is
// a commit not built before.
func (c *Controller) reconcile(ctx context.Context) error {
	c.buildMu.Lock()
	defer c.buildMu.Unlock()
	c.setStatus(func(s *Status) { s.LastCheck = c.cfg.now() })
	if !c.ensured {
		if err := c.cfg.Bus.Ensure(ctx, c.cfg.Replicas); err != nil {
			c.metrics.publishErrors.Inc()
			return fmt.Errorf("prepare the NATS streams and buckets: %w", err)
		}
		c.ensured = true
	}

	st, err := loadState(c.cfg.DB)
	if err != nil {
		return err
	}
	if !c.rebuilt && st.Seq == 0 && st.LastCommit == "" {
		if err := c.rebuildState(ctx, &st); err != nil {
			return err
		}
		c.rebuilt = true
		c.setStatus(func(s *Status) { s.LastCommit, s.Desired = st.LastCommit, st.Desired })
	}
	if st.Pending != "" {
		if err := c.publish(ctx, &st); err != nil {
			return err
		}
	}
	repo, head, err := c.src.head(ctx)
	if err != nil {
		c.metrics.gitErrors.Inc()
		c.closeObjects()
		return err
	}
	headID := head.Hash.String()
	c.setStatus(func(s *Status) { s.Head = headID })
	if headID == st.LastCommit {
		c.healthy(st)
		return nil
	}
	start := time.Now()
	rec, pack, err := c.build(ctx, repo, head, st)
	if err != nil {
		c.metrics.builds.WithLabelValues("error").Inc()
		return err
	}
	c.metrics.buildDuration.Observe(time.Since(start).Seconds())
	if err := c.storeBuilt(rec, pack, &st, headID); err != nil {
		return err
	}
	if c.cfg.Failpoint != nil {
		c.cfg.Failpoint("built")
	}
	c.setStatus(func(s *Status) { s.Pending = rec.ID })
	c.log.Info("release built", "release", rec.ID, "commit", rec.Commit, "status", rec.Status,
		"files", len(rec.Entries), "tools", len(rec.Tools), "warnings", len(rec.Warnings), "findings", len(rec.Findings),
		"took", time.Since(start).Round(time.Millisecond))
	c.metrics.builds.WithLabelValues(rec.Status).Inc()
	if rec.Status == release.StatusRejected {
		c.metrics.rejected.Inc()
		for _, f := range rec.Findings {
			c.log.Warn("release rejected", "release", rec.ID, "finding", f.String())
		}
	}
	if err := c.publish(ctx, &st); err != nil {
		return err
	}
	c.healthy(st)
	return nil
}

func (c *Controller) healthy(st state) {
	now := c.cfg.now()
	c.metrics.lastSuccess.Set(float64(now.Unix()))
	c.setStatus(func(s *Status) {
		s.Healthy, s.Error, s.Retrying, s.LastSuccess = true, "", "", now
		s.LastCommit, s.Desired, s.Pinned = st.LastCommit, st.Desired, ""
		if st.Pin != nil {
			s.Pinned = st.Pin.Release
		}
	})
}

// build makes the signed-to-be record of head: its files, the burst of
// commits it covers, and the validation of its manifest and changed
// modules; and the bundle pack the record names, when it is a new one.
func (c *Controller) build(ctx context.Context, repo *git.Repository, head *object.Commit, st state) (*release.Record, []byte, error) {
	rrepo, err := c.objects()
	if err != nil {
		c.metrics.gitErrors.Inc()
		return nil, nil, err
	}
	prev, prevRec := c.previous(st)
	snap, err := rrepo.Build(ctx, head.Hash, prev)
	if err != nil {
		c.metrics.gitErrors.Inc()
		c.closeObjects()
		return nil, nil, fmt.Errorf("build release of commit %s: %w", head.Hash, err)
	}
	rec := snap.Record(c.cfg.Project, st.Seq+1, c.cfg.now().UTC())
	rec.Previous = st.LastPublished
	if rec.Covers, err = covers(repo, head, st.LastCommit); err != nil {
		c.metrics.gitErrors.Inc()
		c.closeObjects()
		return nil, nil, err
	}
	var pack []byte
	if snap.Valid() {
		pack = c.validate(ctx, rrepo, rec, prevRec)
	}
	rec.Status = release.StatusPublished
	if !rec.Valid() {
		rec.Status, rec.Bundles, pack = release.StatusRejected, nil, nil
	}
	c.prev = snap
	return rec, pack, nil
}

// objects returns the repository's object reader, kept open between builds:
// its pack indexes and object cache make the next build much cheaper. The
// caller holds buildMu.
func (c *Controller) objects() (*release.Repo, error) {
	if c.repo != nil {
		return c.repo, nil
	}
	r, err := release.OpenRepo(c.src.dir)
	if err != nil {
		return nil, err
	}
	c.repo = r
	return r, nil
}

// closeObjects drops the object reader after an error, so the next look
// opens the repository afresh (it may have been repacked or replaced).
func (c *Controller) closeObjects() {
	if c.repo != nil {
		c.repo.Close()
		c.repo = nil
	}
}

// previous returns the last build to build incrementally against: the one in
// memory, else the record of the last published release.
func (c *Controller) previous(st state) (*release.Snapshot, *release.Record) {
	var rec *release.Record
	if st.LastPublished != "" {
		if _, r, err := loadRelease(c.cfg.DB, st.LastPublished); err == nil {
			rec = r
		}
	}
	if c.prev != nil {
		return c.prev, rec
	}
	if rec != nil {
		return rec.Snapshot(), rec
	}
	return nil, nil
}

// storeBuilt signs rec and keeps it with the state change it makes, in one
// transaction: the commit is never built again, and the release is published
// (or, rejected, recorded on NATS) by publish, even after a crash. A new
// bundle pack is kept with it until publish has uploaded it; the one kept
// before was uploaded by the publish before.
func (c *Controller) storeBuilt(rec *release.Record, pack []byte, st *state, headID string) error {
	env, err := release.Sign(c.cfg.Key, rec)
	if err != nil {
		return fmt.Errorf("sign release %s: %w", rec.ID, err)
	}
	next := *st
	next.Seq, next.LastCommit, next.Pending = rec.Seq, headID, rec.ID
	err = c.cfg.DB.Update(func(tx *store.Tx) error {
		if err := tx.Put(bucketReleases, rec.ID, stored{Status: rec.Status, Envelope: env}); err != nil {
			return err
		}
		if pack != nil {
			var old []string
			_ = tx.List(bucketPacks, func(k string, _ []byte) error { old = append(old, k); return nil })
			for _, k := range old {
				if err := tx.Delete(bucketPacks, k); err != nil {
					return err
				}
			}
			if err := tx.PutBytes(bucketPacks, rec.Bundles.Digest, pack); err != nil {
				return err
			}
		}
		return putState(tx, next)
	})
	if err != nil {
		return fmt.Errorf("store release %s: %w", rec.ID, err)
	}
	*st = next
	return nil
}

// publish sends the pending release to NATS: its content the store lacks,
// its record, and for a valid one the signed pointer that makes it the
// fleet's release. Every step is idempotent, so a retry after a crash or a
// NATS outage publishes it exactly once.
func (c *Controller) publish(ctx context.Context, st *state) error {
	s, rec, err := loadRelease(c.cfg.DB, st.Pending)
	if err != nil {
		return err
	}
	bus := c.cfg.Bus
	if s.Status != release.StatusRejected {
		if err := c.uploadContent(ctx, rec, st.LastPublished); err != nil {
			return err
		}
	}
	if err := bus.PutRelease(ctx, c.cfg.Project, rec.ID, mustJSON(s.Envelope)); err != nil {
		c.metrics.publishErrors.Inc()
		return fmt.Errorf("publish release %s: %w", rec.ID, err)
	}
	next := *st
	next.Pending = ""
	event := events.EventReleaseRejected
	if s.Status != release.StatusRejected {
		if err := c.putDesired(ctx, rec, false); err != nil {
			return err
		}
		next.Desired, next.LastPublished, next.Pin, next.LastRejected = rec.ID, rec.ID, nil, ""
		event = events.EventReleaseBuilt
	} else {
		next.LastRejected = rec.ID
	}
	if err := bus.Publish(ctx, c.cfg.Project, event, mustJSON(eventOf(rec)), event+":"+rec.ID); err != nil {
		c.metrics.publishErrors.Inc()
		return fmt.Errorf("publish event %s of %s: %w", event, rec.ID, err)
	}
	if err := c.cfg.DB.Update(func(tx *store.Tx) error { return putState(tx, next) }); err != nil {
		return fmt.Errorf("store state after publishing %s: %w", rec.ID, err)
	}
	*st = next
	var rejected *Rejection
	if s.Status == release.StatusRejected {
		rejected = RejectionOf(rec, next.Desired)
	}
	c.setStatus(func(s *Status) {
		s.LastRelease, s.Pending, s.LastCommit, s.Desired, s.Rejected = rec.ID, "", next.LastCommit, next.Desired, rejected
	})
	if rejected != nil && c.cfg.OnRejected != nil {
		c.cfg.OnRejected(*rejected)
	}
	return nil
}

// putDesired signs and publishes the pointer that makes rec the fleet's release.
func (c *Controller) putDesired(ctx context.Context, rec *release.Record, replay bool) error {
	ptr := release.Pointer{Project: c.cfg.Project, Release: rec.ID, Digest: rec.Digest, Seq: rec.Seq, Replay: replay, At: c.cfg.now().UTC()}
	env, err := release.Sign(c.cfg.Key, ptr)
	if err != nil {
		return fmt.Errorf("sign pointer to %s: %w", rec.ID, err)
	}
	if _, err := c.cfg.Bus.PutDesired(ctx, c.cfg.Project, mustJSON(env)); err != nil {
		c.metrics.publishErrors.Inc()
		return fmt.Errorf("make %s the desired release: %w", rec.ID, err)
	}
	return nil
}

// uploadContent makes sure every content object rec names is in the
// object store with the right digest, putting back from Git what is
// missing or damaged, whichever release first had it: an object lost since
// an earlier publish is restored by the next. It reads no content back
// (the store's own digest of each object is compared with its name).
func (c *Controller) uploadContent(ctx context.Context, rec *release.Record, prevID string) error {
	seen := make(map[string]bool, len(rec.Entries))
	var digests []string
	path := map[string]string{}
	for _, e := range rec.Entries {
		if !seen[e.Digest] {
			seen[e.Digest] = true
			digests = append(digests, e.Digest)
			path[e.Digest] = e.Path
		}
	}
	if b := rec.Bundles; b != nil && !seen[b.Digest] {
		digests = append(digests, b.Digest)
	}
	missing, err := c.cfg.Bus.MissingContent(ctx, digests)
	if err != nil {
		c.metrics.publishErrors.Inc()
		return fmt.Errorf("publish content of %s: %w", rec.ID, err)
	}
	if len(missing) == 0 {
		return nil
	}
	rrepo, err := c.objects()
	if err != nil {
		return err
	}
	// What the previous release had was stored already: finding it
	// missing now is worth saying.
	had := map[string]bool{}
	if prevID != "" {
		if _, prev, err := loadRelease(c.cfg.DB, prevID); err == nil {
			for _, e := range prev.Entries {
				had[e.Digest] = true
			}
		}
	}
	open := rrepo.ContentOpener(ctx, rec.Entries)
	restored := 0
	for _, d := range missing {
		if b := rec.Bundles; b != nil && d == b.Digest {
			c.uploadPack(ctx, rec)
			continue
		}
		r, err := open(d)
		if err != nil {
			return fmt.Errorf("read %s for release %s: %w", path[d], rec.ID, err)
		}
		err = c.cfg.Bus.PutContent(ctx, d, r)
		r.Close()
		if err != nil {
			c.metrics.publishErrors.Inc()
			return fmt.Errorf("publish content of %s: %w", path[d], err)
		}
		if had[d] {
			restored++
		}
	}
	if restored > 0 {
		c.log.Warn("content objects were missing or damaged in NATS: put back from Git", "release", rec.ID, "objects", restored)
	}
	return nil
}

// uploadPack puts rec's bundle pack into the content store from where
// storeBuilt kept it. Without it (a pack kept for an earlier release, since
// lost from NATS) the release is published all the same: executors bundle
// the modules themselves.
func (c *Controller) uploadPack(ctx context.Context, rec *release.Record) {
	var pack []byte
	err := c.cfg.DB.View(func(tx *store.Tx) error {
		pack, _ = tx.GetBytes(bucketPacks, rec.Bundles.Digest)
		return nil
	})
	if err == nil && pack == nil {
		err = errors.New("this controller no longer keeps it")
	}
	if err == nil {
		err = c.cfg.Bus.PutContent(ctx, rec.Bundles.Digest, bytes.NewReader(pack))
	}
	if err != nil {
		c.log.Warn("the release's bundles are not in NATS; executors bundle its modules", "release", rec.ID, "error", err)
	}
}
