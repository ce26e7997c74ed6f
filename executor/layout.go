package executor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/beeuni/beeuni/release"
)

// errNoNATS: content the cache lacks cannot be fetched yet.
var errNoNATS = errors.New("NATS is not connected yet")

// layOut makes dir hold exactly rec, and verifies every file against the
// signed record (type, mode, SHA-256) before it is served, whether dir was
// just laid out or was there already (a restart, a replay). Files that
// fail are deleted, from the content cache too when the cached copy is the
// bad one (release folders hard-link it), and laid out again, fetching
// what the cache no longer has. Before NATS is connected only the cache
// can heal.
func (e *Executor) layOut(ctx context.Context, rec *release.Record, dir string) error {
	for healed := false; ; healed = true {
		var problems []release.Problem
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
			if err := e.prefetch(ctx, rec); err != nil {
				return err
			}
			err := release.WriteTreeWith(dir, rec, e.opener(ctx), release.WriteOptions{Link: e.cached, Reuse: spareDir(e.cfg.DataDir), Volatile: true})
			var ce *release.ContentError
			switch {
			case errors.As(err, &ce):
				// A cached copy that is not what its name says was copied.
				problems = []release.Problem{{Path: ce.Path, Digest: ce.Want, Reason: err.Error()}}
			case err != nil:
				return err
			}
		}
		if problems == nil {
			problems = release.VerifyTree(dir, rec, true)
		}
		if len(problems) == 0 {
			return nil
		}
		if healed {
			return fmt.Errorf("lay out release %s: %d files fail verification even laid out again (%s)", rec.ID, len(problems), problems[0])
		}
		e.heal(rec, dir, problems)
	}
}

// heal deletes what failed verification in dir: the cache's copy of each
// failed content when that copy is bad too, and the folder, which layOut
// then lays out again.
func (e *Executor) heal(rec *release.Record, dir string, problems []release.Problem) {
	e.log.Warn("laid-out files fail verification against the signed record: deleting them and laying them out again",
		"release", rec.ID, "files", len(problems), "first", problems[0].String())
	for _, p := range problems {
		if p.Digest != "" && !e.cacheIntact(p.Digest) {
			if err := os.Remove(e.cachePath(p.Digest)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				e.log.Warn("delete a bad cached copy", "digest", p.Digest, "error", err)
			}
		}
	}
	if err := removeTree(dir); err != nil {
		e.log.Warn("delete a release folder that fails verification", "dir", dir, "error", err)
	}
}

// cacheIntact reports whether the cache holds digest's content, unchanged.
func (e *Executor) cacheIntact(digest string) bool {
	f, err := os.Open(e.cachePath(digest))
	if err != nil {
		return false
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return false
	}
	return hex.EncodeToString(h.Sum(nil)) == digest
}

// removeTree deletes dir, making its folders writable first if it must
// (a tool may have taken the write bit off one).
func removeTree(dir string) error {
	if os.RemoveAll(dir) == nil {
		return nil
	}
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			_ = os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}
