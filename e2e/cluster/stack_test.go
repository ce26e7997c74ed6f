package cluster

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/nats-io/nats-server/v2/server"

	"github.com/beeuni/beeuni/controller"
	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/executor"
	"github.com/beeuni/beeuni/internal/gitrepo"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

// stack is one cluster with a controller on node 0 and executors spread
// over the nodes, all stopped at the end of the test.
type stack struct {
	cluster *natstest.Cluster
	bus     *events.Bus // the controller's connection
	pub     ed25519.PublicKey
	ctl     *controller.Controller
	hookURL string
	repo    *repo
	execs   []*runningExec
	http    *http.Client
}

type runningExec struct {
	id  string
	url string // http://127.0.0.1:port
}

func newStack(t *testing.T) *stack {
	t.Helper()
	ctx := t.Context()
	s := &stack{cluster: natstest.RunCluster(t, replicas), repo: newRepo(t), http: &http.Client{Timeout: 10 * time.Second}}
	t.Cleanup(s.http.CloseIdleConnections)

	// The controller knows node 0 only; it learns the others from the
	// cluster (the servers' connect_urls), as a client given one seed does.
	bus, err := events.Connect(ctx, s.cluster.Nodes[0].ClientURL(), events.Options{Name: "beeuni-controller " + project, RetryOnFailedConnect: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus.Close() })
	// No bus.Ensure here: the controller's Replicas makes the streams and
	// buckets (checkReplicas proves it), as `--replicas 3` does in
	// docker-compose.yml; executors wait for them.
	s.bus = bus

	pub, key, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	dataDir := t.TempDir()
	db, err := store.Open(filepath.Join(dataDir, "controller.db"))
	if err != nil {
		t.Fatal(err)
	}
	ctl, err := controller.New(controller.Config{Project: project, Repo: s.repo.dir, Poll: time.Hour, DataDir: dataDir,
		Key: key, Bus: bus, DB: db, Replicas: replicas, MinBackoff: 20 * time.Millisecond, MaxBackoff: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	s.ctl, s.pub = ctl, pub
	s.hookURL = serve(t, ctl.Handler()) + "/hooks/merge"
	run(t, "controller", ctl.Run, func() { db.Close() })

	for i := range executors {
		s.execs = append(s.execs, startExecutor(t, fmt.Sprintf("exec-%d", i+1), urlsFrom(s.cluster, i), pub))
	}
	return s
}

// urlsFrom is every node's client URL, node i's first: each executor is
// given the whole cluster, seeded at a different node.
func urlsFrom(c *natstest.Cluster, i int) string {
	var urls []string
	for k := range c.Nodes {
		urls = append(urls, c.Nodes[(i+k)%len(c.Nodes)].ClientURL())
	}
	return strings.Join(urls, ",")
}

func startExecutor(t *testing.T, id, natsURL string, trust ed25519.PublicKey) *runningExec {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ex, err := executor.NewExecutor(executor.Config{ID: id, Project: project, DataDir: t.TempDir(), TrustKey: trust,
		NATSURL: natsURL, ReportEvery: time.Second, Server: executor.Options{Listener: l}})
	if err != nil {
		l.Close()
		t.Fatal(err)
	}
	run(t, "executor "+id, ex.Run, func() { ex.Close() })
	return &runningExec{id: id, url: "http://" + l.Addr().String()}
}

// run starts fn in a goroutine and, at cleanup, stops it, waits for it and
// then calls after. A component that fails while the test runs fails it.
func run(t *testing.T, what string, fn func(context.Context) error, after func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- fn(ctx) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("%s: %v", what, err)
		}
		after()
	})
}

// serve serves h on a loopback port until the end of the test.
func serve(t *testing.T, h http.Handler) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 5 * time.Second}
	go srv.Serve(l) //nolint:errcheck // ends with ErrServerClosed at cleanup
	t.Cleanup(func() { srv.Close() })
	return "http://" + l.Addr().String()
}

