package events

import (
	"context"
	"errors"
	"fmt"

	"github.com/nats-io/nats.go/jetstream"
)

// PutDesired makes value the desired release pointer of project and returns
// its revision. Revisions only grow, so a watcher can ignore older values.
func (b *Bus) PutDesired(ctx context.Context, project string, value []byte) (uint64, error) {
	if err := CheckProject(project); err != nil {
		return 0, fmt.Errorf("publish desired release: %w", err)
	}
	kv, err := b.kv(ctx, BucketDesired)
	if err != nil {
		return 0, fmt.Errorf("publish desired release of %s: %w", project, err)
	}
	rev, err := kv.Put(ctx, project, value)
	if err != nil {
		return 0, fmt.Errorf("publish desired release of %s to %s: %w%s", project, BucketDesired, err, hint(err))
	}
	return rev, nil
}

// GetDesired returns the desired release pointer of project and its
// revision, or an error wrapping ErrNotFound when none was published.
func (b *Bus) GetDesired(ctx context.Context, project string) ([]byte, uint64, error) {
	if err := CheckProject(project); err != nil {
		return nil, 0, fmt.Errorf("read desired release: %w", err)
	}
	kv, err := b.kv(ctx, BucketDesired)
	if err != nil {
		return nil, 0, fmt.Errorf("read desired release of %s: %w", project, err)
	}
	e, err := kv.Get(ctx, project)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, 0, fmt.Errorf("read desired release of %s: %w (no release published yet)", project, ErrNotFound)
	}
	if err != nil {
		return nil, 0, fmt.Errorf("read desired release of %s: %w%s", project, err, hint(err))
	}
	return e.Value(), e.Revision(), nil
}

// WatchDesired calls fn with the current desired release pointer of project
// at once (if there is one) and then with each newer one, until ctx ends; it
// returns nil then. It survives NATS restarts and reconnects: it watches
// again and never calls fn twice for a revision or with an older one.
// Deletions are ignored. fn runs on the caller's goroutine.
func (b *Bus) WatchDesired(ctx context.Context, project string, fn func(value []byte, revision uint64)) error {
	if err := CheckProject(project); err != nil {
		return fmt.Errorf("watch desired release: %w", err)
	}
	var last uint64
	return b.runWatch(ctx, kvWatch{
		bucket: BucketDesired,
		key:    project,
		entry: func(e jetstream.KeyValueEntry) {
			if e == nil || e.Operation() != jetstream.KeyValuePut || e.Revision() <= last {
				return
			}
			last = e.Revision()
			fn(e.Value(), e.Revision())
		},
		stale: func(ctx context.Context, kv jetstream.KeyValue) bool {
			e, err := kv.Get(ctx, project)
			return err == nil && e.Revision() > last
		},
	})
}
