package events

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Client defaults.
const (
	DefaultURL            = "nats://127.0.0.1:4222"
	DefaultReconnectWait  = 250 * time.Millisecond
	DefaultMaxReconnect   = 5 * time.Second
	DefaultResyncInterval = 5 * time.Second
	DefaultEventsMaxAge   = 7 * 24 * time.Hour
	DefaultDedupWindow    = 2 * time.Minute
	drainTimeout          = 5 * time.Second
)

// Options configure Connect.
type Options struct {
	Name   string       // the connection name servers show, e.g. "beeuni-executor sandbox-1"
	Logger *slog.Logger // connection changes; nil discards
	// RetryOnFailedConnect returns at once when the server is not reachable
	// yet and keeps connecting in the background, for an executor that serves
	// its last tool set while NATS is down. Without it Connect fails with an
	// error that says how to start NATS.
	RetryOnFailedConnect bool
	ReconnectWait        time.Duration // first backoff step; default DefaultReconnectWait
	MaxReconnectWait     time.Duration // backoff ceiling; default DefaultMaxReconnect
	// ResyncInterval is how often a watcher checks it has not missed an
	// update (a safety net behind re-watching on reconnect).
	ResyncInterval time.Duration
}

// Bus is a NATS connection with JetStream and beeuni's streams and buckets.
// It is safe for concurrent use.
type Bus struct {
	nc     *nats.Conn
	js     jetstream.JetStream
	log    *slog.Logger
	url    string
	resync time.Duration

	mu      sync.Mutex // guards the handle caches and reconn
	kvs     map[string]jetstream.KeyValue
	objs    map[string]jetstream.ObjectStore
	streams map[string]jetstream.Stream // object stores' streams, for readDirect
	reconn  chan struct{}               // closed and replaced on every reconnect
	closed  chan struct{}               // closed by the connection's closed handler
	closeMu sync.Once

	directReads, consumerReads atomic.Int64 // see ObjectReads
}

// Connect dials url (a comma-separated list for a cluster) and keeps
// reconnecting forever with capped, jittered backoff.
func Connect(ctx context.Context, url string, o Options) (*Bus, error) {
	if url == "" {
		url = DefaultURL
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.ReconnectWait <= 0 {
		o.ReconnectWait = DefaultReconnectWait
	}
	if o.MaxReconnectWait <= 0 {
		o.MaxReconnectWait = DefaultMaxReconnect
	}
	if o.ResyncInterval <= 0 {
		o.ResyncInterval = DefaultResyncInterval
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w", url, err)
	}
	b := &Bus{
		log:     o.Logger.With("component", "nats"),
		url:     url,
		resync:  o.ResyncInterval,
		kvs:     map[string]jetstream.KeyValue{},
		objs:    map[string]jetstream.ObjectStore{},
		streams: map[string]jetstream.Stream{},
		reconn:  make(chan struct{}),
		closed:  make(chan struct{}),
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		// No buffering while disconnected: requests fail at once and the
		// caller's retry decides, instead of each waiting out its timeout.
		nats.ReconnectBufSize(-1),
		nats.CustomReconnectDelay(func(attempts int) time.Duration {
			return backoff(attempts, o.ReconnectWait, o.MaxReconnectWait)
		}),
		nats.ConnectHandler(func(nc *nats.Conn) {
			b.log.Info("nats connected", "url", nc.ConnectedUrlRedacted())
		}),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
			b.log.Warn("nats disconnected", "err", err)
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			b.log.Info("nats reconnected", "url", nc.ConnectedUrlRedacted())
			b.mu.Lock()
			close(b.reconn)
			b.reconn = make(chan struct{})
			b.mu.Unlock()
		}),
		nats.ClosedHandler(func(_ *nats.Conn) {
			b.log.Info("nats connection closed")
			b.closeMu.Do(func() { close(b.closed) })
		}),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			subj := ""
			if sub != nil {
				subj = sub.Subject
			}
			b.log.Warn("nats async error", "subject", subj, "err", err)
		}),
	}
	if o.RetryOnFailedConnect {
		opts = append(opts, nats.RetryOnFailedConnect(true))
	}
	nc, err := nats.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w (start `beeuni up` or pass --nats)", url, err)
	}
	js, err := jetstream.New(nc)
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("connect to NATS at %s: jetstream: %w", url, err)
	}
	b.nc, b.js = nc, js
	return b, nil
}

