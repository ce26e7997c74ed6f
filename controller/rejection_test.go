package controller

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/beeuni/beeuni/events/natstest"
)

// TestStatusNamesTheRejectedCommit: after a commit whose manifest has an
// error, GET /status names it, its first finding and the release the fleet
// stays on, across a restart, until a good commit is published.
func TestStatusNamesTheRejectedCommit(t *testing.T) {
	f := newFixture(t)
	good := f.Commit("good", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	var mu sync.Mutex
	var told []Rejection
	onRejected := func(cfg *Config) {
		cfg.OnRejected = func(r Rejection) { mu.Lock(); told = append(told, r); mu.Unlock() }
	}
	c := f.start(onRejected)
	goodRec := f.WaitDesiredCommit(good, waitFor)
	if st := c.Status(); st.Rejected != nil {
		t.Fatalf("status after a good commit reports a rejection: %+v", st.Rejected)
	}

	bad := f.Commit("Break the manifest", map[string]string{"beeuni.yaml": "tools:\n  web_search: beeuni:image_search\n"})
	c.Nudge()
	wantRejected := func(c *running) *Rejection {
		t.Helper()
		var got *Rejection
		natstest.WaitFor(t, waitFor, func() error {
			st := c.Status()
			if st.Rejected == nil || st.LastCommit != bad {
				return fmt.Errorf("status %+v names no rejection of %s", st, bad)
			}
			got = st.Rejected
			return nil
		})
		if got.Commit != bad || got.Subject != "Break the manifest" || got.StaysOn != goodRec.ID || got.Findings != 1 ||
			!strings.HasPrefix(got.Finding, "beeuni.yaml:2: error: ") || !strings.Contains(got.Finding, "beeuni:web_search") {
			t.Fatalf("rejection = %+v, want commit %s, its subject, its first finding at beeuni.yaml:2, stays on %s", got, bad, goodRec.ID)
		}
		return got
	}
	first := wantRejected(c)
	mu.Lock()
	if len(told) != 1 || told[0] != *first {
		t.Fatalf("OnRejected was told %+v, want once %+v", told, *first)
	}
	mu.Unlock()

	// The JSON keeps its fields and adds "rejected".
	srv := httptest.NewServer(c.Handler())
	resp, err := http.Get(srv.URL + "/status")
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	err = json.NewDecoder(resp.Body).Decode(&raw)
	resp.Body.Close()
	srv.Close()
	if err != nil {
		t.Fatal(err)
	}
	var rj Rejection
	if err := json.Unmarshal(raw["rejected"], &rj); err != nil || rj != *first {
		t.Fatalf("GET /status rejected = %s (%v), want %+v", raw["rejected"], err, *first)
	}
	for _, k := range []string{"project", "branch", "head", "last_commit", "desired", "healthy"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("GET /status lost the field %q", k)
		}
	}

	// A restart remembers it.
	c.stop()
	c = f.start(nil)
	wantRejected(c)

	// A good commit clears it.
	fixed := f.Commit("Fix the manifest", map[string]string{"beeuni.yaml": validManifest})
	c.Nudge()
	f.WaitDesiredCommit(fixed, waitFor)
	cleared := func(c *running) {
		t.Helper()
		natstest.WaitFor(t, waitFor, func() error {
			if st := c.Status(); st.Rejected != nil || st.LastCommit != fixed || !st.Healthy {
				return fmt.Errorf("status after the fix %+v, rejected %+v", st, st.Rejected)
			}
			return nil
		})
	}
	cleared(c)
	// And a restart does not bring it back.
	c.stop()
	cleared(f.start(nil))
}

// TestMergeHookAnswersTheCommit: the hook's answer names the commit it
// will look at: the one in the body, else the branch head.
func TestMergeHookAnswersTheCommit(t *testing.T) {
	f := newFixture(t)
	first := f.Commit("one", map[string]string{"beeuni.yaml": validManifest, "tools/greet.ts": greetTool})
	c := f.start(nil)
	f.WaitDesiredCommit(first, waitFor)
	srv := httptest.NewServer(c.Handler())
	defer srv.Close()
	second := f.Commit("two", map[string]string{"c.txt": "c"})
	cases := []struct {
		name, body, want string
	}{
		{"empty body", "", second},
		{"empty object", "{}", second},
		{"a commit", `{"commit": "` + first + `"}`, first},
	}
	for _, tc := range cases {
		resp, err := http.Post(srv.URL+"/hooks/merge", "application/json", bytes.NewReader([]byte(tc.body)))
		if err != nil {
			t.Fatal(err)
		}
		var got struct{ Status, Commit, Branch string }
		err = json.NewDecoder(resp.Body).Decode(&got)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusAccepted || got.Commit != tc.want || got.Status != "accepted" || got.Branch != DefaultBranch {
			t.Errorf("%s: %s %+v (%v), want 202 with commit %s on %s", tc.name, resp.Status, got, err, tc.want, DefaultBranch)
		}
	}
	f.WaitDesiredCommit(second, waitFor)
}
