package executor

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// The checks an executor makes of a release before it lays it out, as
// functions of a connection and a trust key, so that `beeuni bench fleet`
// times this code path on many light subscribers without the JS host.

// ErrDamagedContent: the object store's copy of content does not hash to
// its name. Converging tries again: the controller puts it back from Git.
var ErrDamagedContent = errors.New("NATS holds a damaged copy")

// Retryable reports whether a failure of VerifyDesired or FetchContent may
// pass when tried again (NATS away, a replica not caught up yet, a damaged
// copy the controller puts back); a refusal (a bad signature, a tampered
// or rejected record, another project) never does.
func Retryable(err error) bool { return retryable(err) }

// RetryDelay is how long converging waits before trying a release again,
// given its previous wait (0 the first time): doubling, capped.
func RetryDelay(prev time.Duration) time.Duration { return min(max(2*prev, retryMin), retryMax) }

// VerifyDesired checks a desired-release pointer (value, of KV revision
// revision) and the record it names: signatures (with trust; nil skips
// them), the record's digest over its entries, and that both agree. It
// returns the record's signed envelope too, to keep with the tool set.
func VerifyDesired(ctx context.Context, bus *events.Bus, trust ed25519.PublicKey, project string, value []byte, revision uint64) (release.Pointer, *release.Record, []byte, error) {
	var ptr release.Pointer
	if err := openEnvelope(trust, value, &ptr); err != nil {
		return ptr, nil, nil, permanent{fmt.Errorf("refused the desired-release pointer (revision %d): %w", revision, err)}
	}
	if ptr.Project != project {
		return ptr, nil, nil, permanent{fmt.Errorf("refused release %s: it is for project %q, not %q", ptr.Release, ptr.Project, project)}
	}
	if bus == nil {
		return ptr, nil, nil, errNoNATS
	}
	raw, err := bus.GetRelease(ctx, project, ptr.Release)
	if err != nil {
		return ptr, nil, nil, fmt.Errorf("fetch release %s: %w", ptr.Release, err)
	}
	var rec release.Record
	if err := openEnvelope(trust, raw, &rec); err != nil {
		return ptr, nil, nil, permanent{fmt.Errorf("refused release %s: %w", ptr.Release, err)}
	}
	if err := release.VerifyRecord(&rec); err != nil {
		return ptr, nil, nil, fmt.Errorf("refused release %s: %w", ptr.Release, err)
	}
	if rec.ID != ptr.Release || rec.Digest != ptr.Digest || rec.Project != project {
		return ptr, nil, nil, fmt.Errorf("refused release %s: the record (%s, digest %s) does not match the pointer (digest %s): %w",
			ptr.Release, rec.ID, rec.Digest, ptr.Digest, release.ErrTampered)
	}
	if rec.Status == release.StatusRejected {
		return ptr, nil, nil, permanent{fmt.Errorf("refused release %s: it was rejected by the controller", rec.ID)}
	}
	return ptr, &rec, raw, nil
}

// MissingDigests lists, once each, the content digests of rec that have
// says are not held; malformed digests are left out (WriteTree refuses them).
func MissingDigests(rec *release.Record, have func(digest string) bool) []string {
	var missing []string
	seen := make(map[string]bool, len(rec.Entries))
	for _, en := range rec.Entries {
		if seen[en.Digest] || events.CheckDigest(en.Digest) != nil {
			continue
		}
		seen[en.Digest] = true
		if !have(en.Digest) {
			missing = append(missing, en.Digest)
		}
	}
	return missing
}

// FetchContent copies the content stored under digest to w and checks that
// its SHA-256 is digest; w has had unverified bytes when it fails.
func FetchContent(ctx context.Context, bus *events.Bus, digest string, w io.Writer) error {
	if bus == nil {
		return errNoNATS
	}
	h := sha256.New()
	if err := bus.GetContent(ctx, digest, io.MultiWriter(w, h)); err != nil {
		return err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != digest {
		// Not a refusal: the store's copy is damaged, and the
		// controller puts it back from Git before its next publish.
		return fmt.Errorf("%w (its sha256 is %s); retrying until the controller puts it back", ErrDamagedContent, got)
	}
	return nil
}

// openEnvelope decodes a signed envelope, verifying it when trust is set.
func openEnvelope(trust ed25519.PublicKey, raw []byte, into any) error {
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return fmt.Errorf("not a signed envelope: %w", err)
	}
	if trust != nil {
		return release.Verify(trust, env, into)
	}
	return json.Unmarshal(env.Payload, into)
}
