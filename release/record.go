// Package release builds a project's config release from one Git commit: the
// exact entries of the commit's tree (never the work tree), their content
// digests and the release digest, incrementally against the previous build.
// It defines the release record, signs and verifies it with ed25519, diffs two
// records and lays a release out on disk for an executor.
//
// The package knows nothing of NATS, bbolt or the executor: content is read
// through a Repo and written through an open function the caller supplies.
package release

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Mode is a tree entry's Git file mode, as Git writes it in octal.
type Mode string

// The modes a release holds. Directories are implied by paths.
const (
	ModeFile       Mode = "100644"
	ModeExecutable Mode = "100755"
	ModeSymlink    Mode = "120000"
)

// Entry is one file of a release.
type Entry struct {
	// Path is slash-separated and relative to the repository root.
	Path string `json:"path"`
	Mode Mode   `json:"mode"`
	Size int64  `json:"size"`
	// Blob is the Git blob hash (hex); it lets a build reuse the digest of an
	// unchanged blob and lets the controller read the content from the repo.
	Blob string `json:"blob"`
	// Digest is the SHA-256 (hex) of the blob bytes; for a symlink these are
	// the bytes of its target text.
	Digest string `json:"digest"`
}

// Submodule is a gitlink (mode 160000) the build skipped.
type Submodule struct {
	Path   string `json:"path"`
	Commit string `json:"commit"`
}

// Severity says whether a finding blocks the release (error) or not.
type Severity string

const (
	SeverityError   Severity = "error"
	SeverityWarning Severity = "warning"
)

// Finding is one problem at a file and a 1-based line (0: the whole file).
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
}

// String formats the finding as `path:7: error: <message>`.
func (f Finding) String() string {
	if f.Line <= 0 {
		return fmt.Sprintf("%s: %s: %s", f.File, f.Severity, f.Message)
	}
	return fmt.Sprintf("%s:%d: %s: %s", f.File, f.Line, f.Severity, f.Message)
}

// ToolRef is one tool of the resolved tool set, as the record keeps it.
type ToolRef struct {
	Name   string `json:"name"`
	Kind   string `json:"kind"`
	Source string `json:"source"`
	// Digest is the content digest of the tool's module (empty for a Beeuni
	// tool served from the binary, if the controller chooses so).
	Digest string `json:"digest"`
}

// Status values the controller sets on a record.
const (
	StatusPublished = "published"
	StatusRejected  = "rejected"
	StatusReplayed  = "replayed"
)

// Record is a release as stored, signed and sent to the fleet.
type Record struct {
	ID      string `json:"id"`
	Project string `json:"project"`
	Seq     uint64 `json:"seq"`
	Digest  string `json:"digest"`
	Commit  string `json:"commit"`
	// Covers lists the commits this release covers when several merges
	// landed in a burst and only the head was built (newest first).
	Covers     []string    `json:"covers,omitempty"`
	Subject    string      `json:"subject"`
	Author     string      `json:"author"`
	Time       time.Time   `json:"time"`
	BuiltAt    time.Time   `json:"built_at"`
	Previous   string      `json:"previous,omitempty"`
	Status     string      `json:"status"`
	Tools      []ToolRef   `json:"tools"`
	Warnings   []Finding   `json:"warnings,omitempty"`
	Findings   []Finding   `json:"findings,omitempty"`
	Submodules []Submodule `json:"submodules,omitempty"`
	Entries    []Entry     `json:"entries"`
	// Bundles is the content object holding the controller's bundles of
	// the project modules (a pack, see loader/bundle.Pack): an executor
	// whose host offers the same modules seeds its bundler with it and
	// loads without running esbuild. Optional: without it, or when it
	// cannot be fetched, an executor bundles the modules itself.
	Bundles *Blob `json:"bundles,omitempty"`
}

// Blob is a content object that is not a file of the tree.
type Blob struct {
	Digest string `json:"digest"` // sha256 hex, the content store's name
	Size   int64  `json:"size"`
}

// FirstFinding is the first finding that blocks the record (its first
// error, else its first finding), formatted as Finding.String; "" when none.
func (r *Record) FirstFinding() string {
	for _, f := range r.Findings {
		if f.Severity == SeverityError {
			return f.String()
		}
	}
	if len(r.Findings) > 0 {
		return r.Findings[0].String()
	}
	return ""
}

// idDigestLen is how many hex digits of the digest an id carries.
const idDigestLen = 12

// FormatID names a release: `r<seq>-<first 12 hex of digest>`, e.g.
// `r7-3f9a2c1d4e5b`.
func FormatID(seq uint64, digest string) string {
	d := digest
	if len(d) > idDigestLen {
		d = d[:idDigestLen]
	}
	return "r" + strconv.FormatUint(seq, 10) + "-" + d
}

// ParseID splits an id made by FormatID into its sequence and digest prefix.
func ParseID(id string) (seq uint64, digestPrefix string, err error) {
	rest, ok := strings.CutPrefix(id, "r")
	num, digest, ok2 := strings.Cut(rest, "-")
	if !ok || !ok2 || len(digest) != idDigestLen || !isHex(digest) {
		return 0, "", fmt.Errorf("parse release id %q: want r<seq>-<12 hex digits>, e.g. r7-3f9a2c1d4e5b", id)
	}
	seq, err = strconv.ParseUint(num, 10, 64)
	if err != nil {
		return 0, "", fmt.Errorf("parse release id %q: sequence %q is not a number", id, num)
	}
	return seq, digest, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// Valid reports whether the record has no error finding.
func (r *Record) Valid() bool { return !hasError(r.Findings) }

func hasError(fs []Finding) bool {
	for _, f := range fs {
		if f.Severity == SeverityError {
			return true
		}
	}
	return false
}
