package executor

import (
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/internal/fleettest"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// convergeWait bounds every wait of the converge tests; a passing run
// waits far less (each condition is polled).
const convergeWait = 30 * time.Second

const testProject = "demo"

// convergeManifest is the project of the converge tests: researcher is
// granted API_KEY, greeter sees the same tools but no secret.
const convergeManifest = `tools:
  answer: tools/answer.ts
  env: tools/env.ts
  wait: tools/wait.ts
agents:
  researcher:
    tools: [answer, env]
    secrets: [API_KEY]
  greeter:
    tools: [answer, env]
`

// cproject is a commit's files whose answer tool says version.
func cproject(version string) map[string]string {
	return map[string]string{
		"beeuni.yaml":     convergeManifest,
		"tools/answer.ts": answerTool(version),
		"tools/env.ts":    envTool,
		// wait answers once the file at args.path exists, so a test decides
		// when a call in flight ends without writing into a release folder.
		"tools/wait.ts": `import { existsSync } from 'node:fs'
export default {
  description: 'Wait for a flag file, then say which version answers.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
  async execute(args: { path: string }) {
    while (!existsSync(args.path)) {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
    return '` + version + `:done'
  },
}
`,
	}
}

// brokenProject is a commit whose every module fails to load, each its own way.
func brokenProject() map[string]string {
	return map[string]string{
		"beeuni.yaml":     convergeManifest,
		"tools/answer.ts": "export default { description: 'x', execute( {\n",
		"tools/env.ts":    "export default 42\n",
		"tools/wait.ts":   "throw new Error('wait does not load')\nexport default { description: 'w', execute() { return 1 } }\n",
	}
}

// fleet is one project's real parts (fleettest) and a controller
// publishing the branch.
type fleet struct {
	*fleettest.Fleet
	tb      testing.TB
	natsURL string
	ctrl    *controller.Controller
	ctrlLog *syncBuffer
	first   *release.Record
}

// newFleet commits files as the first commit, starts NATS and the
// controller, and waits for the first release.
func newFleet(tb testing.TB, files map[string]string) *fleet {
	tb.Helper()
	f := &fleet{Fleet: fleettest.New(tb, testProject), tb: tb, ctrlLog: &syncBuffer{}}
	f.natsURL = f.NATS.ClientURL()
	commit := f.Commit("first tools", files)

	dataDir := tb.TempDir()
	db, err := store.Open(filepath.Join(dataDir, "controller.db"))
	if err != nil {
		tb.Fatal(err)
	}
	f.ctrl, err = controller.New(controller.Config{Project: testProject, Repo: f.RepoDir, Poll: time.Hour, DataDir: dataDir,
		Key: f.Key, Bus: f.Bus, DB: db, Logger: newTestLogger(f.ctrlLog),
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- f.ctrl.Run(ctx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("controller Run: %v", err)
		}
		db.Close()
	})
	f.first = f.WaitDesiredCommit(commit, convergeWait)
	return f
}

// release commits files, nudges the controller and waits until the fleet's
// desired release is built from that commit.
func (f *fleet) release(msg string, files map[string]string) *release.Record {
	f.tb.Helper()
	commit := f.Commit(msg, files)
	f.ctrl.Nudge()
	return f.WaitDesiredCommit(commit, convergeWait)
}

// signed marshals v signed by key.
func signed(tb testing.TB, key ed25519.PrivateKey, v any) []byte {
	tb.Helper()
	env, err := release.Sign(key, v)
	if err != nil {
		tb.Fatal(err)
	}
	b, err := json.Marshal(env)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// executorEvents returns the events of type typ about executor id.
func (f *fleet) executorEvents(typ, id string) []map[string]any {
	f.tb.Helper()
	evs, err := f.Bus.ReadEvents(context.Background(), events.EventFilter{Project: testProject, Type: typ}, 1000)
	if err != nil {
		f.tb.Fatal(err)
	}
	var out []map[string]any
	for _, e := range evs {
		var m map[string]any
		if err := json.Unmarshal(e.Payload, &m); err != nil {
			f.tb.Fatalf("event %s payload %q: %v", e.Type, e.Payload, err)
		}
		if m["executor"] == id {
			out = append(out, m)
		}
	}
	return out
}

// report reads executor id's state from the fleet bucket.
func (f *fleet) report(id string) (Report, []byte, error) {
	states, err := f.Bus.ExecutorStates(context.Background(), testProject)
	if err != nil {
		return Report{}, nil, err
	}
	raw, ok := states[id]
	if !ok {
		return Report{}, nil, fmt.Errorf("executor %s has not reported (reports: %d)", id, len(states))
	}
	var r Report
	return r, raw, json.Unmarshal(raw, &r)
}

// node is a running executor: its HTTP API on loopback (the embedded env
// gives call, do, turn) and its data folder.
type node struct {
	*env
	ex      *Executor
	id      string
	dataDir string
	cancel  context.CancelFunc
	done    chan error
	once    sync.Once
}

// startNode runs executor id on dataDir, following natsURL.
func startNode(tb testing.TB, id, dataDir, natsURL string, mutate ...func(*Config)) *node {
	tb.Helper()
	logs := &syncBuffer{}
	log := newTestLogger(logs)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	cfg := Config{ID: id, Project: testProject, DataDir: dataDir, NATSURL: natsURL, Logger: log,
		ReportEvery: 100 * time.Millisecond, Server: Options{Listener: ln}}
	for _, m := range mutate {
		m(&cfg)
	}
	ex, err := NewExecutor(cfg)
	if err != nil {
		ln.Close()
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	n := &node{ex: ex, id: id, dataDir: dataDir, cancel: cancel, done: make(chan error, 1),
		env: &env{tb: tb, srv: ex.Server(), url: "http://" + ln.Addr().String(), logs: logs, log: log, client: newTestClient(tb)}}
	go func() { n.done <- ex.Run(ctx) }()
	tb.Cleanup(n.stop)
	return n
}

// stop ends Run and closes the executor (once).
func (n *node) stop() {
	n.once.Do(func() {
		n.cancel()
		if err := <-n.done; err != nil {
			n.tb.Errorf("executor %s Run: %v", n.id, err)
		}
		if err := n.ex.Close(); err != nil {
			n.tb.Errorf("executor %s Close: %v", n.id, err)
		}
	})
}

// status is GET /beeuni/status.
func (n *node) status() Status {
	n.tb.Helper()
	r := n.mustDo("GET", "/beeuni/status", "")
	var st Status
	if r.status != 200 || json.Unmarshal(r.body, &st) != nil {
		n.tb.Fatalf("status: %d %s", r.status, r.body)
	}
	return st
}

// waitConverged waits until the executor serves id, converged.
func (n *node) waitConverged(id string) Status {
	n.tb.Helper()
	var st Status
	waitFor(n.tb, convergeWait, func() error {
		st = n.status()
		if st.Release != id || st.State != "converged" {
			return fmt.Errorf("executor %s serves %q (%s, error %q), want %s converged", n.id, st.Release, st.State, st.Error, id)
		}
		return nil
	})
	return st
}

// releaseDirs lists the folders under the executor's releases folder.
func (n *node) releaseDirs() []string {
	n.tb.Helper()
	entries, err := os.ReadDir(releasesDir(n.dataDir))
	if err != nil {
		n.tb.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	sort.Strings(out)
	return out
}

// waitDirs waits until the releases folder holds exactly want.
func (n *node) waitDirs(want ...string) {
	n.tb.Helper()
	sort.Strings(want)
	waitFor(n.tb, convergeWait, func() error {
		if got := n.releaseDirs(); strings.Join(got, ",") != strings.Join(want, ",") {
			return fmt.Errorf("release folders %v, want %v", got, want)
		}
		return nil
	})
}

// callAs calls tool as agent (no session) and returns the 200 answer.
func (n *node) callAs(agent, tool, body string) CallResponse {
	n.tb.Helper()
	return n.call(tool, body, HeaderAgent, agent)
}

// expectAnswer checks that a call of answer in session returns want
// from release rel.
func (n *node) expectAnswer(session, want, rel string) {
	n.tb.Helper()
	var h []string
	if session != "" {
		h = []string{HeaderSession, session}
	}
	got := n.call("answer", "", h...)
	if got.Output != want || got.Release != rel {
		n.tb.Fatalf("answer in session %q: %q from %s, want %q from %s", session, got.Output, got.Release, want, rel)
	}
}

var errNotYet = errors.New("not yet")

// waitSlow polls cond every 50ms: for conditions read through
// events.ReadEvents, each call of which leaves a JetStream consumer behind
// for minutes (the server allows 1000 per stream).
func waitSlow(tb testing.TB, d time.Duration, cond func() error) {
	tb.Helper()
	deadline := time.Now().Add(d)
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		err := cond()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			tb.Fatalf("condition not met after %v: %v", d, err)
		}
		<-tick.C
	}
}

func ed25519GenerateKey(tb testing.TB) (ed25519.PublicKey, ed25519.PrivateKey, error) {
	tb.Helper()
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		tb.Fatal(err)
	}
	return pub, priv, nil
}

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

func eventsFilterAll() events.EventFilter { return events.EventFilter{Project: testProject} }
