// Package events is beeuni's NATS JetStream layer: the embedded server, a
// client that reconnects forever, and typed access to the streams and buckets
// named in docs/architecture.md. It carries values as opaque bytes; what they
// mean is the business of the controller and the executor.
package events

import (
	"errors"
	"fmt"
	"strings"
)

// NATS names; docs/architecture.md documents them for operators.
const (
	BucketDesired   = "beeuni_desired"   // KV, key <project>
	BucketReleases  = "beeuni_releases"  // Object Store, <project>/<release id>
	BucketContent   = "beeuni_content"   // Object Store, <sha256 hex>
	BucketExecutors = "beeuni_executors" // KV, key <project>.<executor id>
	BucketSecrets   = "beeuni_secrets"   // KV, key <project>.<NAME>
	StreamEvents    = "BEEUNI_EVENTS"    // stream, subjects beeuni.events.<project>.<type>
	EventsPrefix    = "beeuni.events"
)

// Event types the controller and the executor publish.
const (
	EventReleaseBuilt      = "release.built"
	EventReleaseRejected   = "release.rejected"
	EventReleaseReplayed   = "release.replayed"
	EventExecutorConverged = "executor.converged"
	EventToolsLoadFailed   = "tools.load_failed"
	// EventReleaseRefused: an executor refused a release that did not
	// verify (signature, content, project) or that was rejected.
	EventReleaseRefused = "executor.release_refused"
	// EventConvergeFailed: an executor could not converge yet (NATS, disk);
	// it keeps its tool set and retries.
	EventConvergeFailed = "executor.converge_failed"
)

// Sentinel errors, matched with errors.Is.
var (
	// ErrNotFound: the key, release or content does not exist.
	ErrNotFound = errors.New("not found")
	// ErrInvalidName: a project, executor id, secret name, event type or
	// digest cannot be used as given.
	ErrInvalidName = errors.New("invalid name")
)

// maxTokenLen keeps subjects and keys far below NATS limits.
const maxTokenLen = 128

// checkToken accepts what is safe as one NATS subject token and KV key part:
// letters, digits, '-' and '_'. what names the thing ("project") and fix
// tells the user how to change it.
func checkToken(what, s, fix string) error {
	if s == "" {
		return fmt.Errorf("%w: %s is empty (%s)", ErrInvalidName, what, fix)
	}
	if len(s) > maxTokenLen {
		return fmt.Errorf("%w: %s %.20q... is %d bytes, longer than %d (%s)", ErrInvalidName, what, s, len(s), maxTokenLen, fix)
	}
	for i := 0; i < len(s); i++ {
		if !tokenByte(s[i]) {
			bad := fmt.Sprintf("%q", rune(s[i]))
			if s[i] >= 0x80 {
				bad = "a non-ASCII character"
			}
			return fmt.Errorf("%w: %s %q has %s at byte %d; use only letters, digits, '-' and '_' (%s)", ErrInvalidName, what, s, bad, i, fix)
		}
	}
	return nil
}

func tokenByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// CheckProject reports whether name can be a project name on NATS.
func CheckProject(name string) error {
	return checkToken("project name", name, "pass --project with a name such as my-project")
}

// CheckExecutorID reports whether id can be an executor id on NATS.
func CheckExecutorID(id string) error {
	return checkToken("executor id", id, "pass --id with an id such as sandbox-1")
}

// CheckSecretName reports whether name can name a secret.
func CheckSecretName(name string) error {
	return checkToken("secret name", name, "name the secret like API_KEY")
}

// CheckEventType accepts dot-separated tokens, such as "release.built".
func CheckEventType(typ string) error {
	if typ == "" {
		return fmt.Errorf("%w: event type is empty (use a type such as %s)", ErrInvalidName, EventReleaseBuilt)
	}
	for _, part := range strings.Split(typ, ".") {
		if err := checkToken("event type part", part, "use a type such as "+EventReleaseBuilt); err != nil {
			return fmt.Errorf("event type %q: %w", typ, err)
		}
	}
	return nil
}

// CheckDigest accepts a SHA-256 digest as 64 lowercase hex characters.
func CheckDigest(digest string) error {
	if len(digest) != 64 {
		return fmt.Errorf("%w: content digest %q is %d characters; want 64 lowercase hex (a SHA-256)", ErrInvalidName, digest, len(digest))
	}
	for i := 0; i < len(digest); i++ {
		c := digest[i]
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return fmt.Errorf("%w: content digest %q has %q at %d; want 64 lowercase hex (a SHA-256)", ErrInvalidName, digest, rune(c), i)
		}
	}
	return nil
}

// ExecutorKey is the beeuni_executors key of one executor.
func ExecutorKey(project, id string) string { return project + "." + id }

// EventSubject is the subject of events of type typ for project.
func EventSubject(project, typ string) string {
	return EventsPrefix + "." + project + "." + typ
}
