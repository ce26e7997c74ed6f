package events

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// Event is one message of the BEEUNI_EVENTS stream.
type Event struct {
	Project string
	Type    string // e.g. release.built
	Payload []byte
	MsgID   string // the Nats-Msg-Id it was published with, if any
	Seq     uint64 // stream sequence
	Time    time.Time
}

// EventFilter selects events.
type EventFilter struct {
	Project string // "" = every project
	Type    string // "" = every type
	// StartSeq starts at this stream sequence; 0 starts at the oldest stored
	// event. With NewOnly, only events published from now on.
	StartSeq uint64
	NewOnly  bool
}

// Publish appends an event. A non-empty msgID is sent as Nats-Msg-Id: the
// stream stores a retried publish with the same id once (within
// DefaultDedupWindow).
func (b *Bus) Publish(ctx context.Context, project, typ string, payload []byte, msgID string) error {
	if err := CheckProject(project); err != nil {
		return fmt.Errorf("publish event: %w", err)
	}
	if err := CheckEventType(typ); err != nil {
		return fmt.Errorf("publish event: %w", err)
	}
	opts := []jetstream.PublishOpt{jetstream.WithExpectStream(StreamEvents), jetstream.WithRetryAttempts(5)}
	if msgID != "" {
		opts = append(opts, jetstream.WithMsgID(msgID))
	}
	if _, err := b.js.Publish(ctx, EventSubject(project, typ), payload, opts...); err != nil {
		return fmt.Errorf("publish %s event of %s: %w%s", typ, project, err, hint(err))
	}
	return nil
}

func (f EventFilter) subject() (string, error) {
	project, typ := f.Project, ">"
	if project == "" {
		project = "*"
	} else if err := CheckProject(project); err != nil {
		return "", err
	}
	if f.Type != "" {
		if err := CheckEventType(f.Type); err != nil {
			return "", err
		}
		typ = f.Type
	}
	return EventSubject(project, typ), nil
}

// consumerIdle is how long the server keeps an event consumer nobody reads.
const consumerIdle = 30 * time.Second

func (b *Bus) eventConsumer(ctx context.Context, f EventFilter) (jetstream.Consumer, error) {
	subj, err := f.subject()
	if err != nil {
		return nil, err
	}
	// The server also drops a consumer its client forgot (a crash) soon.
	cfg := jetstream.OrderedConsumerConfig{FilterSubjects: []string{subj}, DeliverPolicy: jetstream.DeliverAllPolicy,
		InactiveThreshold: consumerIdle}
	switch {
	case f.NewOnly:
		cfg.DeliverPolicy = jetstream.DeliverNewPolicy
	case f.StartSeq > 0:
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, f.StartSeq
	}
	c, err := b.js.OrderedConsumer(ctx, StreamEvents, cfg)
	if err != nil {
		return nil, fmt.Errorf("consume %s: %w%s", subj, err, hint(err))
	}
	return c, nil
}

// ReadEvents returns up to max stored events that match f, oldest first,
// without waiting for new ones.
func (b *Bus) ReadEvents(ctx context.Context, f EventFilter, max int) ([]Event, error) {
	c, err := b.eventConsumer(ctx, f)
	if err != nil {
		return nil, fmt.Errorf("read events: %w", err)
	}
	// Delete the consumer when done: the stream allows a limited number,
	// and a caller polling events would otherwise use them all up.
	defer func() {
		if name := c.CachedInfo().Name; name != "" {
			dctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
			_ = b.js.DeleteConsumer(dctx, StreamEvents, name)
			cancel()
		}
	}()
	info, err := c.Info(ctx)
	if err != nil {
		return nil, fmt.Errorf("read events: %w%s", err, hint(err))
	}
	want := int(min(info.NumPending, uint64(max)))
	var out []Event
	for len(out) < want {
		batch, err := c.Fetch(min(want-len(out), 256), jetstream.FetchMaxWait(b.js.Options().DefaultTimeout))
		if err != nil {
			return nil, fmt.Errorf("read events: %w%s", err, hint(err))
		}
		n := 0
		for m := range batch.Messages() {
			n++
			out = append(out, toEvent(m))
		}
		if err := batch.Error(); err != nil && !errors.Is(err, jetstream.ErrNoMessages) {
			return nil, fmt.Errorf("read events: %w%s", err, hint(err))
		}
		if n == 0 {
			return out, ctx.Err() // the stream lost messages since Info (max age); what we have is all there is
		}
	}
	return out, nil
}

// SubscribeEvents calls fn with each event that matches f, stored ones
// first (unless f.NewOnly), then new ones as they arrive, until ctx ends; it
// returns nil then. fn runs on the caller's goroutine.
func (b *Bus) SubscribeEvents(ctx context.Context, f EventFilter, fn func(Event)) error {
	c, err := b.eventConsumer(ctx, f)
	if err != nil {
		return fmt.Errorf("subscribe to events: %w", err)
	}
	it, err := c.Messages()
	if err != nil {
		return fmt.Errorf("subscribe to events: %w%s", err, hint(err))
	}
	stopped := make(chan struct{})
	defer close(stopped)
	go func() { // ends with the call: stops the iterator when ctx ends
		select {
		case <-ctx.Done():
			it.Stop()
		case <-stopped:
			it.Stop()
		}
	}()
	failures := 0
	for {
		m, err := it.Next()
		if ctx.Err() != nil {
			return nil
		}
		if err != nil {
			if errors.Is(err, jetstream.ErrMsgIteratorClosed) {
				return nil
			}
			if b.nc.IsClosed() {
				return fmt.Errorf("subscribe to events: %w", err)
			}
			// The ordered consumer recreates itself after missed heartbeats
			// and reconnects; other errors are worth a log line, not an end.
			failures++
			wait := backoff(failures, DefaultReconnectWait, DefaultMaxReconnect)
			b.log.Warn("event subscription", "err", err, "retry_in", wait)
			t := time.NewTimer(wait)
			select {
			case <-ctx.Done():
				t.Stop()
				return nil
			case <-t.C:
			}
			continue
		}
		failures = 0
		fn(toEvent(m))
	}
}

func toEvent(m jetstream.Msg) Event {
	e := Event{Payload: m.Data(), MsgID: m.Headers().Get(jetstream.MsgIDHeader)}
	rest := strings.TrimPrefix(m.Subject(), EventsPrefix+".")
	e.Project, e.Type, _ = strings.Cut(rest, ".")
	if md, err := m.Metadata(); err == nil {
		e.Seq, e.Time = md.Sequence.Stream, md.Timestamp
	}
	return e
}