// hook calls the controller's merge hook, as CI does after a merge.
func (s *stack) hook(t *testing.T) {
	t.Helper()
	resp, err := s.http.Post(s.hookURL, "application/json", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("merge hook: %s %s", resp.Status, b)
	}
}

// waitBuilt waits until the release the fleet is told to run (the signed
// pointer in NATS, verified with the controller's key) is built from commit,
// and returns its id.
func (s *stack) waitBuilt(t *testing.T, commit string) string {
	t.Helper()
	var id string
	natstest.WaitFor(t, converge, func() error {
		ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
		defer cancel()
		raw, _, err := s.bus.GetDesired(ctx, project)
		if err != nil {
			return fmt.Errorf("desired release: %w (controller error %q)", err, s.ctl.Status().Error)
		}
		var p release.Pointer
		if err := verify(raw, s.pub, &p); err != nil {
			t.Fatalf("desired pointer: %v", err)
		}
		raw, err = s.bus.GetRelease(ctx, project, p.Release)
		if err != nil {
			return fmt.Errorf("release %s: %w", p.Release, err)
		}
		var rec release.Record
		if err := verify(raw, s.pub, &rec); err != nil {
			t.Fatalf("release %s: %v", p.Release, err)
		}
		if rec.Commit != commit {
			return fmt.Errorf("desired release %s is of commit %.12s, want %.12s (controller error %q)", rec.ID, rec.Commit, commit, s.ctl.Status().Error)
		}
		if rec.Status == release.StatusRejected {
			t.Fatalf("release %s of %.12s rejected: %v", rec.ID, commit, rec.Findings)
		}
		id = rec.ID
		return nil
	})
	return id
}

// verify checks a signed envelope and unmarshals its payload into v.
func verify(raw []byte, pub ed25519.PublicKey, v any) error {
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return err
	}
	return release.Verify(pub, env, v)
}

// waitServing waits until every executor answers the answer tool with
// version from release id.
func (s *stack) waitServing(t *testing.T, version, id string) {
	t.Helper()
	natstest.WaitFor(t, converge, func() error {
		var errs []error
		for _, e := range s.execs {
			errs = append(errs, s.answers(e, version, id))
		}
		return errors.Join(errs...)
	})
}

// checkServing asserts every executor answers at once (no waiting): a lost
// NATS node must not interrupt serving.
func (s *stack) checkServing(t *testing.T, version, id string) {
	t.Helper()
	for _, e := range s.execs {
		if err := s.answers(e, version, id); err != nil {
			t.Fatalf("right after the node stopped: %v", err)
		}
	}
}

// answers calls the answer tool on e and checks what release answered.
func (s *stack) answers(e *runningExec, version, id string) error {
	resp, err := s.http.Post(e.url+"/beeuni/tools/answer", "application/json", strings.NewReader("{}"))
	if err != nil {
		return fmt.Errorf("%s: %w", e.id, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s: read answer: %w", e.id, err)
	}
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s %s", e.id, resp.Status, bytes.TrimSpace(body))
	}
	var got executor.CallResponse
	if err := json.Unmarshal(body, &got); err != nil {
		return fmt.Errorf("%s: answer %q: %w", e.id, body, err)
	}
	if got.IsError || got.Output != version || got.Release != id {
		return fmt.Errorf("%s: answer %q (is_error %v) from release %s, want %q from %s", e.id, got.Output, got.IsError, got.Release, version, id)
	}
	return nil
}

// checkConnections reports an error until every running node together
// holds the controller's and every executor's connection.
func (s *stack) checkConnections() error {
	want := []string{"beeuni-controller " + project}
	for _, e := range s.execs {
		want = append(want, "beeuni-executor "+e.id)
	}
	var got []string
	for _, n := range s.cluster.Nodes {
		if n != nil {
			got = append(got, connNames(n.Server())...)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			return fmt.Errorf("%q is not connected to a running node (connections: %q)", w, got)
		}
	}
	return nil
}

