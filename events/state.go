package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// PutExecutorState records the state of executor id of project.
func (b *Bus) PutExecutorState(ctx context.Context, project, id string, state []byte) error {
	if err := CheckProject(project); err != nil {
		return fmt.Errorf("report executor state: %w", err)
	}
	if err := CheckExecutorID(id); err != nil {
		return fmt.Errorf("report executor state: %w", err)
	}
	kv, err := b.kv(ctx, BucketExecutors)
	if err != nil {
		return fmt.Errorf("report state of executor %s: %w", id, err)
	}
	if _, err := kv.Put(ctx, ExecutorKey(project, id), state); err != nil {
		return fmt.Errorf("report state of executor %s to %s: %w%s", id, BucketExecutors, err, hint(err))
	}
	return nil
}

// ExecutorStates returns the state of each executor of project by id.
func (b *Bus) ExecutorStates(ctx context.Context, project string) (map[string][]byte, error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("read executor states: %w", err)
	}
	out, err := b.snapshot(ctx, BucketExecutors, project)
	if err != nil {
		return nil, fmt.Errorf("read executor states of %s: %w", project, err)
	}
	return out, nil
}

// SetSecret stores the secret name of project. The value never appears in
// errors or logs.
func (b *Bus) SetSecret(ctx context.Context, project, name, value string) error {
	if err := checkSecret(project, name); err != nil {
		return fmt.Errorf("set secret: %w", err)
	}
	kv, err := b.kv(ctx, BucketSecrets)
	if err != nil {
		return fmt.Errorf("set secret %s: %w", name, err)
	}
	if _, err := kv.Put(ctx, project+"."+name, []byte(value)); err != nil {
		return fmt.Errorf("set secret %s of %s: %w%s", name, project, err, hint(err))
	}
	return nil
}

// DeleteSecret removes the secret name of project; a missing one is no error.
func (b *Bus) DeleteSecret(ctx context.Context, project, name string) error {
	if err := checkSecret(project, name); err != nil {
		return fmt.Errorf("delete secret: %w", err)
	}
	kv, err := b.kv(ctx, BucketSecrets)
	if err != nil {
		return fmt.Errorf("delete secret %s: %w", name, err)
	}
	if err := kv.Delete(ctx, project+"."+name); err != nil && !errors.Is(err, jetstream.ErrKeyNotFound) {
		return fmt.Errorf("delete secret %s of %s: %w%s", name, project, err, hint(err))
	}
	return nil
}

// Secrets returns project's secrets by name, read now.
func (b *Bus) Secrets(ctx context.Context, project string) (map[string]string, error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("read secrets: %w", err)
	}
	raw, err := b.snapshot(ctx, BucketSecrets, project)
	if err != nil {
		return nil, fmt.Errorf("read secrets of %s: %w", project, err)
	}
	out := make(map[string]string, len(raw))
	for k, v := range raw {
		out[k] = string(v)
	}
	return out, nil
}

func checkSecret(project, name string) error {
	if err := CheckProject(project); err != nil {
		return err
	}
	return CheckSecretName(name)
}

// snapshot reads every live key "<project>.*" of bucket by the suffix, in
// one watch (one round trip for the whole set instead of one per key).
func (b *Bus) snapshot(ctx context.Context, bucket, project string) (map[string][]byte, error) {
	kv, err := b.kv(ctx, bucket)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, b.js.Options().DefaultTimeout)
	defer cancel()
	w, err := kv.Watch(ctx, project+".*", jetstream.IgnoreDeletes())
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w%s", bucket, err, hint(err))
	}
	defer stopWatch(w)
	out := map[string][]byte{}
	for {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("read %s: %w%s", bucket, ctx.Err(), hint(ctx.Err()))
		case e, ok := <-w.Updates():
			if !ok {
				return nil, fmt.Errorf("read %s: %w", bucket, errWatchEnded)
			}
			if e == nil {
				return out, nil
			}
			out[strings.TrimPrefix(e.Key(), project+".")] = e.Value()
		}
	}
}

// SecretWatcher keeps an in-memory copy of a project's secrets current, so a
// tool call reads them as they are now without a round trip.
type SecretWatcher struct {
	bus     *Bus
	project string

	mu      sync.RWMutex
	secrets map[string]string
	ready   chan struct{}
	once    sync.Once
}

// NewSecretWatcher returns a watcher of project's secrets; Run it.
func (b *Bus) NewSecretWatcher(project string) (*SecretWatcher, error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("watch secrets: %w", err)
	}
	return &SecretWatcher{bus: b, project: project, secrets: map[string]string{}, ready: make(chan struct{})}, nil
}

// Run keeps the copy current until ctx ends, watching again after NATS
// restarts; it returns nil then.
func (s *SecretWatcher) Run(ctx context.Context) error {
	prefix := s.project + "."
	// Each (re)started watch delivers every live secret before its nil
	// marker; it builds a fresh map swapped in at the marker, so a secret
	// deleted while the watch was down is dropped too.
	var next map[string]string
	var initial bool
	return s.bus.runWatch(ctx, kvWatch{
		bucket: BucketSecrets,
		key:    prefix + "*",
		begin: func() {
			next, initial = map[string]string{}, true
		},
		entry: func(e jetstream.KeyValueEntry) {
			if e == nil {
				s.mu.Lock()
				s.secrets, initial = next, false
				s.mu.Unlock()
				s.once.Do(func() { close(s.ready) })
				return
			}
			name := strings.TrimPrefix(e.Key(), prefix)
			if initial {
				if e.Operation() == jetstream.KeyValuePut {
					next[name] = string(e.Value())
				}
				return
			}
			s.mu.Lock()
			defer s.mu.Unlock()
			// Copy on write: Snapshot hands out the map itself.
			m := make(map[string]string, len(s.secrets)+1)
			for k, v := range s.secrets {
				m[k] = v
			}
			if e.Operation() == jetstream.KeyValuePut {
				m[name] = string(e.Value())
			} else {
				delete(m, name)
			}
			s.secrets = m
		},
	})
}

// Ready is closed once the first full set of secrets is loaded.
func (s *SecretWatcher) Ready() <-chan struct{} { return s.ready }

// Get returns the secret name as it is now.
func (s *SecretWatcher) Get(name string) (string, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	v, ok := s.secrets[name]
	return v, ok
}

// Snapshot returns all secrets as they are now; the map must not be modified.
func (s *SecretWatcher) Snapshot() map[string]string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.secrets
}
