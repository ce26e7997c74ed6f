package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/release"
)

// opFixture is a real NATS server with beeuni's buckets, a signing key and
// helpers that write releases, pointers and reports the way the controller
// and executors do.
type opFixture struct {
	tb      testing.TB
	url     string
	bus     *events.Bus
	key     ed25519.PrivateKey
	pubFile string
}

const opProject = "demo"

func newOpFixture(tb testing.TB) *opFixture {
	tb.Helper()
	srv := natstest.RunServer(tb)
	ctx := context.Background()
	bus, err := events.Connect(ctx, srv.ClientURL(), events.Options{Name: "test"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { bus.Close() })
	if err := bus.Ensure(ctx, 1); err != nil {
		tb.Fatal(err)
	}
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	pubFile := filepath.Join(tb.TempDir(), "signing.pub")
	if err := release.WritePublicKey(pubFile, pub); err != nil {
		tb.Fatal(err)
	}
	return &opFixture{tb: tb, url: srv.ClientURL(), bus: bus, key: priv, pubFile: pubFile}
}

// baseTime is when the fixture's commits were made and built.
var baseTime = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// entries turns path -> content into sorted release entries.
func entries(files map[string]string) []release.Entry {
	var out []release.Entry
	for p, c := range files {
		sum := sha256.Sum256([]byte(c))
		blob := sha256.Sum256([]byte("blob " + c))
		out = append(out, release.Entry{Path: p, Mode: release.ModeFile, Size: int64(len(c)),
			Blob: hex.EncodeToString(blob[:20]), Digest: hex.EncodeToString(sum[:])})
	}
	slices.SortFunc(out, func(a, b release.Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// putRelease signs rec (after filling its digest and id) and stores it as
// the controller does; it returns the stored record.
func (f *opFixture) putRelease(rec release.Record) *release.Record {
	f.tb.Helper()
	rec.Project = opProject
	rec.Digest = release.Digest(rec.Entries)
	rec.ID = release.FormatID(rec.Seq, rec.Digest)
	commit := sha256.Sum256(fmt.Append(nil, "commit ", rec.Seq))
	rec.Commit = hex.EncodeToString(commit[:20])
	rec.Time = baseTime.Add(time.Duration(rec.Seq) * time.Hour)
	rec.BuiltAt = rec.Time.Add(time.Minute)
	env, err := release.Sign(f.key, rec)
	if err != nil {
		f.tb.Fatal(err)
	}
	data, _ := json.Marshal(env)
	if err := f.bus.PutRelease(context.Background(), opProject, rec.ID, data); err != nil {
		f.tb.Fatal(err)
	}
	return &rec
}

func (f *opFixture) desire(rec *release.Record, replay bool) {
	f.tb.Helper()
	env, err := release.Sign(f.key, release.Pointer{Project: opProject, Release: rec.ID, Digest: rec.Digest, Seq: rec.Seq, Replay: replay, At: baseTime})
	if err != nil {
		f.tb.Fatal(err)
	}
	data, _ := json.Marshal(env)
	if _, err := f.bus.PutDesired(context.Background(), opProject, data); err != nil {
		f.tb.Fatal(err)
	}
}

// run runs a command against the fixture's server with stdin.
func (f *opFixture) run(stdin string, args ...string) result {
	f.tb.Helper()
	return runOp(f.tb, stdin, nil, append(args, "--nats", f.url, "--project", opProject)...)
}

// runOp runs the command line in process with stdin and an environment.
func runOp(tb testing.TB, stdin string, env map[string]string, args ...string) result {
	tb.Helper()
	var out, errb bytes.Buffer
	a := &app{stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb, getenv: func(k string) string { return env[k] }}
	code := a.run(context.Background(), args)
	return result{code: code, stdout: out.String(), stderr: errb.String()}
}

// threeReleases stores r1 (published), r2 (rejected) and r3 (published, a
// file and a tool changed), with r3 desired.
func (f *opFixture) threeReleases() (r1, r2, r3 *release.Record) {
	f.tb.Helper()
	tools := []release.ToolRef{
		{Name: "web_search", Kind: "beeuni", Source: "beeuni:web_search"},
		{Name: "greet", Kind: "project", Source: "tools/greet.ts", Digest: strings.Repeat("a", 64)},
	}
	r1 = f.putRelease(release.Record{Seq: 1, Subject: "Add greet tool", Author: "Ada <ada@example.com>", Status: release.StatusPublished,
		Tools: tools, Entries: entries(map[string]string{"beeuni.yaml": "tools: {}", "tools/greet.ts": "v1", "old.txt": "x"})})
	r2 = f.putRelease(release.Record{Seq: 2, Subject: "Break the manifest", Author: "Bob", Status: release.StatusRejected, Previous: r1.ID,
		Findings: []release.Finding{{File: "beeuni.yaml", Line: 3, Severity: release.SeverityError, Message: "`bash` is a harness tool"}},
		Entries:  entries(map[string]string{"beeuni.yaml": "tools: {bash: x}"})})
	tools3 := []release.ToolRef{tools[0], {Name: "greet", Kind: "project", Source: "tools/greet.ts", Digest: strings.Repeat("b", 64)},
		{Name: "memory", Kind: "beeuni", Source: "beeuni:memory"}}
	r3 = f.putRelease(release.Record{Seq: 3, Subject: "A subject line that is much longer than fifty characters, to be cut", Author: "Ada", Status: release.StatusPublished,
		Previous: r1.ID, Covers: []string{"c3", "c2"}, Tools: tools3,
		Warnings: []release.Finding{{File: "beeuni.yaml", Line: 7, Severity: release.SeverityWarning, Message: "legacy folder"}},
		Entries:  entries(map[string]string{"beeuni.yaml": "tools: {}", "tools/greet.ts": "v2", "new.txt": "y"})})
	f.desire(r3, false)
	return r1, r2, r3
}

func TestReleaseLs(t *testing.T) {
	f := newOpFixture(t)
	if r := f.run("", "release", "ls"); r.code != exitOK || !strings.HasPrefix(r.stdout, "No releases for project demo yet.") {
		t.Fatalf("empty ls = %+v", r)
	}
	r1, r2, r3 := f.threeReleases()
	want := fmt.Sprintf(`ID               COMMIT        SUBJECT                                             STATUS               WHEN
%s  %s  A subject line that is much longer than fifty c...  published (desired)  2025-03-01T15:01:00Z
%s  %s  Break the manifest                                  rejected             2025-03-01T14:01:00Z
%s  %s  Add greet tool                                      published            2025-03-01T13:01:00Z
`, r3.ID, r3.Commit[:12], r2.ID, r2.Commit[:12], r1.ID, r1.Commit[:12])
	r := f.run("", "release", "ls")
	if r.code != exitOK || r.stdout != want || r.stderr != "" {
		t.Fatalf("release ls = %d\n%s\nstderr %s\nwant\n%s", r.code, r.stdout, r.stderr, want)
	}

	r = f.run("", "release", "ls", "--limit", "2")
	if wantLimited := strings.Join(strings.Split(want, "\n")[:3], "\n") + "\n(1 older release not shown: --limit 0 lists all)\n"; r.code != exitOK || r.stdout != wantLimited {
		t.Errorf("release ls --limit 2 = %d\n%s\nwant\n%s", r.code, r.stdout, wantLimited)
	}

	// After a replay of r1 the table marks r1 and no longer r3.
	f.desire(r1, true)
	r = f.run("", "release", "ls", "--trust-key", f.pubFile)
	lines := strings.Split(r.stdout, "\n")
	if r.code != exitOK || !strings.Contains(lines[3], "replayed (desired)") || strings.Contains(lines[1], "desired") {
		t.Fatalf("after replay:\n%s%s", r.stdout, r.stderr)
	}

	r = f.run("", "release", "ls", "--json")
	var got []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
		t.Fatalf("ls --json = %d %v\n%s", r.code, err, r.stdout)
	}
	keys := []string{"author", "built_at", "commit", "desired", "findings", "id", "seq", "status", "subject", "tools", "warnings"}
	for i, wantID := range []string{r3.ID, r2.ID, r1.ID} {
		var ks []string
		for k := range got[i] {
			ks = append(ks, k)
		}
		slices.Sort(ks)
		if got[i]["id"] != wantID || !slices.Equal(ks, keys) {
			t.Errorf("ls --json[%d] = %v, want id %s and keys %v", i, got[i], wantID, keys)
		}
	}
	if got[2]["desired"] != true || got[2]["status"] != "replayed (desired)" || got[0]["desired"] != false ||
		len(got[1]["findings"].([]any)) != 1 || len(got[0]["warnings"].([]any)) != 1 || got[0]["built_at"] != "2025-03-01T15:01:00Z" {
		t.Errorf("ls --json values: %s", r.stdout)
	}
}

func TestReleaseShow(t *testing.T) {
	f := newOpFixture(t)
	_, r2, r3 := f.threeReleases()
	many := map[string]string{}
	for i := range 12 {
		many[fmt.Sprintf("f%02d.txt", i)] = fmt.Sprint(i)
	}
	r4 := f.putRelease(release.Record{Seq: 4, Subject: "Many files", Author: "Ada", Status: release.StatusPublished, Entries: entries(many)})

	r := f.run("", "release", "show", r3.ID)
	for _, want := range []string{
		"Release   " + r3.ID + "\n", "Commit    " + r3.Commit + "\n", "Covers    c3, c2\n", "Author    Ada\n",
		"Time      2025-03-01T15:00:00Z\n", "Built at  2025-03-01T15:01:00Z\n", "Previous  ", "Status    published (desired)\n",
		"Digest    " + r3.Digest + "\n", "Tools (3):\n", "  greet       project  tools/greet.ts     bbbbbbbbbbbb\n",
		"Warnings (1):\n  beeuni.yaml:7: warning: legacy folder\n", "Files (3):\n", "  100644        2  tools/greet.ts\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("release show lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != exitOK {
		t.Fatalf("release show = %+v", r)
	}
	cases := []struct {
		arg, wantID string
	}{{"latest", r4.ID}, {"desired", r3.ID}, {"r2", r2.ID}, {r2.ID, r2.ID}}
	for _, tc := range cases {
		r := f.run("", "release", "show", tc.arg)
		if r.code != exitOK || !strings.HasPrefix(r.stdout, "Release   "+tc.wantID+"\n") {
			t.Errorf("show %s = %+v, want %s", tc.arg, r, tc.wantID)
		}
	}
	r = f.run("", "release", "show", "r2")
	if !strings.Contains(r.stdout, "Findings (1):\n  beeuni.yaml:3: error: `bash` is a harness tool\n") || !strings.Contains(r.stdout, "Status    rejected\n") {
		t.Errorf("show r2:\n%s", r.stdout)
	}
	r = f.run("", "release", "show", r4.ID)
	if !strings.Contains(r.stdout, "Files (12):\n") || !strings.Contains(r.stdout, "  ... and 2 more (`beeuni release show "+r4.ID+" --json` lists them all)\n") {
		t.Errorf("show r4 does not cut the file list:\n%s", r.stdout)
	}

	r = f.run("", "release", "show", r3.ID, "--json")
	var rec release.Record
	if err := json.Unmarshal([]byte(r.stdout), &rec); err != nil || r.code != exitOK {
		t.Fatalf("show --json = %d %v", r.code, err)
	}
	if !reflect.DeepEqual(&rec, r3) {
		t.Errorf("show --json = %+v\nwant %+v", rec, *r3)
	}

	for _, id := range []string{"r9-000000000000", "r9", "nope"} {
		r = f.run("", "release", "show", id)
		if r.code != exitFailure || !strings.Contains(r.stderr, "not found in project demo") || !strings.Contains(r.stderr, "`beeuni release ls`") {
			t.Errorf("show %s = %+v", id, r)
		}
	}
}

func TestReleaseDiff(t *testing.T) {
	f := newOpFixture(t)
	r1, _, r3 := f.threeReleases()
	r := f.run("", "release", "diff", "r1", "desired")
	want := fmt.Sprintf(`Changes from %s to %s:

Files:
  + new.txt
  - old.txt
  ~ tools/greet.ts

Tools:
  + memory (beeuni, beeuni:memory)
  ~ greet (module changed)

1 file added, 1 removed, 1 changed; 1 tool added, 0 removed, 1 changed.
`, r1.ID, r3.ID)
	if r.code != exitOK || r.stdout != want {
		t.Fatalf("diff = %d\n%s%s\nwant\n%s", r.code, r.stdout, r.stderr, want)
	}
	r = f.run("", "release", "diff", r1.ID, r1.ID)
	if r.code != exitOK || r.stdout != fmt.Sprintf("No changes from %s to %s: the same files and tools.\n", r1.ID, r1.ID) {
		t.Errorf("diff same = %+v", r)
	}
	r = f.run("", "release", "diff", "--json", r1.ID, r3.ID)
	var c release.Changes
	if err := json.Unmarshal([]byte(r.stdout), &c); err != nil || r.code != exitOK {
		t.Fatalf("diff --json = %d %v", r.code, err)
	}
	if want := release.Diff(r1, r3); !reflect.DeepEqual(&c, want) {
		t.Errorf("diff --json = %+v, want %+v", c, want)
	}
	if r = f.run("", "release", "diff", r1.ID, "r7"); r.code != exitFailure || !strings.Contains(r.stderr, "release r7 not found") {
		t.Errorf("diff unknown = %+v", r)
	}
}

func TestReleaseReplay(t *testing.T) {
	f := newOpFixture(t)
	r1, _, _ := f.threeReleases()
	if r := f.run("", "release", "replay", r1.ID); r.code != exitFailure || !strings.Contains(r.stderr, "no controller of project demo answered") {
		t.Fatalf("replay without controller = %+v", r)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan controller.ReplayRequest, 4)
	stop, err := f.bus.ServeControl(ctx, opProject, "replay", func(_ context.Context, body []byte) ([]byte, error) {
		var req controller.ReplayRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return nil, err
		}
		got <- req
		if req.Release != r1.ID {
			return nil, fmt.Errorf("replay %s: it was rejected (1 findings) and never reached the fleet", req.Release)
		}
		return json.Marshal(controller.ReplayAnswer{Release: r1.ID, Commit: r1.Commit, HoldsUntil: "head"})
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()

	r := f.run("", "release", "replay", "r1")
	want := fmt.Sprintf("Replayed %s (commit %s) to the fleet. It holds until a new commit lands on the branch.\n", r1.ID, r1.Commit[:12])
	if r.code != exitOK || r.stdout != want {
		t.Fatalf("replay = %+v", r)
	}
	if req := <-got; req.Release != r1.ID {
		t.Errorf("controller got %+v", req)
	}
	r = f.run("", "release", "replay", "r2")
	if r.code != exitFailure || !strings.Contains(r.stderr, "it was rejected (1 findings) and never reached the fleet") {
		t.Errorf("replay rejected = %+v", r)
	}
}

func TestReleaseTrustKey(t *testing.T) {
	f := newOpFixture(t)
	_, _, r3 := f.threeReleases()
	if r := f.run("", "release", "show", r3.ID, "--trust-key", f.pubFile); r.code != exitOK {
		t.Fatalf("show with the right key = %+v", r)
	}
	other, _, _ := ed25519.GenerateKey(rand.Reader)
	otherFile := filepath.Join(t.TempDir(), "other.pub")
	if err := release.WritePublicKey(otherFile, other); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"release", "show", r3.ID}, {"release", "ls"}, {"status"}} {
		r := f.run("", append(args, "--trust-key", otherFile)...)
		if r.code != exitFailure || !strings.Contains(r.stderr, "signature") {
			t.Errorf("%v with another key = %+v", args, r)
		}
	}
	if r := f.run("", "release", "ls", "--trust-key", filepath.Join(t.TempDir(), "missing.pub")); r.code != exitFailure || !strings.Contains(r.stderr, "read trusted key") {
		t.Errorf("missing key = %+v", r)
	}
}

func TestOpUsage(t *testing.T) {
	cases := []struct {
		args []string
		code int
		err  string
	}{
		{[]string{"release"}, exitUsage, "Usage: beeuni release"},
		{[]string{"release", "--help"}, exitOK, "Usage: beeuni release"},
		{[]string{"release", "tag"}, exitUsage, `unknown subcommand "tag"`},
		{[]string{"release", "ls", "extra"}, exitUsage, `unexpected argument "extra"`},
		{[]string{"release", "ls", "--bogus"}, exitUsage, "flag provided but not defined"},
		{[]string{"release", "ls", "--help"}, exitOK, "Usage: beeuni release ls"},
		{[]string{"release", "ls", "--limit", "-1"}, exitUsage, "want 0 (all) or more"},
		{[]string{"release", "show"}, exitUsage, "want one release id"},
		{[]string{"release", "diff", "r1"}, exitUsage, "want two release ids"},
		{[]string{"release", "replay"}, exitUsage, "want one release id"},
		{[]string{"status", "now"}, exitUsage, `unexpected argument "now"`},
		{[]string{"status", "--project", "bad name"}, exitUsage, "project name"},
		{[]string{"secrets"}, exitUsage, "Usage: beeuni secrets set NAME=-"},
		{[]string{"secrets", "get", "X"}, exitUsage, `unknown subcommand "get"`},
		{[]string{"secrets", "set"}, exitUsage, "want one NAME=- argument"},
		{[]string{"secrets", "set", "API_KEY"}, exitUsage, "write API_KEY=- and give the value on standard input"},
		{[]string{"secrets", "set", "API KEY=-"}, exitUsage, "secret name"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			// A closed port: none of these may get as far as dialling.
			r := runOp(t, "", nil, append(tc.args, "--nats", closedURL(t))...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.err) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", r.code, r.stderr, tc.code, tc.err)
			}
		})
	}
}

// closedURL is a NATS URL on a loopback port nothing listens on.
func closedURL(tb testing.TB) string {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return "nats://" + addr
}

func TestOpNATSDown(t *testing.T) {
	url := closedURL(t)
	for _, args := range [][]string{
		{"release", "ls"}, {"release", "show", "latest"}, {"release", "diff", "r1", "r2"}, {"release", "replay", "r1"},
		{"status"}, {"secrets", "set", "API_KEY=-"},
	} {
		// The URL comes from BEEUNI_NATS_URL, as the flag's fallback.
		r := runOp(t, "s3cr3t-xyz\n", map[string]string{"BEEUNI_NATS_URL": url}, append(args, "--project", "demo")...)
		if r.code != exitFailure || !strings.Contains(r.stderr, "connect to NATS at "+url) || !strings.Contains(r.stderr, "start `beeuni up` or pass --nats") {
			t.Errorf("%v = %+v", args, r)
		}
		if strings.Contains(r.stderr+r.stdout, "s3cr3t-xyz") {
			t.Errorf("%v printed the secret", args)
		}
	}
}
