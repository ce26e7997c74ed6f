package events

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
)

// ControlSubject is where the controller of project answers the operator
// request op (e.g. "replay"): core NATS request/reply, not JetStream, so a
// request fails fast when no controller runs.
func ControlSubject(project, op string) string { return "beeuni.control." + project + "." + op }

// controlReply is the body of every control answer.
type controlReply struct {
	Error string          `json:"error,omitempty"`
	Data  json.RawMessage `json:"data,omitempty"`
}

// ServeControl answers requests for op of project with h until ctx ends or
// stop is called. A handler error is sent back as the request's error.
func (b *Bus) ServeControl(ctx context.Context, project, op string, h func(ctx context.Context, req []byte) ([]byte, error)) (stop func(), err error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("serve %s requests: %w", op, err)
	}
	sub, err := b.nc.Subscribe(ControlSubject(project, op), func(m *nats.Msg) {
		data, err := h(ctx, m.Data)
		reply := controlReply{Data: data}
		if err != nil {
			reply = controlReply{Error: err.Error()}
		}
		body, _ := json.Marshal(reply) // strings only: cannot fail
		if err := m.Respond(body); err != nil {
			// The requester times out and says so; the operator sees why here.
			b.log.Warn("answer a control request", "op", op, "project", project, "error", err)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("serve %s requests for %s: %w", op, project, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// Control sends the operator request op to the controller of project and
// returns its answer's data.
func (b *Bus) Control(ctx context.Context, project, op string, req []byte) ([]byte, error) {
	if err := CheckProject(project); err != nil {
		return nil, fmt.Errorf("%s: %w", op, err)
	}
	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
	}
	msg, err := b.nc.RequestWithContext(ctx, ControlSubject(project, op), req)
	if errors.Is(err, nats.ErrNoResponders) {
		return nil, fmt.Errorf("%s: no controller of project %s answered: start `beeuni controller` (or `beeuni up`) for it, or check --project", op, project)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: ask the controller of %s: %w", op, project, err)
	}
	var reply controlReply
	if err := json.Unmarshal(msg.Data, &reply); err != nil {
		return nil, fmt.Errorf("%s: the controller's answer is not JSON: %w", op, err)
	}
	if reply.Error != "" {
		return nil, errors.New(reply.Error)
	}
	return reply.Data, nil
}
