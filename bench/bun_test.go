package bench

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// TestBunBaselineAnswersLikeBeeuni is the Node.js check for the Bun
// baseline: Bun.serve running the TypeScript modules answers beeuni's bytes.
func TestBunBaselineAnswersLikeBeeuni(t *testing.T) {
	bun, why, err := installBun(t.Context(), t.TempDir())
	switch {
	case errors.Is(err, npmcache.ErrNoNPM) || (err == nil && bun == ""):
		t.Skipf("no Bun: %s; the Bun baseline is not checked", why)
	case err != nil:
		t.Fatal(err)
	}
	answersLikeBeeuni(t, "bun", func(dir string, mods map[string]string) (*jsServer, error) {
		return startBun(t.Context(), bun, dir, "bench-call", mods)
	})
}

// TestCallWithoutNPM runs the call scenario where neither npm nor a cached
// Bun exists: the Bun baseline is skipped with the reason, in every row,
// target and the table, and the run still succeeds.
func TestCallWithoutNPM(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the call scenario")
	}
	t.Setenv("PATH", t.TempDir())
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	sizes := tinySizes
	sizes.CallClients = []int{1}
	rep, err := Run(t.Context(), []string{ScenarioCall}, Config{Rounds: 1, Sizes: sizes, NoNode: true})
	if err != nil {
		t.Fatal(err)
	}
	const why = "npm not found on PATH"
	sc := rep.Scenarios[0]
	for _, r := range sc.Rows {
		b := r.Baselines[1]
		if b.Name != "bun.serve" || b.Stat != nil || !strings.Contains(b.Skipped, why) {
			t.Errorf("%s %s: Bun baseline %+v, want skipped because %s", r.Case, r.Metric, b, why)
		}
		if r.Baselines[2].Stat == nil {
			t.Errorf("%s %s: the Go floor was not measured", r.Case, r.Metric)
		}
	}
	var bunTargets int
	for _, tg := range sc.Targets {
		if strings.Contains(tg.What, "Bun's") {
			bunTargets++
			if !strings.Contains(tg.Skipped, why) {
				t.Errorf("target %q: %+v, want skipped because %s", tg.What, tg, why)
			}
		}
	}
	if bunTargets == 0 {
		t.Errorf("no target against Bun in %+v", sc.Targets)
	}
	var table bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"bun (not found)", "baseline bun.serve skipped: " + why} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
}