// connNames are the names of the beeuni clients connected to srv.
func connNames(srv *server.Server) []string {
	cz, err := srv.Connz(&server.ConnzOptions{})
	if err != nil {
		return nil
	}
	var names []string
	for _, c := range cz.Conns {
		if strings.HasPrefix(c.Name, "beeuni-") {
			names = append(names, c.Name)
		}
	}
	return names
}

func beeuniClients(srv *server.Server) int { return len(connNames(srv)) }

// busiestFollower is the node, other than the meta leader, that holds the
// most beeuni connections, so stopping it forces clients to fail over.
// Clients pick their node at random: should no follower hold one, an extra
// executor seeded at a follower alone is started (and must serve version
// from release id), so the case never passes without its premise.
func (s *stack) busiestFollower(t *testing.T, version, id string) int {
	t.Helper()
	leader := s.cluster.Leader()
	if leader < 0 {
		return -1
	}
	best, most := -1, -1
	for i, n := range s.cluster.Nodes {
		if i == leader || n == nil {
			continue
		}
		if k := beeuniClients(n.Server()); k > most {
			best, most = i, k
		}
	}
	if most > 0 {
		return best
	}
	node := s.cluster.Nodes[best]
	e := startExecutor(t, fmt.Sprintf("exec-%d", len(s.execs)+1), node.ClientURL(), s.pub)
	s.execs = append(s.execs, e)
	s.waitServing(t, version, id)
	natstest.WaitFor(t, converge, func() error {
		if !slices.Contains(connNames(node.Server()), "beeuni-executor "+e.id) {
			return fmt.Errorf("%s is not connected to n%d", e.id, best+1)
		}
		return nil
	})
	return best
}

// checkReplicas asserts the streams behind the buckets were made with three
// replicas and every replica is current.
func checkReplicas(t *testing.T, bus *events.Bus) {
	t.Helper()
	for _, name := range []string{"KV_" + events.BucketDesired, "KV_" + events.BucketExecutors, "KV_" + events.BucketSecrets,
		"OBJ_" + events.BucketReleases, "OBJ_" + events.BucketContent, events.StreamEvents} {
		natstest.WaitFor(t, converge, func() error {
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			st, err := bus.JetStream().Stream(ctx, name)
			if err != nil {
				return fmt.Errorf("stream %s: %w", name, err)
			}
			info, err := st.Info(ctx)
			if err != nil {
				return fmt.Errorf("stream %s: %w", name, err)
			}
			if info.Config.Replicas != replicas {
				t.Fatalf("stream %s has %d replicas, want %d", name, info.Config.Replicas, replicas)
			}
			if info.Cluster == nil || info.Cluster.Leader == "" || len(info.Cluster.Replicas) != replicas-1 {
				return fmt.Errorf("stream %s: cluster info %+v, want a leader and %d replicas", name, info.Cluster, replicas-1)
			}
			for _, r := range info.Cluster.Replicas {
				if !r.Current {
					return fmt.Errorf("stream %s: replica %s not current", name, r.Name)
				}
			}
			return nil
		})
	}
}

// repo is a real Git repository in a temp folder, branch main.
type repo struct {
	dir string
	r   *git.Repository
}

func newRepo(tb testing.TB) *repo {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), project)
	r, err := git.PlainInitWithOptions(dir, &git.PlainInitOptions{InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"}})
	if err != nil {
		tb.Fatal(err)
	}
	return &repo{dir: dir, r: r}
}

// commit writes the project with an answer tool that says version and
// commits it to main.
func (r *repo) commit(tb testing.TB, version string) string {
	tb.Helper()
	files := map[string]string{
		"beeuni.yaml": "tools:\n  answer: tools/answer.ts\n",
		"tools/answer.ts": `export default {
  description: 'Say which version of the project answers.',
  parameters: { type: 'object', properties: {} },
  execute() { return '` + version + `' },
}
`,
	}
	h, err := gitrepo.Commit(r.dir, "Answer "+version, files)
	if err != nil {
		tb.Fatal(err)
	}
	return h
}
