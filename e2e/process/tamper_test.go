package process

import (
	"crypto/ed25519"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/beeuni/beeuni/events"
	"github.com/beeuni/beeuni/release"
)

// TestTamperedReleaseRefused puts forged releases on the wire: a pointer
// signed by another key, and a pointer signed by the controller's key to a
// record signed by another. Every executor refuses both, keeps serving its
// release, says so in its status, and still follows the next real release.
func TestTamperedReleaseRefused(t *testing.T) {
	needProcesses(t)
	t.Parallel()
	nf := newNATS(t)
	const project = "tamper"
	ctx := t.Context()
	repo := newRepo(t, project)
	ctl := startController(t, nf, project, repo.dir, dataDir(t, "controller"))
	r1 := ctl.published(t, repo.commit("greet v1", v1Files()))
	exs := []*executorProc{
		startExecutor(t, nf.url(), project, "a", dataDir(t, "executor-a"), ctl.trustKey()),
		startExecutor(t, nf.url(), project, "b", dataDir(t, "executor-b"), ctl.trustKey()),
	}
	for _, ex := range exs {
		ex.converged(t, r1)
	}
	good, err := nf.record(ctx, project, r1)
	if err != nil {
		t.Fatal(err)
	}
	_, evil, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	// The controller's own key, as a thief of the pointer path would have it.
	ctlKey, err := release.LoadOrCreateKey(filepath.Join(ctl.data, "signing.key"))
	if err != nil {
		t.Fatal(err)
	}
	evilID := release.KeyID(evil.Public().(ed25519.PublicKey))

	cases := []struct {
		name string
		put  func(t *testing.T) (mention string) // what the refusal must name
	}{
		{"pointer signed by another key", func(t *testing.T) string {
			putDesired(t, nf, project, evil, release.Pointer{Project: project, Release: "r8-000000000008",
				Digest: good.Digest, Seq: 8, At: time.Now().UTC()})
			return evilID
		}},
		{"record signed by another key", func(t *testing.T) string {
			forged := good
			forged.ID, forged.Seq = "r9-000000000009", 9
			env, err := release.Sign(evil, forged)
			if err != nil {
				t.Fatal(err)
			}
			if err := nf.bus.PutRelease(ctx, project, forged.ID, mustJSON(t, env)); err != nil {
				t.Fatal(err)
			}
			putDesired(t, nf, project, ctlKey, release.Pointer{Project: project, Release: forged.ID,
				Digest: good.Digest, Seq: 9, At: time.Now().UTC()})
			return forged.ID
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mention := tc.put(t)
			for _, ex := range exs {
				waitFor(t, startTimeout, "executor "+ex.id+" to refuse it", func() error {
					s, err := ex.status()
					if err != nil {
						return err
					}
					if s.Release != r1 {
						return fmt.Errorf("%w: executor %s moved to %s", errFatal, ex.id, s.Release)
					}
					if !strings.Contains(s.Error, "refused") || !strings.Contains(s.Error, mention) {
						return fmt.Errorf("executor %s status error %q, want a refusal naming %s", ex.id, s.Error, mention)
					}
					return nil
				})
				checkWhole(t, ex, map[string]string{r1: "v1"})
			}
			waitFor(t, startTimeout, "beeuni status to report both refusals", func() error {
				s := beeuniStatus(t, nf.url(), project)
				if len(s.Executors) != 2 {
					return fmt.Errorf("status lists %d executors", len(s.Executors))
				}
				for _, e := range s.Executors {
					if e.Release != r1 || !strings.Contains(e.Error, mention) {
						return fmt.Errorf("executor %s: release %s, error %q", e.ID, e.Release, e.Error)
					}
				}
				return nil
			})
		})
	}

	refused := map[string]bool{}
	evs, err := nf.bus.ReadEvents(ctx, events.EventFilter{Project: project, Type: "executor.release_refused"}, 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range evs {
		var p struct {
			Executor string `json:"executor"`
		}
		if json.Unmarshal(e.Payload, &p) == nil {
			refused[p.Executor] = true
		}
	}
	if !refused["a"] || !refused["b"] {
		t.Errorf("executor.release_refused events came from %v, want both a and b", refused)
	}

	// The fleet is not wedged: the next real release is followed.
	r2 := ctl.published(t, repo.commit("greet v2, farewell", v2Files()))
	for _, ex := range exs {
		ex.converged(t, r2)
		checkWhole(t, ex, map[string]string{r2: "v2"})
	}
}

func putDesired(t *testing.T, nf *natsFix, project string, key ed25519.PrivateKey, ptr release.Pointer) {
	t.Helper()
	env, err := release.Sign(key, ptr)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := nf.bus.PutDesired(t.Context(), project, mustJSON(t, env)); err != nil {
		t.Fatal(err)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
