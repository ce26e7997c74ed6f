package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/internal/redact"
	"github.com/beeuni/beeuni/release"
)

// releaseCmd dispatches `beeuni release SUBCOMMAND`.
func (a *app) releaseCmd(ctx context.Context, args []string) int {
	subs := map[string]func(context.Context, []string) int{
		"ls":     a.releaseLs,
		"show":   a.releaseShow,
		"diff":   a.releaseDiff,
		"replay": a.releaseReplay,
	}
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		a.releaseUsage()
		if len(args) == 0 {
			return exitUsage
		}
		return exitOK
	}
	run, ok := subs[args[0]]
	if !ok {
		a.errorf(nil, "release: unknown subcommand %q", args[0])
		a.releaseUsage()
		return exitUsage
	}
	return run(ctx, args[1:])
}

func (a *app) releaseUsage() {
	fmt.Fprint(a.stderr, "Usage: beeuni release SUBCOMMAND [flags]\n\nSubcommands:\n"+
		"  ls [--json] [--limit N]  the project's releases, newest first\n"+
		"  show ID [--json]         one release record\n"+
		"  diff A B [--json]        the files and tools that changed from A to B\n"+
		"  replay ID                make an earlier release the fleet's release again\n\n"+
		"ID is a release id (r7-3f9a2c1d4e5b), r7 (by sequence), latest or desired.\n"+
		"Every subcommand takes --nats URL, --project NAME and --dir DIR.\n")
}

// releaseLsJSON is one release of `beeuni release ls --json`.
type releaseLsJSON struct {
	ID       string            `json:"id"`
	Seq      uint64            `json:"seq"`
	Commit   string            `json:"commit"`
	Subject  string            `json:"subject"`
	Author   string            `json:"author"`
	Status   string            `json:"status"`
	Desired  bool              `json:"desired"`
	BuiltAt  time.Time         `json:"built_at"`
	Tools    []release.ToolRef `json:"tools"`
	Warnings []release.Finding `json:"warnings"`
	Findings []release.Finding `json:"findings"`
}

func (a *app) releaseLs(ctx context.Context, args []string) int {
	fs, n, asJSON := a.readOpFlags("release ls", "release ls [--json] [--limit N] [--nats URL] [--project NAME] [--dir DIR] [--trust-key FILE]",
		"print JSON instead of a table")
	limit := fs.Int("limit", defaultLsLimit, "show the newest N releases (0: all)")
	s, _, code, ok := a.startOp(ctx, fs, n, args, "release ls", func(pos []string) error {
		if *limit < 0 {
			return fmt.Errorf("--limit %d: want 0 (all) or more", *limit)
		}
		return noArgs(pos)
	})
	if !ok {
		return code
	}
	defer s.close()
	ptr, err := s.desired(ctx)
	if err != nil {
		return a.opFail(err)
	}
	ids, err := s.bus.ListReleases(ctx, s.project)
	if err != nil {
		return a.opFail(err)
	}
	// Each record carries its whole file list, so only the newest are
	// fetched; the sequence is in the id.
	slices.SortStableFunc(ids, func(x, y string) int { return cmp.Compare(idSeq(y), idSeq(x)) })
	hidden := 0
	if *limit > 0 && len(ids) > *limit {
		hidden, ids = len(ids)-*limit, ids[:*limit]
	}
	recs := make([]*release.Record, 0, len(ids))
	for _, id := range ids {
		rec, err := s.record(ctx, id)
		if err != nil {
			return a.opFail(err)
		}
		recs = append(recs, rec)
	}
	slices.SortFunc(recs, func(x, y *release.Record) int {
		return cmp.Or(cmp.Compare(y.Seq, x.Seq), strings.Compare(y.ID, x.ID))
	})
	if *asJSON {
		out := make([]releaseLsJSON, 0, len(recs))
		for _, r := range recs {
			st, desired := releaseStatus(r, ptr)
			out = append(out, releaseLsJSON{ID: r.ID, Seq: r.Seq, Commit: r.Commit, Subject: r.Subject, Author: r.Author,
				Status: st, Desired: desired, BuiltAt: r.BuiltAt.UTC(),
				Tools: orEmpty(r.Tools), Warnings: orEmpty(r.Warnings), Findings: orEmpty(r.Findings)})
		}
		return a.opJSON(out)
	}
	if len(recs) == 0 {
		fmt.Fprintf(a.stdout, "No releases for project %s yet. The controller builds one from the branch head: start `beeuni controller --repo PATH` (or `beeuni up`), or check --project.\n", s.project)
		return exitOK
	}
	tw := tabwriter.NewWriter(a.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tCOMMIT\tSUBJECT\tSTATUS\tWHEN")
	for _, r := range recs {
		st, _ := releaseStatus(r, ptr)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, shortHash(r.Commit), redact.Name(cutSubject(r.Subject, 50)), st, whenUTC(r.BuiltAt))
	}
	tw.Flush()
	if hidden > 0 {
		fmt.Fprintf(a.stdout, "(%s not shown: --limit 0 lists all)\n", plural(hidden, "older release"))
	}
	return exitOK
}

