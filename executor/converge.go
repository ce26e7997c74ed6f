package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// restore loads the tool set bbolt says was last switched to, so the
// executor serves at once after a restart, even with NATS down. Its folder
// is verified against the signed record kept with it first; files that
// fail are laid out again from the content cache. What the cache cannot
// heal waits for NATS: modified code is never served under the signed id.
// Folders of other releases (a crash mid-converge) are removed.
func (e *Executor) restore(ctx context.Context) {
	var act activeRecord
	var found bool
	err := e.db.View(func(tx *store.Tx) error {
		var err error
		found, err = tx.Get(bucketActive, keyActive, &act)
		return err
	})
	if err != nil {
		e.log.Error("read the last tool set; waiting for NATS", "error", err)
		return
	}
	e.removeStale(act.Dir)
	e.removePartialFetches()
	if !found {
		return
	}
	rec, err := e.keptRecord(act)
	if err == nil {
		e.useDir(act.Dir, rec)
		if err = e.layOut(ctx, rec, act.Dir); err != nil {
			e.dropDir(act.Dir)
		}
	}
	if err != nil {
		msg := fmt.Sprintf("not serving release %s until NATS is back: its files could not be verified: %v", act.Release, err)
		e.log.Error(msg)
		e.srv.SetState(State{Desired: act.Release, Error: msg})
		return
	}
	ts := LoadToolSet(ctx, act.Release, act.Dir, e.cfg.Harness, e.hostOptions())
	e.srv.Switch(ts)
	e.mu.Lock()
	e.active = act
	e.mu.Unlock()
	e.log.Info("serving the last tool set", "release", act.Release, "tools", len(ts.Tools()), "failed", len(ts.Failures()),
		"took", ts.LoadDuration().Round(time.Millisecond))
}

// keptRecord is the signed record kept with the active tool set, verified
// as a pointer from NATS would be.
func (e *Executor) keptRecord(act activeRecord) (*release.Record, error) {
	if len(act.Record) == 0 {
		return nil, errors.New("no signed record is kept with it (it was switched to by an older beeuni)")
	}
	var rec release.Record
	if err := e.open(act.Record, &rec); err != nil {
		return nil, fmt.Errorf("the kept record: %w", err)
	}
	if err := release.VerifyRecord(&rec); err != nil {
		return nil, fmt.Errorf("the kept record: %w", err)
	}
	if rec.ID != act.Release {
		return nil, fmt.Errorf("the kept record is of release %s", rec.ID)
	}
	return &rec, nil
}

// removeStale deletes release folders other than keep: left by a crash
// before a switch, or by one after it but before the old folder was freed.
func (e *Executor) removeStale(keep string) {
	entries, err := os.ReadDir(releasesDir(e.cfg.DataDir))
	if err != nil {
		return
	}
	for _, d := range entries {
		p := filepath.Join(releasesDir(e.cfg.DataDir), d.Name())
		if p != keep {
			os.RemoveAll(p)
		}
	}
}

// removePartialFetches deletes the temp files of fetches a crash cut short.
func (e *Executor) removePartialFetches() {
	stale, _ := filepath.Glob(filepath.Join(casDir(e.cfg.DataDir), ".fetch-*"))
	for _, p := range stale {
		os.Remove(p)
	}
}

// useDir counts one more tool set loaded from the release folder dir,
// laid out from rec: the cache keeps rec's content while dir is used.
func (e *Executor) useDir(dir string, rec *release.Record) {
	e.dirsMu.Lock()
	e.dirs[dir]++
	e.dirDigests[dir] = digests(rec)
	e.dirsMu.Unlock()
}

