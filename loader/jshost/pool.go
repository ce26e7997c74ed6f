package jshost

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
)

// pool holds one tool's runtimes: made on demand, reused, at most size
// at once. A runtime serves one call at a time.
type pool struct {
	h     *host
	tool  Tool
	mod   *module
	meta  *meta // what the module's evaluation told, here or in the release
	watch *watchdog
	slots chan struct{}

	warnOnce sync.Once // a shipped module that fails here is logged once

	discarded atomic.Uint64 // runtimes thrown away (stopped, broken, abandoned)

	mu     sync.Mutex
	idle   []*worker
	closed bool
}

func newPool(h *host, t Tool, mod *module, watch *watchdog) *pool {
	return &pool{h: h, tool: t, mod: mod, watch: watch, slots: make(chan struct{}, h.opts.PoolSize)}
}

// get takes a slot and a runtime; release gives the slot back.
func (p *pool) get(ctx context.Context) (*worker, error) {
	select {
	case p.slots <- struct{}{}:
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
	p.mu.Lock()
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		// Cleared, not only cut off: the array would keep the runtime (and
		// all it holds) alive after it is thrown away.
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.mu.Unlock()
	w, err := newWorker(ctx, p.h, p.tool.Name, p.mod, p.watch)
	if err == nil && p.meta != nil && p.meta.shipped {
		err = w.checkShipped()
	}
	if err != nil {
		<-p.slots
		if p.meta != nil && p.meta.shipped {
			err = fmt.Errorf("tool %s does not load on this executor (the controller's check loaded it): %w", p.tool.Name, err)
			p.warnOnce.Do(func() { p.h.opts.Logger.Warn("[tools] a project tool did not load", "tool", p.tool.Name, "error", err) })
		}
		return nil, err
	}
	return w, nil
}

func (p *pool) release() { <-p.slots }

// put keeps a healthy runtime for the next call.
func (p *pool) put(w *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		w.discard()
		return
	}
	p.idle = append(p.idle, w)
}

func (p *pool) close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for _, w := range p.idle {
		w.discard()
	}
	p.idle = nil
}
