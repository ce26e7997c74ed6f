package executor

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"
)

// Sessions and turns.
//
// A session with no running turn has no state here: its calls use the
// current tool set, like calls without a session. Only running turns are
// kept, each pinning the tool set that was current when it began, so memory
// is bounded by the running turns (at most Options.MaxTurns).
//
// Beginning a turn that runs already is idempotent: the turn keeps the set it
// began on. Ending a turn that does not run is idempotent too. A turn with no
// call running and no begin or call for Options.TurnIdleTimeout (1h by
// default) is ended, as if the client had sent DELETE: a client that crashed
// mid-turn must not pin an old tool set forever.
//
// Lock order: Server.switchMu, Server.turnsMu, Server.mu. Only switchMu is
// held while a tool set is freed (by Switch); none while a tool runs.

// turn is a running turn of one session.
type turn struct {
	set      *ToolSet // the pinned set; the turn holds a reference
	began    time.Time
	lastUsed time.Time
	active   int // calls of this session running now
}

var (
	errNoToolSet     = errors.New("no tool set is loaded yet: the executor is converging on its first release; retry when /readyz answers 200")
	errTooManyTurns  = errors.New("too many running turns")
	errBadSessionID  = errors.New("bad session id")
	maxSessionIDLen  = 256
	maxAgentNameLen  = 256
	janitorMaxPeriod = time.Minute
)

// acquire returns the tool set a call of session uses, holding a reference
// for the call, and the function that gives it back. The set is nil (and
// done a no-op) when no tool set is loaded yet.
func (s *Server) acquire(session string) (ts *ToolSet, done func()) {
	if session != "" {
		s.turnsMu.Lock()
		if t, ok := s.turns[session]; ok {
			set := t.set
			set.ref()
			t.active++
			t.lastUsed = s.now()
			s.turnsMu.Unlock()
			return set, func() {
				s.turnsMu.Lock()
				t.active--
				t.lastUsed = s.now()
				s.turnsMu.Unlock()
				set.unref()
			}
		}
		s.turnsMu.Unlock()
	}
	ts = s.acquireCurrent()
	if ts == nil {
		return nil, func() {}
	}
	return ts, ts.unref
}

// acquireCurrent returns the current set with a reference taken, or nil.
func (s *Server) acquireCurrent() *ToolSet {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.cur != nil {
		// The current set holds the server's reference while s.mu is held,
		// so it cannot be freed under us.
		s.cur.ref()
	}
	return s.cur
}

// beginTurn pins the current set for session, or keeps the pin of a turn
// that runs already. It returns the pinned release.
func (s *Server) beginTurn(session string) (string, error) {
	if err := checkSessionID(session); err != nil {
		return "", err
	}
	s.turnsMu.Lock()
	defer s.turnsMu.Unlock()
	now := s.now()
	if t, ok := s.turns[session]; ok {
		t.lastUsed = now
		return t.set.Release(), nil
	}
	if len(s.turns) >= s.opts.MaxTurns {
		return "", fmt.Errorf("%w: %d sessions have a turn running; end finished turns with DELETE /beeuni/sessions/{id}/turn", errTooManyTurns, len(s.turns))
	}
	ts := s.acquireCurrent()
	if ts == nil {
		return "", errNoToolSet
	}
	s.turns[session] = &turn{set: ts, began: now, lastUsed: now}
	return ts.Release(), nil
}

// endTurn unpins session's set; from now on the session uses the current
// set. It returns the release the session uses now ("" before the first
// set).
func (s *Server) endTurn(session string) (string, error) {
	if err := checkSessionID(session); err != nil {
		return "", err
	}
	s.turnsMu.Lock()
	t, ok := s.turns[session]
	delete(s.turns, session)
	s.turnsMu.Unlock()
	if ok {
		t.set.unref()
		s.mcp.turnEnded(session)
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.cur == nil {
		return "", nil
	}
	return s.cur.Release(), nil
}

// turnsRunning is the number of sessions with a running turn.
func (s *Server) turnsRunning() int {
	s.turnsMu.Lock()
	defer s.turnsMu.Unlock()
	return len(s.turns)
}

// endIdleTurns ends every turn idle for longer than the idle timeout.
func (s *Server) endIdleTurns() {
	cutoff := s.now().Add(-s.opts.TurnIdleTimeout)
	var ended []*turn
	var ids []string
	s.turnsMu.Lock()
	for id, t := range s.turns {
		if t.active == 0 && t.lastUsed.Before(cutoff) {
			delete(s.turns, id)
			ended = append(ended, t)
			ids = append(ids, id)
		}
	}
	s.turnsMu.Unlock()
	for i, t := range ended {
		s.log.Info("turn ended: idle too long", slog.String("session", ids[i]),
			slog.String("release", t.set.Release()), slog.Duration("idle_timeout", s.opts.TurnIdleTimeout))
		t.set.unref()
		s.mcp.turnEnded(ids[i])
	}
}

// runJanitor ends idle turns until ctx ends.
func (s *Server) runJanitor(ctx context.Context) {
	period := min(s.opts.TurnIdleTimeout/4, janitorMaxPeriod)
	period = max(period, time.Millisecond)
	tick := time.NewTicker(period)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			s.endIdleTurns()
		}
	}
}

// releaseTurns ends every turn (at shutdown).
func (s *Server) releaseTurns() {
	s.turnsMu.Lock()
	turns := s.turns
	s.turns = make(map[string]*turn)
	s.turnsMu.Unlock()
	for _, t := range turns {
		t.set.unref()
	}
}

func checkSessionID(id string) error {
	if id == "" || len(id) > maxSessionIDLen {
		return fmt.Errorf("%w: a session id is 1 to %d bytes", errBadSessionID, maxSessionIDLen)
	}
	return nil
}
