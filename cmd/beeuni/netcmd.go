package main

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// netCmd holds the flags every operator command over NATS shares: where NATS
// is, which project, and the folder that names the project by default.
type netCmd struct {
	net      netFlags
	dir      string
	trustKey string
}

// addNetCmdFlags adds --nats, --project and --dir; withTrust adds --trust-key
// for the commands that read signed records.
func (a *app) addNetCmdFlags(fs *flag.FlagSet, n *netCmd, withTrust bool) {
	a.addNetFlags(fs, &n.net)
	fs.StringVar(&n.dir, "dir", "", "folder of the project's repository, naming the project when --project is not set (default: the current directory)")
	if withTrust {
		fs.StringVar(&n.trustKey, "trust-key", "", "controller's public key file: verify signatures and content (default: read records unverified)")
	}
}

// readOpFlags makes the flags of a read-only operator command (release ls,
// show, diff; status): --json, described by jsonHelp, and the network flags
// with --trust-key.
func (a *app) readOpFlags(name, usage, jsonHelp string) (fs *flag.FlagSet, n *netCmd, asJSON *bool) {
	fs = a.newFlags(name, usage)
	n = new(netCmd)
	asJSON = fs.Bool("json", false, jsonHelp)
	a.addNetCmdFlags(fs, n, true)
	return fs, n, asJSON
}

// opSession is a connection to NATS for one operator command.
type opSession struct {
	bus     *events.Bus
	project string
	trusted ed25519.PublicKey // nil: payloads are read without verification
}

// opUsageError is a problem with what the user typed: exit code 2.
type opUsageError struct{ err error }

func (e opUsageError) Error() string { return e.err.Error() }
func (e opUsageError) Unwrap() error { return e.err }

// dialOp resolves the project and dials NATS. The caller closes the session.
func (a *app) dialOp(ctx context.Context, n *netCmd, name string) (*opSession, error) {
	a.resolveTarget(n)
	project := n.net.project
	if err := events.CheckProject(project); err != nil {
		return nil, opUsageError{fmt.Errorf("--project: %w", err)}
	}
	var pub ed25519.PublicKey
	if n.trustKey != "" {
		k, err := release.LoadPublicKey(n.trustKey)
		if err != nil {
			return nil, err
		}
		pub = k
	}
	bus, err := events.Connect(ctx, n.net.natsURL, events.Options{Name: "beeuni " + name})
	if err != nil {
		return nil, err
	}
	return &opSession{bus: bus, project: project, trusted: pub}, nil
}

// resolveTarget fills in the project and NATS URL the flags leave to their
// defaults: without --project, a `beeuni up` serving this folder (its
// .beeuni/up.json, see upStateFor) names both; else the repository
// folder's name names the project.
func (a *app) resolveTarget(n *netCmd) {
	if n.net.project != "" {
		return
	}
	dir := n.dir
	if dir == "" {
		dir = "."
	}
	if abs, err := filepath.Abs(dir); err == nil {
		if s, ok := upStateFor(abs); ok {
			n.net.project = s.Project
			if n.net.natsURL == defaultNATSURL && a.getenv("BEEUNI_NATS_URL") == "" && s.NATS != "" {
				n.net.natsURL = s.NATS
			}
			return
		}
	}
	n.net.project = resolveProject("", n.dir)
}

func (s *opSession) close() { _ = s.bus.Close() }

// startOp parses an operator command's flags, lets check refuse the
// positional arguments (bad usage: exit 2, with the usage), and dials NATS.
// When ok is false the command returns code; else it closes s.
func (a *app) startOp(ctx context.Context, fs *flag.FlagSet, n *netCmd, args []string, name string, check func(pos []string) error) (s *opSession, pos []string, code int, ok bool) {
	pos, code, ok = parseOrUsage(fs, args)
	if !ok {
		return nil, nil, code, false
	}
	if err := check(pos); err != nil {
		a.errorf(nil, "%s: %v", name, err)
		fs.Usage()
		return nil, nil, exitUsage, false
	}
	s, err := a.dialOp(ctx, n, name)
	if err != nil {
		return nil, nil, a.opFail(err), false
	}
	return s, pos, exitOK, true
}

// noArgs refuses any positional argument.
func noArgs(pos []string) error {
	if len(pos) != 0 {
		return fmt.Errorf("unexpected argument %q", pos[0])
	}
	return nil
}

// releaseIDs wants exactly n release ids; what names them in the message.
func releaseIDs(n int, what string) func([]string) error {
	return func(pos []string) error {
		if len(pos) != n {
			return fmt.Errorf("want %s, got %d arguments", what, len(pos))
		}
		return nil
	}
}

// opFail prints err and returns its exit code: 2 for a usage error, else 1.
func (a *app) opFail(err error) int {
	a.errorf(nil, "%v", err)
	if errors.As(err, new(opUsageError)) {
		return exitUsage
	}
	return exitFailure
}