// dropDir counts one set fewer using dir and removes the folder with the
// last one. Removing under the lock keeps a converge that takes dir again
// from laying it out while it is being removed.
func (e *Executor) dropDir(dir string) {
	e.dirsMu.Lock()
	defer e.dirsMu.Unlock()
	n, ok := e.dirs[dir]
	if !ok {
		return
	}
	if n > 1 {
		e.dirs[dir] = n - 1
		return
	}
	delete(e.dirs, dir)
	delete(e.dirDigests, dir)
	// Kept as the spare for the next layout to take over when there is
	// none: making folders costs more than emptying them.
	if _, err := os.Lstat(spareDir(e.cfg.DataDir)); err != nil && os.Rename(dir, spareDir(e.cfg.DataDir)) == nil {
		return
	}
	if err := os.RemoveAll(dir); err != nil {
		e.log.Warn("remove an old release folder", "dir", dir, "error", err)
	}
}

func (e *Executor) hostOptions() jshost.Options {
	pol := e.cfg.Policy
	pol.Private = append(slices.Clone(pol.Private), e.cfg.DataDir) // its releases and workspace are let in by jshost
	pol.DenyDial = append(slices.Clone(pol.DenyDial), e.addr)
	pol.HideValues = append(slices.Clone(pol.HideValues), e.cfg.Server.Token)
	return jshost.Options{Bundler: e.bundler, Logger: e.cfg.Logger, DefaultTimeout: e.cfg.DefaultTimeout,
		TempDir: os.TempDir(), Directory: e.cfg.Workspace, Policy: pol, MaxMemory: e.cfg.MaxMemory, CallMemory: e.cfg.CallMemory,
		Launcher: e.cfg.Launcher}
}

// converge makes the release d points at the served one. A pointer that
// does not verify is refused and reported; the executor keeps its set. It
// returns true when it failed for a reason that may pass (NATS away, content
// not fetched): the caller tries d again, since the watch delivers each
// pointer once.
func (e *Executor) converge(ctx context.Context, d desired) (retry bool) {
	ptr, rec, raw, err := e.verify(ctx, d)
	if err != nil {
		if ctx.Err() == nil {
			e.fail(ctx, ptr.Release, d.revision, err)
		}
		return retryable(err)
	}
	e.mu.Lock()
	cur := e.active
	e.mu.Unlock()
	if rec.ID == cur.Release {
		e.srv.SetState(State{Desired: rec.ID})
		e.notify()
		return false
	}
	if !ptr.Replay && cur.Release != "" && rec.Seq < cur.Seq {
		e.log.Warn("ignoring an older release (only a replay moves back)", "release", rec.ID, "serving", cur.Release)
		return false
	}
	start := time.Now()
	e.srv.SetState(State{Desired: rec.ID, Converging: true})
	e.notify()
	dir := filepath.Join(releasesDir(e.cfg.DataDir), rec.ID)
	// Counted before the layout: an older set of this release (a replay
	// while a turn holds it) being freed now must not remove the folder.
	e.useDir(dir, rec)
	if err = e.layOut(ctx, rec, dir); err != nil {
		e.dropDir(dir)
		if ctx.Err() == nil {
			e.fail(ctx, rec.ID, d.revision, err) // both errors name the release
		}
		return retryable(err)
	}
	e.failpoint("laid-out")
	e.seedBundles(ctx, rec)
	ts := LoadToolSet(ctx, rec.ID, dir, e.cfg.Harness, e.hostOptions())
	e.failpoint("loaded")
	if e.newer() || ctx.Err() != nil {
		// A newer release arrived while this one loaded: the newest wins.
		ts.Discard()
		e.dropDir(dir)
		return false
	}
	act := activeRecord{Release: rec.ID, Seq: rec.Seq, Dir: dir, Failures: ts.Failures(), At: time.Now().UTC(), Record: raw}
	for _, t := range ts.Tools() {
		act.Tools = append(act.Tools, t.Name)
	}
	old := e.srv.Current()
	e.srv.Switch(ts)
	e.failpoint("switched")
	err = e.bundles.flushWith(func(tx *store.Tx) error {
		if err := tx.Put(bucketActive, keyActive, act); err != nil {
			return err
		}
		return e.putHistory(tx, rec)
	})
	if err != nil {
		// Serving is right; a restart loads the older set again, so its
		// folder is kept (until that restart removes the stale ones).
		e.log.Error("persist the loaded tool set", "release", rec.ID, "error", err)
	}
	e.failpoint("persisted")
	e.mu.Lock()
	e.active = act
	e.mu.Unlock()
	e.srv.SetState(State{Desired: rec.ID})
	if err == nil {
		e.freeWhenDone(ctx, old)
		e.collectDue = true
	}
	e.log.Info("converged", "release", rec.ID, "tools", len(act.Tools), "failed", len(act.Failures),
		"took", time.Since(start).Round(time.Millisecond))
	e.notify()
	e.publish(ctx, events.EventExecutorConverged, d.revision, map[string]any{"executor": e.cfg.ID, "release": rec.ID,
		"tools": act.Tools, "took_ms": time.Since(start).Milliseconds()})
	if len(act.Failures) > 0 {
		e.publish(ctx, events.EventToolsLoadFailed, d.revision, map[string]any{"executor": e.cfg.ID, "release": rec.ID, "failures": act.Failures})
	}
	return false
}

