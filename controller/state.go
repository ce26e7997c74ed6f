package controller

import (
	"fmt"

	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// bbolt layout of the controller's state.
const (
	bucketMeta     = "controller"
	bucketReleases = "releases"
	bucketPacks    = "packs" // the bundle pack of the newest build, by digest
	keyState       = "state"
	keySnapshot    = "snapshot"
)

// state is the controller's progress; it changes in one transaction with the
// release that changes it, so a restart resumes exactly where it stopped.
type state struct {
	// LastCommit is the last commit built (published or rejected): the
	// controller never builds it again.
	LastCommit string `json:"last_commit,omitempty"`
	Seq        uint64 `json:"seq"`
	// Desired is the release the fleet was last told to run.
	Desired string `json:"desired,omitempty"`
	// LastPublished is the newest release built from the branch and
	// published; the next build's previous release.
	LastPublished string `json:"last_published,omitempty"`
	// Pending is a release built, signed and stored but not yet published:
	// after a crash it is published, not built again.
	Pending string `json:"pending,omitempty"`
	Pin     *pin   `json:"pin,omitempty"`
	// LastRejected is the newest release rejected since the last one
	// published: status reports it until a commit is published.
	LastRejected string `json:"last_rejected,omitempty"`
}

// pin is left by a replay: the fleet keeps Release until the branch head
// moves past Head.
type pin struct {
	Release string `json:"release"`
	Head    string `json:"head"`
}

// stored is a release as the controller keeps it: the signed record, its
// status and the signed pointer it was (or will be) published with.
type stored struct {
	Status   string           `json:"status"`
	Envelope release.Envelope `json:"envelope"`
}

func loadState(db *store.DB) (state, error) {
	var st state
	err := db.View(func(tx *store.Tx) error {
		_, err := tx.Get(bucketMeta, keyState, &st)
		return err
	})
	if err != nil {
		return state{}, fmt.Errorf("read controller state: %w", err)
	}
	return st, nil
}

func putState(tx *store.Tx, st state) error {
	return tx.Put(bucketMeta, keyState, st)
}

// loadRelease returns a stored release and its verified record.
func loadRelease(db *store.DB, id string) (stored, *release.Record, error) {
	var s stored
	var found bool
	err := db.View(func(tx *store.Tx) error {
		var err error
		found, err = tx.Get(bucketReleases, id, &s)
		return err
	})
	if err != nil {
		return stored{}, nil, fmt.Errorf("read release %s: %w", id, err)
	}
	if !found {
		return stored{}, nil, fmt.Errorf("read release %s: no such release (run `beeuni release ls`)", id)
	}
	var rec release.Record
	if err := jsonUnmarshal(s.Envelope.Payload, &rec); err != nil {
		return stored{}, nil, fmt.Errorf("read release %s: %w", id, err)
	}
	return s, &rec, nil
}
