package executor

import (
	"context"
	"encoding/json"
	"time"
)

// Report is an executor's state as the fleet sees it (`beeuni status`): kept
// in the executor KV bucket under <project>.<id>.
type Report struct {
	Status
	Project  string    `json:"project"`
	Harness  string    `json:"harness"`
	Addr     string    `json:"addr,omitempty"`
	LastSeen time.Time `json:"last_seen"`
}

// reportLoop puts the executor's state in the fleet bucket at every change
// and every ReportEvery, so `beeuni status` sees it and when it was seen.
func (e *Executor) reportLoop(ctx context.Context) {
	t := time.NewTicker(e.cfg.ReportEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-e.changed:
		}
		bus := e.bus.Load()
		if bus == nil || !bus.Connected() {
			continue
		}
		r := Report{Status: e.srv.Status(), Project: e.cfg.Project, Harness: string(e.cfg.Harness),
			Addr: e.addr, LastSeen: time.Now().UTC()}
		b, _ := json.Marshal(r)
		if err := bus.PutExecutorState(ctx, e.cfg.Project, e.cfg.ID, b); err != nil && ctx.Err() == nil {
			e.log.Warn("report state", "error", err)
		}
	}
}
