package executor

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/events/natstest"
)

// poison writes content into a laid-out file in place, as a tool could
// before the JS host's policy: through the hard link, the content cache's
// copy changes too. The mode stays read-only (root writes through it), so
// the cache file still looks like one a layout may link.
func poison(t *testing.T, p, content string) {
	t.Helper()
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, fi.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// sameSize pads evil with a comment to the size of orig: a size check
// alone does not tell them apart.
func sameSize(t *testing.T, orig, evil string) string {
	t.Helper()
	if len(evil)+3 > len(orig) {
		t.Fatalf("the poisoned module (%d bytes) must be shorter than the original (%d)", len(evil), len(orig))
	}
	return evil + "//" + strings.Repeat(" ", len(orig)-len(evil)-3) + "\n"
}

const poisoned = `export default {
  description: 'Read one variable of context.env.',
  parameters: { type: 'object', properties: {} },
  execute() { return 'POISONED' },
}
`

// A poisoned cache is healed at the next switch: the next release has the
// poisoned file unchanged, and the executor serves the signed bytes.
func TestHealPoisonedCacheAtSwitch(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	n := startNode(t, "e1", t.TempDir(), f.natsURL, func(c *Config) { c.TrustKey = f.TrustKey() })
	n.waitConverged(f.first.ID)
	poison(t, filepath.Join(releasesDir(n.dataDir), f.first.ID, "tools/env.ts"), sameSize(t, cproject("v1")["tools/env.ts"], poisoned))

	rec := f.release("v2", cproject("v2")) // tools/env.ts unchanged
	n.waitConverged(rec.ID)
	if got := n.callAs("researcher", "env", `{"name":"HOME"}`); got.Output == "POISONED" || got.IsError {
		t.Fatalf("env after the switch answered %+v: the poisoned module is served", got)
	}
	if !strings.Contains(n.logs.String(), "laid-out files fail verification") {
		t.Errorf("the heal was not logged:\n%s", n.logs.String())
	}
}

// A restart verifies the folder it serves from bbolt against the signed
// record kept with it. With NATS down: what the cache still holds intact
// is healed at once; poisoned content is not served, the executor says so,
// and it converges once NATS is back.
func TestHealAtRestart(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	trust := func(c *Config) { c.TrustKey = f.TrustKey() }
	n := startNode(t, "e1", data, f.natsURL, trust)
	n.waitConverged(f.first.ID)
	dir := filepath.Join(releasesDir(data), f.first.ID)

	// A file added beside a module and a module replaced by a new file
	// (the cache's copy intact): healed from the cache, NATS or not.
	f.NATS.Shutdown()
	n.stop()
	if err := os.Chmod(filepath.Join(dir, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools/extra.ts"), []byte("planted\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "tools/answer.ts")); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tools/answer.ts"), []byte(strings.ReplaceAll(cproject("v1")["tools/answer.ts"], "'v1'", "'EVIL'")), 0o444); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, "e1", data, f.natsURL, trust)
	if r := n.mustDo("GET", "/readyz", ""); r.status != http.StatusOK {
		t.Fatalf("readyz after a restart the cache heals: %d %s", r.status, r.body)
	}
	n.expectAnswer("", "v1", f.first.ID)
	if _, err := os.Stat(filepath.Join(dir, "tools/extra.ts")); !os.IsNotExist(err) {
		t.Errorf("the planted file is still there: %v", err)
	}

	// Content poisoned through the hard link, cache included: with NATS
	// down it cannot be healed, so nothing is served.
	n.stop()
	poison(t, filepath.Join(dir, "tools/answer.ts"), strings.ReplaceAll(cproject("v1")["tools/answer.ts"], "'v1'", "'EV'"))
	n = startNode(t, "e1", data, f.natsURL, trust)
	if r := n.mustDo("GET", "/readyz", ""); r.status == http.StatusOK {
		t.Fatalf("readyz answered 200 over poisoned content: %s", r.body)
	}
	if r := n.mustDo("POST", "/beeuni/tools/answer", ""); r.status == http.StatusOK {
		t.Fatalf("a call was answered from poisoned content: %s", r.body)
	}
	if st := n.status(); !strings.Contains(st.Error, "not serving release "+f.first.ID+" until NATS is back") {
		t.Fatalf("status error %q does not say why nothing is served", st.Error)
	}
	f.NATS = natstest.Restart(t, f.NATS)
	n.waitConverged(f.first.ID)
	n.expectAnswer("", "v1", f.first.ID)
}

// A state database found corrupt at a restart is moved aside with one log
// line, and the executor converges again from NATS.
func TestCorruptStateDatabase(t *testing.T) {
	t.Parallel()
	f := newFleet(t, cproject("v1"))
	data := t.TempDir()
	n := startNode(t, "e1", data, f.natsURL)
	n.waitConverged(f.first.ID)
	n.stop()
	if err := os.WriteFile(filepath.Join(data, dbName), []byte(strings.Repeat("\xa5", 64<<10)), 0o600); err != nil {
		t.Fatal(err)
	}
	n = startNode(t, "e1", data, f.natsURL)
	n.waitConverged(f.first.ID)
	n.expectAnswer("", "v1", f.first.ID)
	if m, _ := filepath.Glob(filepath.Join(data, dbName+".corrupt-*")); len(m) != 1 {
		t.Errorf("corrupt files kept aside: %v", m)
	}
	if c := strings.Count(n.logs.String(), "state database was corrupt"); c != 1 {
		t.Errorf("%d log lines about it, want 1:\n%s", c, n.logs.String())
	}
}
