package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/beeuni/beeuni/internal/httpbody"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/loader/schema"
)

// POST /beeuni/batch (SPEC-beyond §2): several calls on one tool set, in
// groups split by barrier tools (concurrent: false), answered in request
// order.

// Limits of a batch.
const (
	maxBatchCalls         = 64
	maxBatchConcurrency   = 64
	defaultBatchParallel  = 8
	maxBatchCallIDLen     = 128
	batchOutcomeOK        = "ok"
	batchOutcomeCanceled  = "canceled" // the client went away: no answer
	batchOutcomeBad       = "bad_request"
	batchOutcomeTooLarge  = "too_large"
	batchOutcomeNoToolSet = "unavailable"
)

// Error kinds of a batch result.
const (
	kindToolError   = "tool_error"
	kindTimeout     = "timeout"
	kindCanceled    = "canceled"
	kindInvalidArgs = "invalid_arguments"
	kindNotLoaded   = "not_loaded"
	kindHidden      = "hidden"
	kindNotRun      = "not_run"
)

// BatchResult is one call's answer in a batch.
type BatchResult struct {
	ID               string           `json:"id"`
	Name             string           `json:"name"`
	Output           string           `json:"output"`
	IsError          bool             `json:"is_error"`
	ErrorKind        string           `json:"error_kind,omitempty"`
	Group            int              `json:"group"`
	DurationMS       int64            `json:"duration_ms"`
	Spilled          *jshost.Spill    `json:"spilled,omitempty"`
	InvalidArguments []schema.Problem `json:"invalid_arguments,omitempty"`
}

// BatchResponse is the 200 answer of POST /beeuni/batch.
type BatchResponse struct {
	Release string        `json:"release"`
	Results []BatchResult `json:"results"`
}

// batch is a checked request.
type batch struct {
	calls          []batchCall
	timeout        time.Duration // 0: none
	timeoutMS      int64
	maxConcurrency int
	stopOnError    bool
}

type batchCall struct {
	id, name  string
	args      json.RawMessage
	timeoutMS int64 // 0: none
}