// backoff doubles from base up to ceiling and adds up to 50% jitter so a
// fleet does not reconnect in lockstep.
func backoff(attempt int, base, ceiling time.Duration) time.Duration {
	d := base
	for i := 0; i < attempt && d < ceiling; i++ {
		d *= 2
	}
	d = min(d, ceiling)
	return d + rand.N(d/2+1)
}

// JetStream is the underlying JetStream context.
func (b *Bus) JetStream() jetstream.JetStream { return b.js }

// Connected reports whether the connection is up now.
func (b *Bus) Connected() bool { return b.nc.IsConnected() }

// Close drains the connection (pending publishes are flushed, subscriptions
// end) and waits for it to close.
func (b *Bus) Close() error {
	if err := b.nc.Drain(); err != nil {
		b.nc.Close()
		return nil
	}
	select {
	case <-b.closed:
	case <-time.After(drainTimeout):
		b.nc.Close()
	}
	return nil
}

// reconnected returns a channel closed at the next reconnect.
func (b *Bus) reconnected() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.reconn
}

// Ensure creates the streams and buckets that are missing, with replicas
// copies each (1 for a single server, 3 for a typical cluster). Existing ones
// are left as they are, so it is safe to call from every process at start.
func (b *Bus) Ensure(ctx context.Context, replicas int) error {
	if replicas < 1 {
		replicas = 1
	}
	for _, cfg := range []jetstream.KeyValueConfig{
		{Bucket: BucketDesired, History: 1, Replicas: replicas, Description: "beeuni: the release each project's fleet must run"},
		{Bucket: BucketExecutors, History: 1, Replicas: replicas, Description: "beeuni: executor state"},
		{Bucket: BucketSecrets, History: 1, Replicas: replicas, Description: "beeuni: project secrets"},
	} {
		if _, err := b.ensureKV(ctx, cfg); err != nil {
			return err
		}
	}
	for _, cfg := range []jetstream.ObjectStoreConfig{
		{Bucket: BucketReleases, Replicas: replicas, Description: "beeuni: signed release records"},
		{Bucket: BucketContent, Replicas: replicas, Description: "beeuni: release content by sha256"},
	} {
		if _, err := b.ensureObj(ctx, cfg); err != nil {
			return err
		}
	}
	for _, name := range []string{"KV_" + BucketDesired, "KV_" + BucketExecutors, "KV_" + BucketSecrets, "OBJ_" + BucketReleases, "OBJ_" + BucketContent} {
		if err := b.ensureFleetConsumers(ctx, name); err != nil {
			return err
		}
	}
	return b.ensureStream(ctx, jetstream.StreamConfig{
		Name:        StreamEvents,
		Description: "beeuni: release and executor events",
		Subjects:    []string{EventsPrefix + ".>"},
		MaxAge:      DefaultEventsMaxAge,
		Duplicates:  DefaultDedupWindow,
		Replicas:    replicas,
	})
}