// defaultLsLimit is how many releases `release ls` shows unless --limit says.
const defaultLsLimit = 50

// idSeq is the sequence an id carries, 0 for an id not made by FormatID.
func idSeq(id string) uint64 {
	seq, _, err := release.ParseID(id)
	if err != nil {
		return 0
	}
	return seq
}

// releaseStatus is the record's status, marking the release the fleet is
// told to run: "published (desired)", or "replayed (desired)" after a replay.
func releaseStatus(r *release.Record, ptr *release.Pointer) (string, bool) {
	if ptr == nil || ptr.Release != r.ID {
		return r.Status, false
	}
	if ptr.Replay {
		return release.StatusReplayed + " (desired)", true
	}
	return r.Status + " (desired)", true
}

func (a *app) releaseShow(ctx context.Context, args []string) int {
	fs, n, asJSON := a.readOpFlags("release show", "release show ID [--json] [--nats URL] [--project NAME] [--dir DIR] [--trust-key FILE]",
		"print the full record as JSON")
	s, pos, code, ok := a.startOp(ctx, fs, n, args, "release show", releaseIDs(1, "one release id"))
	if !ok {
		return code
	}
	defer s.close()
	recs, err := s.records(ctx, pos)
	if err != nil {
		return a.opFail(err)
	}
	rec := recs[0]
	if *asJSON {
		return a.opJSON(rec)
	}
	ptr, err := s.desired(ctx)
	if err != nil {
		return a.opFail(err)
	}
	st, _ := releaseStatus(rec, ptr)
	writeRecord(a.stdout, rec, st)
	return exitOK
}

// showFiles is how many entries `release show` lists before cutting short.
const showFiles = 10

// writeRecord prints a record for a reader. Every text from the
// repository (subject, author, paths, findings) is printed escaped.
func writeRecord(w io.Writer, r *release.Record, status string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	field := func(k, v string) {
		if v != "" {
			fmt.Fprintf(tw, "%s\t%s\n", k, redact.Name(v))
		}
	}
	field("Release", r.ID)
	field("Project", r.Project)
	field("Commit", r.Commit)
	field("Covers", strings.Join(r.Covers, ", "))
	field("Subject", r.Subject)
	field("Author", r.Author)
	field("Time", whenUTC(r.Time))
	field("Built at", whenUTC(r.BuiltAt))
	field("Previous", r.Previous)
	field("Status", status)
	field("Digest", r.Digest)
	if b := r.Bundles; b != nil {
		field("Bundles", fmt.Sprintf("%s (%d bytes: the controller's bundles of the modules)", b.Digest, b.Size))
	}
	tw.Flush()

	fmt.Fprintf(w, "\nTools (%d):\n", len(r.Tools))
	if len(r.Tools) > 0 {
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintln(tw, "  NAME\tKIND\tSOURCE\tDIGEST")
		for _, t := range r.Tools {
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", t.Name, t.Kind, redact.Name(t.Source), cmp.Or(shortHash(t.Digest), "-"))
		}
		tw.Flush()
	}
	for _, group := range []struct {
		title string
		list  []release.Finding
	}{{"Warnings", r.Warnings}, {"Findings", r.Findings}} {
		if len(group.list) == 0 {
			continue
		}
		fmt.Fprintf(w, "\n%s (%d):\n", group.title, len(group.list))
		for _, f := range group.list {
			fmt.Fprintf(w, "  %s\n", redact.Name(f.String()))
		}
	}
	if len(r.Submodules) > 0 {
		fmt.Fprintf(w, "\nSubmodules skipped (%d):\n", len(r.Submodules))
		for _, sm := range r.Submodules {
			fmt.Fprintf(w, "  %s at %s\n", redact.Name(sm.Path), shortHash(sm.Commit))
		}
	}
	fmt.Fprintf(w, "\nFiles (%d):\n", len(r.Entries))
	for i, e := range r.Entries {
		if i == showFiles {
			fmt.Fprintf(w, "  ... and %d more (`beeuni release show %s --json` lists them all)\n", len(r.Entries)-showFiles, r.ID)
			break
		}
		fmt.Fprintf(w, "  %s %8d  %s\n", e.Mode, e.Size, redact.Name(e.Path))
	}
}

