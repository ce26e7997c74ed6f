package controller

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/events/natstest"
	"github.com/beeuni/beeuni/internal/gitrepo"
	"github.com/beeuni/beeuni/internal/modcheck"
	"github.com/beeuni/beeuni/loader/jshost"
	"github.com/beeuni/beeuni/release"
	"github.com/beeuni/beeuni/store"
)

const waitFor = 20 * time.Second

// checkChild makes this test binary the controller's module check process
// (`beeuni internal check` in the real binary): the tests check modules in
// a confined child, as the controller does.
const checkChild = "controller-test-check-child"

func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == checkChild {
		os.Exit(modcheck.Serve(context.Background(), os.Stdin, os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// checkModules is the real module check, run from this test binary.
func checkModules(opts modcheck.Options) func(context.Context, string, []jshost.Spec) ([]jshost.Failure, error) {
	opts.Command = []string{os.Args[0], checkChild}
	return modcheck.New(opts).Check
}

// fixture is a real Git repository in a temp folder, a real NATS server and
// a bbolt file: everything a controller touches.
type fixture struct {
	tb      testing.TB
	repoDir string
	repo    *git.Repository
	nats    *events.Embedded
	bus     *events.Bus
	dataDir string
	key     ed25519.PrivateKey
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	f := &fixture{tb: tb, repoDir: filepath.Join(tb.TempDir(), "project"), dataDir: tb.TempDir()}
	repo, err := git.PlainInitWithOptions(f.repoDir, &git.PlainInitOptions{
		InitOptions: git.InitOptions{DefaultBranch: "refs/heads/main"},
	})
	if err != nil {
		tb.Fatal(err)
	}
	f.repo = repo
	f.nats = natstest.RunServer(tb)
	f.bus = f.connect()
	_, f.key, _ = ed25519.GenerateKey(nil)
	return f
}

func (f *fixture) connect() *events.Bus {
	f.tb.Helper()
	ctx := context.Background()
	bus, err := events.Connect(ctx, f.nats.ClientURL(), events.Options{RetryOnFailedConnect: true})
	if err != nil {
		f.tb.Fatal(err)
	}
	f.tb.Cleanup(func() { bus.Close() })
	if err := bus.Ensure(ctx, 1); err != nil {
		f.tb.Fatal(err)
	}
	return bus
}

// commit writes files (gitrepo.Delete deletes) and commits them to main.
func (f *fixture) commit(msg string, files map[string]string) string {
	f.tb.Helper()
	h, err := gitrepo.Commit(f.repoDir, msg, files)
	if err != nil {
		f.tb.Fatal(err)
	}
	return h
}

// running is a controller running in a goroutine, stopped at cleanup.
type running struct {
	*Controller
	db     *store.DB
	cancel context.CancelFunc
	done   chan error
	once   sync.Once
}

func (f *fixture) start(mutate func(*Config)) *running {
	f.tb.Helper()
	db, err := store.Open(filepath.Join(f.dataDir, "controller.db"))
	if err != nil {
		f.tb.Fatal(err)
	}
	cfg := Config{Project: "demo", Repo: f.repoDir, Poll: time.Hour, DataDir: f.dataDir, Key: f.key, Bus: f.bus, DB: db,
		MinBackoff: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond, CheckModules: checkModules(modcheck.Options{})}
	if mutate != nil {
		mutate(&cfg)
	}
	c, err := New(cfg)
	if err != nil {
		f.tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{Controller: c, db: db, cancel: cancel, done: make(chan error, 1)}
	go func() { r.done <- c.Run(ctx) }()
	f.tb.Cleanup(r.stop)
	return r
}

func (r *running) stop() {
	r.once.Do(func() {
		r.cancel()
		<-r.done
		r.db.Close()
	})
}

// desired returns the verified pointer the fleet is told to run.
func (f *fixture) desired() (release.Pointer, error) {
	raw, _, err := f.bus.GetDesired(context.Background(), "demo")
	if err != nil {
		return release.Pointer{}, err
	}
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		return release.Pointer{}, err
	}
	var p release.Pointer
	err = release.Verify(f.key.Public().(ed25519.PublicKey), env, &p)
	return p, err
}

// record fetches and verifies a release record from NATS.
func (f *fixture) record(id string) *release.Record {
	f.tb.Helper()
	raw, err := f.bus.GetRelease(context.Background(), "demo", id)
	if err != nil {
		f.tb.Fatal(err)
	}
	var env release.Envelope
	if err := json.Unmarshal(raw, &env); err != nil {
		f.tb.Fatal(err)
	}
	var rec release.Record
	if err := release.Verify(f.key.Public().(ed25519.PublicKey), env, &rec); err != nil {
		f.tb.Fatal(err)
	}
	if err := release.VerifyRecord(&rec); err != nil {
		f.tb.Fatal(err)
	}
	return &rec
}

// waitDesiredCommit waits until the desired release is built from commit.
func (f *fixture) waitDesiredCommit(commit string) *release.Record {
	f.tb.Helper()
	var rec *release.Record
	natstest.WaitFor(f.tb, waitFor, func() error {
		p, err := f.desired()
		if err != nil {
			return err
		}
		rec = f.record(p.Release)
		if rec.Commit != commit {
			return errors.New("desired release is of commit " + rec.Commit + ", want " + commit)
		}
		return nil
	})
	return rec
}

// events returns the types of the events stored for demo, in order.
func (f *fixture) events() []string {
	f.tb.Helper()
	evs, err := f.bus.ReadEvents(context.Background(), events.EventFilter{Project: "demo"}, 1000)
	if err != nil {
		f.tb.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

const validManifest = "tools:\n  web_search: beeuni:web_search\n  greet: tools/greet.ts\n"

const greetTool = `export default {
  description: 'Greet someone.',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  execute(args) { return 'hello ' + (args.name ?? 'world') },
}
`
