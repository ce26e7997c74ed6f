package controller

import (
	"github.com/beeuni/beeuni/release"
)

// Rejection is the newest commit the controller refused to publish, as
// GET /status reports it: operators see it where they look (`beeuni status`,
// `beeuni up`), not only in `beeuni release ls`.
type Rejection struct {
	Release string `json:"release"`
	Commit  string `json:"commit"`
	Subject string `json:"subject"`
	// Finding is the first error, `beeuni.yaml:7: error: ...`; Findings
	// counts them all.
	Finding  string `json:"finding"`
	Findings int    `json:"findings"`
	// StaysOn is the release the fleet keeps ("" when none was published).
	StaysOn string `json:"stays_on,omitempty"`
}

// RejectionOf describes a rejected record; the fleet stays on desired.
// `beeuni status` builds it from NATS the same way.
func RejectionOf(rec *release.Record, desired string) *Rejection {
	return &Rejection{Release: rec.ID, Commit: rec.Commit, Subject: rec.Subject,
		Finding: rec.FirstFinding(), Findings: len(rec.Findings), StaysOn: desired}
}

// loadRejection reads the rejection the state remembers, so a restarted
// controller still reports it; nil when there is none or it cannot be read.
func (c *Controller) loadRejection(st state) *Rejection {
	if st.LastRejected == "" {
		return nil
	}
	_, rec, err := loadRelease(c.cfg.DB, st.LastRejected)
	if err != nil {
		c.log.Warn("the last rejected release is not readable: not reported in status", "release", st.LastRejected, "error", err)
		return nil
	}
	return RejectionOf(rec, st.Desired)
}
