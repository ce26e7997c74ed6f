package executor

import (
	"context"
	"runtime/debug"
	"time"
)

// releaseWhenIdle gives the heap back to the OS once the server has gone a
// whole period without a call or a switch after being busy: with a large
// GOGC (internal/gctune) a busy executor's heap grows to several times its
// live size, and an idle one should not keep it. It ends with ctx.
func (s *Server) releaseWhenIdle(ctx context.Context, period time.Duration) {
	tick := time.NewTicker(period)
	defer tick.Stop()
	last, released := s.activity.Load(), true
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		now := s.activity.Load()
		switch {
		case now != last:
			last, released = now, false
		case !released && s.inFlight.Load() == 0:
			debug.FreeOSMemory()
			released = true
			s.metrics.idleReleases.Inc()
		}
	}
}