// open decodes a signed envelope's payload into into. Without --trust-key
// the CLI has no key to check against (the controller keeps the private key
// and operators need not hold the public one), so the payload is decoded
// without verifying the signature: these commands only display what the
// fleet was told, and executors verify before they run anything.
func (s *opSession) open(data []byte, into any) error {
	var env release.Envelope
	if err := json.Unmarshal(data, &env); err != nil {
		return fmt.Errorf("decode signed envelope: %w", err)
	}
	if s.trusted != nil {
		return release.Verify(s.trusted, env, into)
	}
	if err := json.Unmarshal(env.Payload, into); err != nil {
		return fmt.Errorf("decode signed payload: %w", err)
	}
	return nil
}

// desired returns the project's desired pointer, or nil when none was
// published yet.
func (s *opSession) desired(ctx context.Context) (*release.Pointer, error) {
	data, _, err := s.bus.GetDesired(ctx, s.project)
	if errors.Is(err, events.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var p release.Pointer
	if err := s.open(data, &p); err != nil {
		return nil, fmt.Errorf("read desired release of %s: %w", s.project, err)
	}
	return &p, nil
}

// record fetches and decodes the release record id (verifying its content
// against its digest too when a trusted key is given).
func (s *opSession) record(ctx context.Context, id string) (*release.Record, error) {
	data, err := s.bus.GetRelease(ctx, s.project, id)
	if errors.Is(err, events.ErrNotFound) {
		return nil, fmt.Errorf("release %s not found in project %s: list the releases with `beeuni release ls`", id, s.project)
	}
	if err != nil {
		return nil, err
	}
	var rec release.Record
	if err := s.open(data, &rec); err != nil {
		return nil, fmt.Errorf("read release %s: %w", id, err)
	}
	if s.trusted != nil {
		if err := release.VerifyRecord(&rec); err != nil {
			return nil, err
		}
	}
	return &rec, nil
}

// records resolves each argument (see resolveID) and fetches its record.
func (s *opSession) records(ctx context.Context, args []string) ([]*release.Record, error) {
	recs := make([]*release.Record, len(args))
	for i, arg := range args {
		id, err := s.resolveID(ctx, arg)
		if err != nil {
			return nil, err
		}
		if recs[i], err = s.record(ctx, id); err != nil {
			return nil, err
		}
	}
	return recs, nil
}

// resolveID turns what the user typed into a release id: `desired` (the
// release the fleet is told to run), `latest` (the highest sequence), `r7`
// (the release with sequence 7) or a full id, passed through as is.
func (s *opSession) resolveID(ctx context.Context, arg string) (string, error) {
	switch arg {
	case "desired":
		p, err := s.desired(ctx)
		if err != nil {
			return "", err
		}
		if p == nil {
			return "", fmt.Errorf("no release is desired for project %s yet: the controller publishes one after its first build (or check --project)", s.project)
		}
		return p.Release, nil
	case "latest":
		return s.findSeq(ctx, arg, func(uint64) bool { return true })
	}
	if num, ok := strings.CutPrefix(arg, "r"); ok && num != "" && !strings.Contains(num, "-") {
		want, err := strconv.ParseUint(num, 10, 64)
		if err == nil {
			return s.findSeq(ctx, arg, func(seq uint64) bool { return seq == want })
		}
	}
	return arg, nil
}

// findSeq returns the id with the highest sequence that match accepts.
func (s *opSession) findSeq(ctx context.Context, arg string, match func(uint64) bool) (string, error) {
	ids, err := s.bus.ListReleases(ctx, s.project)
	if err != nil {
		return "", err
	}
	best, bestSeq := "", uint64(0)
	for _, id := range ids {
		seq, _, err := release.ParseID(id)
		if err != nil || !match(seq) || (best != "" && seq <= bestSeq) {
			continue
		}
		best, bestSeq = id, seq
	}
	if best == "" {
		return "", fmt.Errorf("release %s not found in project %s: list the releases with `beeuni release ls`", arg, s.project)
	}
	return best, nil
}

// shortHash cuts a commit hash or digest to 12 characters for tables.
func shortHash(s string) string {
	if len(s) > 12 {
		return s[:12]
	}
	return s
}

// agoString renders how long before now t was, coarsely: "4s ago", "3m ago".
func agoString(now, t time.Time) string {
	if t.IsZero() {
		return "never"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d/time.Second))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d/time.Hour))
	}
	return fmt.Sprintf("%dd ago", int(d/(24*time.Hour)))
}

// opJSON prints v indented, as every --json output does.
func (a *app) opJSON(v any) int {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		a.errorf(nil, "encode JSON: %v", err)
		return exitFailure
	}
	fmt.Fprintf(a.stdout, "%s\n", b)
	return exitOK
}

// whenUTC renders a build time stably: UTC, RFC 3339 to the second.
func whenUTC(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}

// cutSubject keeps a table row on one line: tabs and newlines become spaces
// and a long subject ends in "...".
func cutSubject(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-3]) + "..."
}

func orEmpty[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs
}
