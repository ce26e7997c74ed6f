package controller

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// ReplayRequest is the body of a replay control request.
type ReplayRequest struct {
	Release string `json:"release"`
}

// ReplayAnswer says what a replay did.
type ReplayAnswer struct {
	Release string `json:"release"`
	Commit  string `json:"commit"`
	// HoldsUntil is the branch head the pin holds against: the fleet keeps
	// the replayed release until a commit other than this one lands.
	HoldsUntil string `json:"holds_until"`
}

func (c *Controller) serveReplay(ctx context.Context) (func(), error) {
	return c.cfg.Bus.ServeControl(ctx, c.cfg.Project, "replay", func(ctx context.Context, body []byte) ([]byte, error) {
		var req ReplayRequest
		if err := json.Unmarshal(body, &req); err != nil || req.Release == "" {
			return nil, fmt.Errorf("replay: the request must be {\"release\": \"<id>\"}")
		}
		ans, err := c.Replay(ctx, req.Release)
		if err != nil {
			return nil, err
		}
		return json.Marshal(ans)
	})
}

// Replay makes the earlier release id the fleet's release again. It holds:
// the controller publishes nothing from the branch until a new commit lands.
func (c *Controller) Replay(ctx context.Context, id string) (ReplayAnswer, error) {
	c.buildMu.Lock()
	defer c.buildMu.Unlock()
	st, err := loadState(c.cfg.DB)
	if err != nil {
		return ReplayAnswer{}, err
	}
	s, rec, err := loadRelease(c.cfg.DB, id)
	if err != nil {
		return ReplayAnswer{}, fmt.Errorf("replay %s: %w", id, err)
	}
	if s.Status == release.StatusRejected {
		return ReplayAnswer{}, fmt.Errorf("replay %s: it was rejected (%d findings) and never reached the fleet: pick a published release from `beeuni release ls`", id, len(rec.Findings))
	}
	if st.Pending != "" {
		return ReplayAnswer{}, fmt.Errorf("replay %s: release %s is still being published: try again in a moment", id, st.Pending)
	}
	// Its content may have been lost since it was published.
	if err := c.uploadContent(ctx, rec, ""); err != nil {
		return ReplayAnswer{}, fmt.Errorf("replay %s: %w", id, err)
	}
	if err := c.putDesired(ctx, rec, true); err != nil {
		return ReplayAnswer{}, fmt.Errorf("replay %s: %w", id, err)
	}
	if err := c.cfg.Bus.Publish(ctx, c.cfg.Project, events.EventReleaseReplayed, mustJSON(eventOf(rec)), ""); err != nil {
		c.log.Warn("publish release.replayed event failed", "release", id, "error", err)
	}
	st.Desired = id
	st.Pin = &pin{Release: id, Head: st.LastCommit}
	if err := c.cfg.DB.Update(func(tx *store.Tx) error { return putState(tx, st) }); err != nil {
		return ReplayAnswer{}, fmt.Errorf("replay %s: store the pin: %w", id, err)
	}
	c.log.Info("release replayed", "release", id, "commit", rec.Commit, "holds_until", st.LastCommit)
	c.setStatus(func(s *Status) {
		s.Desired, s.Pinned = id, id
		if s.Rejected != nil {
			r := *s.Rejected
			r.StaysOn = id
			s.Rejected = &r
		}
	})
	return ReplayAnswer{Release: id, Commit: rec.Commit, HoldsUntil: st.LastCommit}, nil
}