func (a *app) releaseDiff(ctx context.Context, args []string) int {
	fs, n, asJSON := a.readOpFlags("release diff", "release diff A B [--json] [--nats URL] [--project NAME] [--dir DIR] [--trust-key FILE]",
		"print the changes as JSON")
	s, pos, code, ok := a.startOp(ctx, fs, n, args, "release diff", releaseIDs(2, "two release ids (older, newer)"))
	if !ok {
		return code
	}
	defer s.close()
	recs, err := s.records(ctx, pos)
	if err != nil {
		return a.opFail(err)
	}
	c := release.Diff(recs[0], recs[1])
	if *asJSON {
		return a.opJSON(c)
	}
	writeChanges(a.stdout, c)
	return exitOK
}

// writeChanges prints a diff: `+ path`, `- path`, `~ path`, tools likewise.
func writeChanges(w io.Writer, c *release.Changes) {
	if c.Empty() {
		fmt.Fprintf(w, "No changes from %s to %s: the same files and tools.\n", c.From, c.To)
		return
	}
	fmt.Fprintf(w, "Changes from %s to %s:\n", c.From, c.To)
	if n := len(c.FilesAdded) + len(c.FilesRemoved) + len(c.FilesChanged); n > 0 {
		fmt.Fprintf(w, "\nFiles:\n")
		for _, e := range c.FilesAdded {
			fmt.Fprintf(w, "  + %s\n", redact.Name(e.Path))
		}
		for _, e := range c.FilesRemoved {
			fmt.Fprintf(w, "  - %s\n", redact.Name(e.Path))
		}
		for _, ch := range c.FilesChanged {
			detail := ""
			if ch.From.Mode != ch.To.Mode {
				detail = fmt.Sprintf(" (mode %s -> %s)", ch.From.Mode, ch.To.Mode)
			}
			fmt.Fprintf(w, "  ~ %s%s\n", redact.Name(ch.Path), detail)
		}
	}
	if n := len(c.ToolsAdded) + len(c.ToolsRemoved) + len(c.ToolsChanged); n > 0 {
		fmt.Fprintf(w, "\nTools:\n")
		for _, t := range c.ToolsAdded {
			fmt.Fprintf(w, "  + %s (%s, %s)\n", t.Name, t.Kind, redact.Name(t.Source))
		}
		for _, t := range c.ToolsRemoved {
			fmt.Fprintf(w, "  - %s (%s, %s)\n", t.Name, t.Kind, redact.Name(t.Source))
		}
		for _, ch := range c.ToolsChanged {
			fmt.Fprintf(w, "  ~ %s (%s)\n", ch.Name, toolChange(ch))
		}
	}
	fmt.Fprintf(w, "\n%s added, %d removed, %d changed; %s added, %d removed, %d changed.\n",
		plural(len(c.FilesAdded), "file"), len(c.FilesRemoved), len(c.FilesChanged),
		plural(len(c.ToolsAdded), "tool"), len(c.ToolsRemoved), len(c.ToolsChanged))
}

// toolChange says what changed in one tool.
func toolChange(ch release.ToolChange) string {
	var parts []string
	if ch.From.Kind != ch.To.Kind {
		parts = append(parts, fmt.Sprintf("kind %s -> %s", ch.From.Kind, ch.To.Kind))
	}
	if ch.From.Source != ch.To.Source {
		parts = append(parts, fmt.Sprintf("source %s -> %s", redact.Name(ch.From.Source), redact.Name(ch.To.Source)))
	}
	if ch.From.Digest != ch.To.Digest {
		parts = append(parts, "module changed")
	}
	return strings.Join(parts, "; ")
}

func (a *app) releaseReplay(ctx context.Context, args []string) int {
	fs := a.newFlags("release replay", "release replay ID [--nats URL] [--project NAME] [--dir DIR]")
	var n netCmd
	a.addNetCmdFlags(fs, &n, false)
	s, pos, code, ok := a.startOp(ctx, fs, &n, args, "release replay", releaseIDs(1, "one release id"))
	if !ok {
		return code
	}
	defer s.close()
	id, err := s.resolveID(ctx, pos[0])
	if err != nil {
		return a.opFail(err)
	}
	body, _ := json.Marshal(controller.ReplayRequest{Release: id})
	data, err := s.bus.Control(ctx, s.project, "replay", body)
	if err != nil {
		return a.opFail(err)
	}
	var ans controller.ReplayAnswer
	if err := json.Unmarshal(data, &ans); err != nil {
		a.errorf(nil, "release replay: the controller's answer is not a replay answer: %v", err)
		return exitFailure
	}
	fmt.Fprintf(a.stdout, "Replayed %s (commit %s) to the fleet. It holds until a new commit lands on the branch.\n",
		cmp.Or(ans.Release, id), shortHash(ans.Commit))
	return exitOK
}