// verify checks the pointer d and the record it names (VerifyDesired).
func (e *Executor) verify(ctx context.Context, d desired) (release.Pointer, *release.Record, []byte, error) {
	return VerifyDesired(ctx, e.bus.Load(), e.cfg.TrustKey, e.cfg.Project, d.value, d.revision)
}

// permanent is a refusal trying again cannot change.
type permanent struct{ error }

func (p permanent) Unwrap() error { return p.error }

// retryable reports whether converging may succeed if tried again.
func retryable(err error) bool {
	var p permanent
	return !errors.As(err, &p) && !errors.Is(err, release.ErrBadSignature) && !errors.Is(err, release.ErrTampered)
}

// open decodes a signed envelope, verifying it when a trust key is set.
func (e *Executor) open(raw []byte, into any) error {
	return openEnvelope(e.cfg.TrustKey, raw, into)
}

func (e *Executor) failpoint(step string) {
	if e.cfg.Failpoint != nil {
		e.cfg.Failpoint(step)
	}
}

// freeWhenDone drops old's use of its folder once nothing uses the set.
func (e *Executor) freeWhenDone(ctx context.Context, old *ToolSet) {
	if old == nil {
		return
	}
	e.wg.Go(func() {
		select {
		case <-old.Done():
			e.dropDir(old.Dir())
			e.kick() // its content may be kept no more
		case <-ctx.Done():
			// removeStale at the next start deletes it.
		}
	})
}

// fail reports a release the executor could not converge on; it keeps
// serving its current set.
func (e *Executor) fail(ctx context.Context, id string, rev uint64, err error) {
	msg := err.Error()
	e.log.Error("converge failed; serving the current tool set", "release", id, "error", msg)
	e.srv.SetState(State{Desired: id, Error: msg})
	e.notify()
	typ := events.EventConvergeFailed
	if !retryable(err) {
		typ = events.EventReleaseRefused
	}
	e.publish(ctx, typ, rev, map[string]any{"executor": e.cfg.ID, "release": id, "error": msg})
}

// publish appends an event about the pointer of revision rev. The message
// id names the revision, not only the release: converging on a release
// again (a replay back to it) is a new event, not a duplicate the stream
// drops, while a retry for the same pointer is deduplicated.
func (e *Executor) publish(ctx context.Context, typ string, rev uint64, payload map[string]any) {
	bus := e.bus.Load()
	if bus == nil {
		return
	}
	b, _ := json.Marshal(payload)
	id := strings.Join([]string{typ, e.cfg.ID, fmt.Sprint(payload["release"]), fmt.Sprint(rev)}, ":")
	if err := bus.Publish(ctx, e.cfg.Project, typ, b, id); err != nil {
		e.log.Warn("publish event", "type", typ, "error", err)
	}
}
