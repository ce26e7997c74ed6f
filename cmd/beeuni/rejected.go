package main

import (
	"context"
	"fmt"
	"io"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/internal/redact"
	"github.com/beeuni/beeuni/release"
)

// rejection returns the newest release when the controller rejected it
// (the branch head the fleet does not run), else nil: the same description
// the controller's /status gives, read from the records on NATS.
func (s *opSession) rejection(ctx context.Context, ptr *release.Pointer) (*controller.Rejection, error) {
	ids, err := s.bus.ListReleases(ctx, s.project)
	if err != nil || len(ids) == 0 {
		return nil, err
	}
	latest, seq := "", uint64(0)
	for _, id := range ids {
		if n := idSeq(id); latest == "" || n > seq {
			latest, seq = id, n
		}
	}
	if ptr != nil && latest == ptr.Release {
		return nil, nil
	}
	rec, err := s.record(ctx, latest)
	if err != nil {
		return nil, err
	}
	if rec.Status != release.StatusRejected {
		return nil, nil
	}
	desired := ""
	if ptr != nil {
		desired = ptr.Release
	}
	return controller.RejectionOf(rec, desired), nil
}

// writeRejection says which commit was rejected, why, and what the fleet
// runs instead; how is the command that shows every finding.
func writeRejection(w io.Writer, r *controller.Rejection, how string) {
	fmt.Fprintf(w, "Rejected: commit %s %q (release %s)\n  %s\n", shortHash(r.Commit), redact.Name(cutSubject(r.Subject, 60)), r.Release, redact.Line(r.Finding))
	if r.Findings > 1 {
		fmt.Fprintf(w, "  (%s: %s release show %s)\n", plural(r.Findings-1, "more finding"), how, r.Release)
	}
	if r.StaysOn == "" {
		fmt.Fprintf(w, "  No release was published yet: fix the manifest and commit.\n")
		return
	}
	fmt.Fprintf(w, "  The fleet stays on %s until a commit passes.\n", r.StaysOn)
}
