package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/redact"
	"github.com/beeuni/beeuni/release"
)

// staleAfter is how old a report may be before `beeuni status` calls the
// executor stale: three missed reports.
const staleAfter = 3 * executor.DefaultReportEvery

// stateStale is the STATE shown for an executor that stopped reporting.
const stateStale = "stale"

// statusJSON is the shape of `beeuni status --json`.
type statusJSON struct {
	Project string `json:"project"`
	// Desired is the release the fleet is told to run ("" when none yet).
	Desired   string           `json:"desired"`
	Replay    bool             `json:"replay"`
	Executors []executorStatus `json:"executors"`
	// Rejected is the newest commit the controller refused, when the fleet
	// does not run the branch head because of it.
	Rejected *controller.Rejection `json:"rejected,omitempty"`
}

// executorStatus is one executor as `beeuni status` sees it.
type executorStatus struct {
	ID      string `json:"id"`
	Release string `json:"release"`
	// State is the executor's own state (starting, converging, converged),
	// or "stale" when its last report is older than staleAfter.
	State         string             `json:"state"`
	ReportedState string             `json:"reported_state"`
	Converged     bool               `json:"converged"`
	Tools         []string           `json:"tools"`
	Failed        []executor.Failure `json:"failed"`
	Error         string             `json:"error,omitempty"`
	Harness       string             `json:"harness,omitempty"`
	Addr          string             `json:"addr,omitempty"`
	TurnsRunning  int                `json:"turns_running"`
	LastSeen      time.Time          `json:"last_seen"`
}

func (a *app) status(ctx context.Context, args []string) int {
	fs, n, asJSON := a.readOpFlags("status", "status [--json] [--nats URL] [--project NAME] [--dir DIR] [--trust-key FILE]",
		"print JSON instead of a table")
	s, _, code, ok := a.startOp(ctx, fs, n, args, "status", noArgs)
	if !ok {
		return code
	}
	defer s.close()
	ptr, err := s.desired(ctx)
	if err != nil {
		return a.opFail(err)
	}
	raw, err := s.bus.ExecutorStates(ctx, s.project)
	if err != nil {
		return a.opFail(err)
	}
	rejected, err := s.rejection(ctx, ptr)
	if err != nil {
		return a.opFail(err)
	}
	out := statusJSON{Project: s.project, Executors: []executorStatus{}, Rejected: rejected}
	if ptr != nil {
		out.Desired, out.Replay = ptr.Release, ptr.Replay
	}
	now := time.Now()
	for id, b := range raw {
		var r executor.Report
		if err := json.Unmarshal(b, &r); err != nil {
			a.errorf(nil, "status: executor %s reported a state that is not JSON (%v); skipped", id, err)
			continue
		}
		out.Executors = append(out.Executors, fleetEntry(id, r, out.Desired, now))
	}
	slices.SortFunc(out.Executors, func(x, y executorStatus) int { return strings.Compare(x.ID, y.ID) })
	if *asJSON {
		return a.opJSON(out)
	}
	writeStatus(a.stdout, out, ptr, n.net.natsURL, now, a.selfCommand())
	return exitOK
}

// fleetEntry turns a report into a row: converged when it runs the desired
// release, stale when it has not reported for staleAfter.
func fleetEntry(id string, r executor.Report, desired string, now time.Time) executorStatus {
	e := executorStatus{ID: id, Release: r.Release, State: r.State, ReportedState: r.State,
		Converged: desired != "" && r.Release == desired, Tools: orEmpty(r.Tools), Failed: orEmpty(r.Failed),
		Error: r.Error, Harness: r.Harness, Addr: r.Addr, TurnsRunning: r.TurnsRunning, LastSeen: r.LastSeen.UTC()}
	if now.Sub(r.LastSeen) > staleAfter {
		e.State = stateStale
	}
	return e
}

// writeStatus prints the fleet table, the failed tools, a rejected commit
// and the desired release; self is how to run beeuni (selfCommand).
func writeStatus(w io.Writer, st statusJSON, ptr *release.Pointer, natsURL string, now time.Time, self string) {
	if len(st.Executors) == 0 {
		fmt.Fprintf(w, "No executor reports for project %s. Start one with `%s executor --project %s --nats %s` (or run `%s up`).\n\n",
			st.Project, self, st.Project, natsURL, self)
	} else {
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "EXECUTOR\tRELEASE\tSTATE\tCONVERGED\tTOOLS\tFAILED\tLAST SEEN")
		for _, e := range st.Executors {
			converged := "no"
			if e.Converged {
				converged = "yes"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%d\t%s\n", e.ID, orDash(e.Release), orDash(e.State), converged,
				len(e.Tools), len(e.Failed), agoString(now, e.LastSeen))
		}
		tw.Flush()
		var failed, errs []string
		for _, e := range st.Executors {
			for _, f := range e.Failed {
				failed = append(failed, fmt.Sprintf("  %s: %s (%s): %s", e.ID, f.Name, redact.Name(f.Source), redact.Line(f.Reason)))
			}
			if e.Error != "" {
				errs = append(errs, fmt.Sprintf("  %s: %s", e.ID, redact.Line(e.Error)))
			}
		}
		if len(failed) > 0 {
			fmt.Fprintf(w, "\nTools that failed to load:\n%s\n", strings.Join(failed, "\n"))
		}
		if len(errs) > 0 {
			fmt.Fprintf(w, "\nExecutor errors:\n%s\n", strings.Join(errs, "\n"))
		}
		fmt.Fprintln(w)
	}
	if st.Rejected != nil {
		writeRejection(w, st.Rejected, self)
		fmt.Fprintln(w)
	}
	switch {
	case ptr == nil && st.Rejected != nil:
		fmt.Fprintf(w, "Desired release: none yet (the first commit was rejected, see above).\n")
	case ptr == nil:
		fmt.Fprintf(w, "Desired release: none yet (the controller publishes one after its first build).\n")
	case ptr.Replay:
		fmt.Fprintf(w, "Desired release: %s (replayed; holds until a new commit lands).\n", ptr.Release)
	default:
		fmt.Fprintf(w, "Desired release: %s (seq %s).\n", ptr.Release, strconv.FormatUint(ptr.Seq, 10))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