func (s *Server) handleBatch(w http.ResponseWriter, r *http.Request) {
	arrived := time.Now()
	c, err := callHeaders(r)
	if err != nil {
		s.metrics.batch(batchOutcomeBad, 0)
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	body, err := httpbody.Read(w, r, s.opts.MaxBodyBytes)
	if err != nil {
		if httpbody.TooLarge(err) {
			s.metrics.batch(batchOutcomeTooLarge, 0)
			writeError(w, http.StatusRequestEntityTooLarge, fmt.Sprintf("the body is over the %d-byte limit: send fewer or smaller calls (write large data to a file and pass its path)", s.opts.MaxBodyBytes))
			return
		}
		s.metrics.batch(batchOutcomeBad, 0)
		writeError(w, http.StatusBadRequest, fmt.Sprintf("read the body: %v", err))
		return
	}
	b, err := parseBatch(body)
	if err != nil {
		s.metrics.batch(batchOutcomeBad, 0)
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	// One tool set for the whole batch: every result has its release.
	ts, done := s.acquire(c.session)
	defer done()
	if ts == nil {
		s.metrics.batch(batchOutcomeNoToolSet, len(b.calls))
		writeError(w, http.StatusServiceUnavailable, errNoToolSet.Error())
		return
	}
	ctx := r.Context()
	var deadline time.Time
	if b.timeout > 0 {
		deadline = arrived.Add(b.timeout)
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	results := s.runBatch(ctx, ts, c, b, deadline)
	if r.Context().Err() != nil { // the client is gone: nobody reads an answer
		s.metrics.batch(batchOutcomeCanceled, len(b.calls))
		return
	}
	s.metrics.batch(batchOutcomeOK, len(b.calls))
	_ = http.NewResponseController(w).SetWriteDeadline(time.Now().Add(s.opts.WriteTimeout))
	writeJSON(w, http.StatusOK, BatchResponse{Release: ts.Release(), Results: results})
}

// runBatch runs the groups one after another and returns the results in
// request order. ctx ends at the batch's deadline (zero: none) or when
// the client goes away.
func (s *Server) runBatch(ctx context.Context, ts *ToolSet, c caller, b batch, deadline time.Time) []BatchResult {
	results := make([]BatchResult, len(b.calls))
	decided := make([]bool, len(b.calls)) // answered by the checks of §2.4
	concurrent := make([]bool, len(b.calls))
	for i, bc := range b.calls {
		results[i] = BatchResult{ID: bc.id, Name: bc.name}
		concurrent[i] = true
		t, ok := ts.set.Tool(bc.name)
		switch {
		case !ok:
			s.metrics.called(unknownTool, outcomeNotLoaded, 0)
			results[i].fail(kindNotLoaded, notLoadedText(bc.name))
			decided[i] = true
		case !ts.project.VisibleTo(c.agent, c.parent, bc.name):
			s.metrics.called(bc.name, outcomeHidden, 0)
			results[i].fail(kindHidden, hiddenFor(ts.project, bc.name, c))
			decided[i] = true
		default:
			concurrent[i] = t.Concurrent
		}
	}
	var stopped string // the not_run text once stop_on_error stops the batch
	for g, group := range batchGroups(concurrent) {
		sem := make(chan struct{}, b.maxConcurrency)
		var wg sync.WaitGroup
		for _, i := range group {
			results[i].Group = g
			if decided[i] {
				continue
			}
			if stopped != "" {
				results[i].fail(kindNotRun, stopped)
				continue
			}
			started := false
			select {
			case sem <- struct{}{}:
				started = ctx.Err() == nil
				if !started {
					<-sem
				}
			case <-ctx.Done():
			}
			if !started { // the deadline passed, or the client went away
				results[i].fail(kindNotRun, fmt.Sprintf("not run: the batch's timeout_ms %d ran out before this call could start", b.timeoutMS))
				continue
			}
			wg.Go(func() {
				defer func() { <-sem }()
				results[i] = s.runBatchCall(ctx, ts, c.agent, c.session, b, b.calls[i], deadline, g)
			})
		}
		wg.Wait()
		if b.stopOnError && stopped == "" {
			for _, i := range group {
				if results[i].IsError {
					stopped = fmt.Sprintf("not run: call %s (%s) failed and stop_on_error is set", b.calls[i].id, b.calls[i].name)
					break
				}
			}
		}
	}
	return results
}

// batchGroups splits calls, in order, into groups: a run of concurrent
// calls is one group; each barrier is a group of its own.
func batchGroups(concurrent []bool) [][]int {
	var groups [][]int
	for i, c := range concurrent {
		if c && i > 0 && concurrent[i-1] {
			groups[len(groups)-1] = append(groups[len(groups)-1], i)
			continue
		}
		groups = append(groups, []int{i})
	}
	return groups
}

// runBatchCall runs one call with the earliest of its deadlines (§2.6).
func (s *Server) runBatchCall(ctx context.Context, ts *ToolSet, agent, session string, b batch, c batchCall, deadline time.Time, group int) BatchResult {
	res := BatchResult{ID: c.id, Name: c.name, Group: group}
	t, _ := ts.set.Tool(c.name)
	start := time.Now()
	var batchLeft time.Duration // what was left of the batch's deadline at the start
	if !deadline.IsZero() {
		batchLeft = max(deadline.Sub(start), time.Millisecond)
	}
	callLimit := time.Duration(c.timeoutMS) * time.Millisecond
	if callLimit > 0 && callLimit < t.Timeout {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, callLimit)
		defer cancel()
	}
	inv, err := s.invoke(ctx, ts, c.name, agent, session, c.args, s.opts.ValidateArgs.forREST())
	res.DurationMS = time.Since(start).Milliseconds()
	if err != nil { // the set is held and the args are an object: not expected
		res.fail(kindToolError, err.Error())
		return res
	}
	r := inv.res
	res.Output, res.IsError, res.Spilled, res.InvalidArguments = r.Output, r.IsError, r.Spilled, inv.problems
	switch r.Kind {
	case jshost.Thrown:
		res.ErrorKind = kindToolError
	case jshost.Canceled:
		res.ErrorKind = kindCanceled
	case jshost.InvalidArgs:
		res.ErrorKind = kindInvalidArgs
	case jshost.TimedOut:
		res.ErrorKind = kindTimeout
		// The tool's own timeout binds unless a caller's is shorter.
		switch limit := t.Timeout; {
		case batchLeft > 0 && batchLeft < limit && (callLimit == 0 || batchLeft < callLimit):
			res.Output = fmt.Sprintf("tool %s timed out after %s: the batch's timeout_ms %d ran out", c.name, humanDuration(batchLeft), b.timeoutMS)
		case callLimit > 0 && callLimit < limit:
			res.Output = fmt.Sprintf("tool %s timed out after %s: this batch call set timeout_ms %d; raise it (the tool allows up to %s)",
				c.name, humanDuration(callLimit), c.timeoutMS, humanDuration(limit))
		}
	}
	return res
}

func (r *BatchResult) fail(kind, output string) {
	r.Output, r.IsError, r.ErrorKind = output, true, kind
}

// humanDuration prints a duration as users write it: 60s, 250ms, 1.5s.
func humanDuration(d time.Duration) string {
	d = d.Round(time.Millisecond)
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return d.String()
}
