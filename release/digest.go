package release

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
)

// digestHeader versions the digest encoding; a new encoding gets a new header.
const digestHeader = "beeuni-release-v1\n"

// Errors a receiving side tells apart: a record whose signature does not
// verify, and content (a record's entries or a file) that does not match its
// digest. Test with errors.Is.
var (
	ErrBadSignature = errors.New("bad signature")
	ErrTampered     = errors.New("tampered content")
)

// ContentError says which content failed its digest. Path is empty when the
// release digest itself (over the entries) does not match.
type ContentError struct {
	Path string
	Want string
	Got  string
}

func (e *ContentError) Error() string {
	if e.Path == "" {
		return fmt.Sprintf("tampered content: the entries digest to %s but the record says %s", e.Got, e.Want)
	}
	return fmt.Sprintf("tampered content: %s has sha256 %s, the release says %s", e.Path, e.Got, e.Want)
}

// Is makes errors.Is(err, ErrTampered) true.
func (e *ContentError) Is(target error) bool { return target == ErrTampered }

// Digest is the release digest of entries: SHA-256 (hex) over the header
// "beeuni-release-v1\n" followed, for each entry in byte order of its path,
// by `path NUL mode NUL digest LF` (mode as six octal digits, digest as 64
// hex digits). Paths never hold NUL, so the encoding is unambiguous. Size and
// blob hash are left out: the same tree gives the same digest, and the Git
// object format does not enter it.
func Digest(entries []Entry) string {
	if !slices.IsSortedFunc(entries, compareEntries) {
		entries = slices.Clone(entries)
		slices.SortFunc(entries, compareEntries)
	}
	h := sha256.New()
	writeDigestInput(h, entries)
	return hex.EncodeToString(h.Sum(nil))
}

func writeDigestInput(h hash.Hash, entries []Entry) {
	buf := make([]byte, 0, 256)
	buf = append(buf, digestHeader...)
	for _, e := range entries {
		buf = append(buf, e.Path...)
		buf = append(buf, 0)
		buf = append(buf, e.Mode...)
		buf = append(buf, 0)
		buf = append(buf, e.Digest...)
		buf = append(buf, '\n')
		if len(buf) >= 32<<10 {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	h.Write(buf)
}

func compareEntries(a, b Entry) int { return strings.Compare(a.Path, b.Path) }

// VerifyRecord checks a record's content against its digest: every path is a
// safe release path, every mode known, paths sorted and unique, the release
// digest recomputed from the entries equals rec.Digest, and the id carries
// that digest. A mismatch is a *ContentError (errors.Is ErrTampered).
func VerifyRecord(rec *Record) error {
	for i, e := range rec.Entries {
		if err := CheckPath(e.Path); err != nil {
			return fmt.Errorf("verify release %s: %w: %w", rec.ID, ErrTampered, err)
		}
		switch e.Mode {
		case ModeFile, ModeExecutable, ModeSymlink:
		default:
			return fmt.Errorf("verify release %s: %w: %s has unknown mode %q", rec.ID, ErrTampered, e.Path, e.Mode)
		}
		if len(e.Digest) != sha256.Size*2 || !isHex(e.Digest) {
			return fmt.Errorf("verify release %s: %w: %s has a malformed digest %q", rec.ID, ErrTampered, e.Path, e.Digest)
		}
		if i > 0 && rec.Entries[i-1].Path >= e.Path {
			return fmt.Errorf("verify release %s: %w: entries are not sorted and unique at %s", rec.ID, ErrTampered, e.Path)
		}
	}
	if b := rec.Bundles; b != nil && (len(b.Digest) != sha256.Size*2 || !isHex(b.Digest)) {
		return fmt.Errorf("verify release %s: %w: its bundles have a malformed digest %q", rec.ID, ErrTampered, b.Digest)
	}
	if got := Digest(rec.Entries); got != rec.Digest {
		return fmt.Errorf("verify release %s: %w", rec.ID, &ContentError{Want: rec.Digest, Got: got})
	}
	if rec.ID != "" && rec.ID != FormatID(rec.Seq, rec.Digest) {
		return fmt.Errorf("verify release %s: %w: the id does not match seq %d and digest %s", rec.ID, ErrTampered, rec.Seq, rec.Digest)
	}
	return nil
}

// VerifyContent checks one file's bytes against its entry.
func VerifyContent(e Entry, content []byte) error {
	sum := sha256.Sum256(content)
	if got := hex.EncodeToString(sum[:]); got != e.Digest {
		return &ContentError{Path: e.Path, Want: e.Digest, Got: got}
	}
	return nil
}
