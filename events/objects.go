package events

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/nats-io/nats.go/jetstream"
)

// ErrConflict: an immutable record already exists with other content.
var ErrConflict = errors.New("already stored with other content")

// CheckReleaseID accepts letters, digits, '-', '_' and '.' (not leading).
func CheckReleaseID(id string) error {
	fix := "release ids look like 000042-1a2b3c4d5e6f"
	if id == "" || id[0] == '.' {
		return fmt.Errorf("%w: release id %q must start with a letter, digit, '-' or '_' (%s)", ErrInvalidName, id, fix)
	}
	return checkToken("release id", strings.ReplaceAll(id, ".", "_"), fix)
}

func releaseObject(project, id string) string { return project + "/" + id }

// PutRelease stores the release record data of project under id. Records
// are immutable: storing the same bytes again is a no-op, other bytes under
// an existing id fail with ErrConflict.
func (b *Bus) PutRelease(ctx context.Context, project, id string, data []byte) error {
	if err := checkRelease(project, id); err != nil {
		return fmt.Errorf("store release: %w", err)
	}
	name := releaseObject(project, id)
	os, err := b.obj(ctx, BucketReleases)
	if err != nil {
		return fmt.Errorf("store release %s: %w", name, err)
	}
	info, err := os.GetInfo(ctx, name)
	switch {
	case err == nil && !info.Deleted:
		sum := sha256.Sum256(data)
		if info.Digest == "SHA-256="+base64.URLEncoding.EncodeToString(sum[:]) {
			return nil
		}
		return fmt.Errorf("store release %s: %w (release records are immutable; build a new release instead)", name, ErrConflict)
	case err != nil && !errors.Is(err, jetstream.ErrObjectNotFound):
		return fmt.Errorf("store release %s: %w%s", name, err, hint(err))
	}
	if _, err := os.Put(ctx, jetstream.ObjectMeta{Name: name}, bytes.NewReader(data)); err != nil {
		return fmt.Errorf("store release %s in %s: %w%s", name, BucketReleases, err, hint(err))
	}
	return nil
}

// GetRelease returns the release record of project stored under id, or an
// error wrapping ErrNotFound.
func (b *Bus) GetRelease(ctx context.Context, project, id string) ([]byte, error) {
	if err := checkRelease(project, id); err != nil {
		return nil, fmt.Errorf("read release: %w", err)
	}
	name := releaseObject(project, id)
	rc, err := b.readObject(ctx, BucketReleases, name)
	var data []byte
	if err == nil {
		data, err = io.ReadAll(rc)
		rc.Close()
	}
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("read release %s: %w (list releases with `beeuni release ls`)", name, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("read release %s: %w%s", name, err, hint(err))
	}
	return data, nil
}

// ListReleases returns the ids of project's stored releases in string order.
func (b *Bus) ListReleases(ctx context.Context, project string) ([]string, error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("list releases: %w", err)
	}
	os, err := b.obj(ctx, BucketReleases)
	if err != nil {
		return nil, fmt.Errorf("list releases of %s: %w", project, err)
	}
	infos, err := os.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list releases of %s: %w%s", project, err, hint(err))
	}
	prefix := project + "/"
	var ids []string
	for _, info := range infos {
		if id, ok := strings.CutPrefix(info.Name, prefix); ok && !info.Deleted {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	return ids, nil
}

func checkRelease(project, id string) error {
	if err := CheckProject(project); err != nil {
		return err
	}
	return CheckReleaseID(id)
}

// HasContent reports whether content with this sha256 hex digest is stored.
func (b *Bus) HasContent(ctx context.Context, digest string) (bool, error) {
	if err := CheckDigest(digest); err != nil {
		return false, fmt.Errorf("look up content: %w", err)
	}
	os, err := b.obj(ctx, BucketContent)
	if err != nil {
		return false, fmt.Errorf("look up content %s: %w", digest, err)
	}
	info, err := os.GetInfo(ctx, digest)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("look up content %s: %w%s", digest, err, hint(err))
	}
	return !info.Deleted, nil
}

