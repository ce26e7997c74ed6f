package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/executor"
)

func (f *opFixture) report(id string, r executor.Report) {
	f.tb.Helper()
	r.ID = id
	b, _ := json.Marshal(r)
	if err := f.bus.PutExecutorState(context.Background(), opProject, id, b); err != nil {
		f.tb.Fatal(err)
	}
}

func TestStatus(t *testing.T) {
	f := newOpFixture(t)
	r := f.run("", "status")
	if r.code != exitOK || !strings.Contains(r.stdout, "No executor reports for project demo. Start one with `beeuni executor --project demo --nats "+f.url+"`") ||
		!strings.Contains(r.stdout, "Desired release: none yet") {
		t.Fatalf("status with nothing = %+v", r)
	}

	// Without --project, the folder names the project.
	dir := filepath.Join(t.TempDir(), "other-proj")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if r := runOp(t, "", nil, "status", "--nats", f.url, "--dir", dir); r.code != exitOK || !strings.Contains(r.stdout, "for project other-proj.") {
		t.Errorf("status --dir = %+v", r)
	}

	r1, _, r3 := f.threeReleases()
	now := time.Now().UTC()
	f.report("sandbox-1", executor.Report{Status: executor.Status{Release: r3.ID, State: "converged", Tools: []string{"greet", "memory", "web_search"}, Failed: []executor.Failure{}},
		Project: opProject, Harness: "experimental", LastSeen: now})
	f.report("sandbox-2", executor.Report{Status: executor.Status{Release: r1.ID, Desired: r3.ID, State: "converging", Tools: []string{"web_search"},
		Failed: []executor.Failure{{Name: "greet", Source: "tools/greet.ts", Reason: "Cannot find package 'left-pad'"}}},
		Project: opProject, Harness: "default", LastSeen: now})
	f.report("sandbox-3", executor.Report{Status: executor.Status{Release: r3.ID, State: "converged", Tools: []string{"greet"}},
		Project: opProject, LastSeen: now.Add(-time.Hour)})

	r = f.run("", "status")
	if r.code != exitOK {
		t.Fatalf("status = %+v", r)
	}
	rows := []*regexp.Regexp{
		regexp.MustCompile(`(?m)^EXECUTOR +RELEASE +STATE +CONVERGED +TOOLS +FAILED +LAST SEEN$`),
		regexp.MustCompile(`(?m)^sandbox-1 +` + r3.ID + ` +converged +yes +3 +0 +\d+s ago$`),
		regexp.MustCompile(`(?m)^sandbox-2 +` + r1.ID + ` +converging +no +1 +1 +\d+s ago$`),
		regexp.MustCompile(`(?m)^sandbox-3 +` + r3.ID + ` +stale +yes +1 +0 +1h ago$`),
		regexp.MustCompile(`(?m)^Tools that failed to load:\n  sandbox-2: greet \(tools/greet.ts\): Cannot find package 'left-pad'$`),
		regexp.MustCompile(`(?m)^Desired release: ` + r3.ID + ` \(seq 3\)\.$`),
	}
	for _, re := range rows {
		if !re.MatchString(r.stdout) {
			t.Errorf("status output does not match %s:\n%s", re, r.stdout)
		}
	}

	r = f.run("", "status", "--json")
	var got struct {
		Project   string           `json:"project"`
		Desired   string           `json:"desired"`
		Replay    bool             `json:"replay"`
		Executors []map[string]any `json:"executors"`
	}
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil || r.code != exitOK {
		t.Fatalf("status --json = %d %v\n%s", r.code, err, r.stdout)
	}
	if got.Project != opProject || got.Desired != r3.ID || got.Replay || len(got.Executors) != 3 {
		t.Fatalf("status --json = %+v", got)
	}
	wantState := map[string][3]any{
		"sandbox-1": {"converged", true, "converged"},
		"sandbox-2": {"converging", false, "converging"},
		"sandbox-3": {"stale", true, "converged"},
	}
	for _, e := range got.Executors {
		w := wantState[e["id"].(string)]
		if e["state"] != w[0] || e["converged"] != w[1] || e["reported_state"] != w[2] {
			t.Errorf("executor %v: want state %v converged %v reported %v", e, w[0], w[1], w[2])
		}
		for _, k := range []string{"release", "tools", "failed", "last_seen"} {
			if _, ok := e[k]; !ok {
				t.Errorf("executor %v lacks %q", e["id"], k)
			}
		}
	}

	// A replay shows in the desired line, and converged follows the pointer.
	f.desire(r1, true)
	r = f.run("", "status")
	if !strings.Contains(r.stdout, "Desired release: "+r1.ID+" (replayed; holds until a new commit lands).\n") ||
		!regexp.MustCompile(`(?m)^sandbox-2 +`+r1.ID+` +converging +yes `).MatchString(r.stdout) {
		t.Errorf("status after replay:\n%s", r.stdout)
	}
}