func (b *Bus) ensureKV(ctx context.Context, cfg jetstream.KeyValueConfig) (jetstream.KeyValue, error) {
	kv, err := b.js.KeyValue(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = b.js.CreateKeyValue(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			kv, err = b.js.KeyValue(ctx, cfg.Bucket) // another process created it meanwhile
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create KV bucket %s (replicas %d) at %s: %w%s", cfg.Bucket, cfg.Replicas, b.url, err, hint(err))
	}
	b.mu.Lock()
	b.kvs[cfg.Bucket] = kv
	b.mu.Unlock()
	return kv, nil
}

func (b *Bus) ensureObj(ctx context.Context, cfg jetstream.ObjectStoreConfig) (jetstream.ObjectStore, error) {
	os, err := b.js.ObjectStore(ctx, cfg.Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		os, err = b.js.CreateObjectStore(ctx, cfg)
		if errors.Is(err, jetstream.ErrBucketExists) || errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			os, err = b.js.ObjectStore(ctx, cfg.Bucket)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("create object store %s (replicas %d) at %s: %w%s", cfg.Bucket, cfg.Replicas, b.url, err, hint(err))
	}
	b.mu.Lock()
	b.objs[cfg.Bucket] = os
	b.mu.Unlock()
	return os, nil
}

// FleetMaxConsumers is the consumer limit beeuni gives its streams when
// they have none of their own. Every executor holds a watch on the desired
// key, and each read of a large object (see readDirect) is a consumer
// while it lasts; the server's
// default (1,000 a stream since nats-server 2.11) would stop a fleet of
// about 900 executors, the rest retrying their watch forever. An operator
// who wants a cap sets it on the account or the stream; it is kept.
const FleetMaxConsumers = 1 << 20

// ensureFleetConsumers gives stream name FleetMaxConsumers when it has no
// limit of its own (the server's default then applies).
func (b *Bus) ensureFleetConsumers(ctx context.Context, name string) error {
	st, err := b.js.Stream(ctx, name)
	if err != nil {
		return fmt.Errorf("read stream %s at %s: %w%s", name, b.url, err, hint(err))
	}
	cfg := st.CachedInfo().Config
	if cfg.MaxConsumers > 0 {
		return nil
	}
	cfg.MaxConsumers = FleetMaxConsumers
	if _, err := b.js.UpdateStream(ctx, cfg); err != nil {
		return fmt.Errorf("raise the consumer limit of stream %s at %s (each executor needs one): %w%s", name, b.url, err, hint(err))
	}
	return nil
}

func (b *Bus) ensureStream(ctx context.Context, cfg jetstream.StreamConfig) error {
	_, err := b.js.Stream(ctx, cfg.Name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		_, err = b.js.CreateStream(ctx, cfg)
		if errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			_, err = b.js.Stream(ctx, cfg.Name)
		}
	}
	if err != nil {
		return fmt.Errorf("create stream %s (replicas %d) at %s: %w%s", cfg.Name, cfg.Replicas, b.url, err, hint(err))
	}
	return nil
}

// kv returns the handle of a KV bucket, looking it up once.
func (b *Bus) kv(ctx context.Context, bucket string) (jetstream.KeyValue, error) {
	b.mu.Lock()
	kv, ok := b.kvs[bucket]
	b.mu.Unlock()
	if ok {
		return kv, nil
	}
	kv, err := b.js.KeyValue(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("open KV bucket %s at %s: %w%s", bucket, b.url, err, hint(err))
	}
	b.mu.Lock()
	b.kvs[bucket] = kv
	b.mu.Unlock()
	return kv, nil
}

// obj returns the handle of an object store, looking it up once.
func (b *Bus) obj(ctx context.Context, bucket string) (jetstream.ObjectStore, error) {
	b.mu.Lock()
	os, ok := b.objs[bucket]
	b.mu.Unlock()
	if ok {
		return os, nil
	}
	os, err := b.js.ObjectStore(ctx, bucket)
	if err != nil {
		return nil, fmt.Errorf("open object store %s at %s: %w%s", bucket, b.url, err, hint(err))
	}
	b.mu.Lock()
	b.objs[bucket] = os
	b.mu.Unlock()
	return os, nil
}

// hint names the fix for the JetStream errors a user can act on.
func hint(err error) string {
	switch {
	case errors.Is(err, jetstream.ErrBucketNotFound), errors.Is(err, jetstream.ErrStreamNotFound):
		return " (start the controller or `beeuni up` first: it creates the streams and buckets)"
	case errors.Is(err, jetstream.ErrJetStreamNotEnabled), errors.Is(err, jetstream.ErrJetStreamNotEnabledForAccount):
		return " (enable JetStream on the NATS server: nats-server -js)"
	case errors.Is(err, nats.ErrNoResponders), errors.Is(err, context.DeadlineExceeded), errors.Is(err, nats.ErrTimeout):
		return " (is the NATS server up, with JetStream, and does the cluster have a leader? check --nats)"
	case errors.Is(err, nats.ErrConnectionClosed):
		return " (the NATS connection was closed)"
	case errors.Is(err, nats.ErrReconnectBufExceeded):
		// No buffering while disconnected: a request then fails at once.
		return " (NATS is not reachable right now; retrying)"
	}
	return ""
}