// listAbove is how many digests MissingContent looks up one by one; past
// it, one listing of the bucket is cheaper.
const listAbove = 64

// MissingContent returns those of digests (sha256 hex) not stored intact:
// absent, deleted, or stored with bytes whose SHA-256 (the object store's
// own digest of what it holds) is not the name. It reads no content.
func (b *Bus) MissingContent(ctx context.Context, digests []string) ([]string, error) {
	for _, d := range digests {
		if err := CheckDigest(d); err != nil {
			return nil, fmt.Errorf("look up content: %w", err)
		}
	}
	os, err := b.obj(ctx, BucketContent)
	if err != nil {
		return nil, fmt.Errorf("look up content: %w", err)
	}
	stored := func(d string) (string, bool, error) {
		info, err := os.GetInfo(ctx, d)
		if errors.Is(err, jetstream.ErrObjectNotFound) {
			return "", false, nil
		}
		if err != nil {
			return "", false, fmt.Errorf("look up content %s: %w%s", d, err, hint(err))
		}
		return info.Digest, !info.Deleted, nil
	}
	if len(digests) > listAbove {
		infos, err := os.List(ctx)
		if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
			return nil, fmt.Errorf("list content: %w%s", err, hint(err))
		}
		byName := make(map[string]string, len(infos))
		for _, info := range infos {
			if !info.Deleted {
				byName[info.Name] = info.Digest
			}
		}
		stored = func(d string) (string, bool, error) {
			sum, ok := byName[d]
			return sum, ok, nil
		}
	}
	var missing []string
	for _, d := range digests {
		sum, ok, err := stored(d)
		if err != nil {
			return nil, err
		}
		if !ok || sum != objectDigest(d) {
			missing = append(missing, d)
		}
	}
	return missing, nil
}

// objectDigest is how the object store writes the SHA-256 of hex digest d.
func objectDigest(d string) string {
	raw, err := hex.DecodeString(d)
	if err != nil {
		return ""
	}
	return "SHA-256=" + base64.URLEncoding.EncodeToString(raw)
}

// PutContent stores r under digest unless content is stored intact there
// already; stored bytes that do not hash to digest are replaced. It fails
// with ErrConflict, storing nothing, when r itself does not hash to digest.
func (b *Bus) PutContent(ctx context.Context, digest string, r io.Reader) error {
	missing, err := b.MissingContent(ctx, []string{digest})
	if err != nil {
		return fmt.Errorf("store content: %w", err)
	}
	if len(missing) == 0 {
		return nil
	}
	os, err := b.obj(ctx, BucketContent)
	if err != nil {
		return fmt.Errorf("store content %s: %w", digest, err)
	}
	info, err := os.Put(ctx, jetstream.ObjectMeta{Name: digest}, r)
	if err != nil {
		return fmt.Errorf("store content %s in %s: %w%s", digest, BucketContent, err, hint(err))
	}
	if info.Digest != objectDigest(digest) {
		_ = os.Delete(ctx, digest)
		return fmt.Errorf("store content %s: %w: what was given hashes to %s", digest, ErrConflict, info.Digest)
	}
	return nil
}

// OpenContent returns a reader of the content stored under digest, or an
// error wrapping ErrNotFound. Close it when done.
func (b *Bus) OpenContent(ctx context.Context, digest string) (io.ReadCloser, error) {
	if err := CheckDigest(digest); err != nil {
		return nil, fmt.Errorf("fetch content: %w", err)
	}
	res, err := b.readObject(ctx, BucketContent, digest)
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, fmt.Errorf("fetch content %s: %w (the controller stores content before it publishes a release)", digest, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("fetch content %s: %w%s", digest, err, hint(err))
	}
	return res, nil
}

// GetContent copies the content stored under digest to w.
func (b *Bus) GetContent(ctx context.Context, digest string, w io.Writer) error {
	rc, err := b.OpenContent(ctx, digest)
	if err != nil {
		return err
	}
	defer rc.Close()
	if _, err := io.Copy(w, rc); err != nil {
		return fmt.Errorf("fetch content %s: %w%s", digest, err, hint(err))
	}
	return nil
}
