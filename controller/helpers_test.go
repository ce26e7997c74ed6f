package controller

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/fleettest"
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
func checkModules(opts modcheck.Options) func(context.Context, string, []jshost.Spec) ([]jshost.Failure, map[string]jshost.Meta, error) {
	opts.Command = []string{os.Args[0], checkChild}
	return modcheck.New(opts).Check
}

// fixture is everything a controller touches: a real Git repository, a
// real NATS server (fleettest) and a bbolt file in dataDir.
type fixture struct {
	*fleettest.Fleet
	tb      testing.TB
	dataDir string
}

func newFixture(tb testing.TB) *fixture {
	tb.Helper()
	return &fixture{Fleet: fleettest.New(tb, "demo"), tb: tb, dataDir: tb.TempDir()}
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
	cfg := Config{Project: f.Project, Repo: f.RepoDir, Poll: time.Hour, DataDir: f.dataDir, Key: f.Key, Bus: f.Bus, DB: db,
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

// record fetches and verifies a release record from NATS.
func (f *fixture) record(id string) *release.Record {
	f.tb.Helper()
	rec, err := f.Record(id)
	if err != nil {
		f.tb.Fatal(err)
	}
	return rec
}

const validManifest = "tools:\n  web_search: beeuni:web_search\n  greet: tools/greet.ts\n"

const greetTool = `export default {
  description: 'Greet someone.',
  parameters: { type: 'object', properties: { name: { type: 'string' } } },
  execute(args) { return 'hello ' + (args.name ?? 'world') },
}
`
