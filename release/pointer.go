package release

import "time"

// Pointer names the release the fleet of a project must run. The controller
// signs it and puts it in the desired-release bucket; an executor verifies it,
// then fetches and verifies the record it names.
type Pointer struct {
	Project string `json:"project"`
	Release string `json:"release"`
	Digest  string `json:"digest"`
	Seq     uint64 `json:"seq"`
	// Replay is set when an operator made an earlier release the fleet's
	// release again: executors may then move to a lower sequence.
	Replay bool      `json:"replay,omitempty"`
	At     time.Time `json:"at"`
}
