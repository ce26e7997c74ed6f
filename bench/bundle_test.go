package bench

import (
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestBundleScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("bundles large packages")
	}
	npm := true
	if _, err := exec.LookPath("npm"); err != nil {
		npm = false
		t.Log("npm not found on PATH: the real packages are checked as skipped")
	}
	for _, withNPM := range []bool{npm, false} {
		if !withNPM {
			// No npm and an empty cache: the scenario says so and measures
			// the generated package only.
			t.Setenv("PATH", t.TempDir())
			t.Setenv("XDG_CACHE_HOME", t.TempDir())
			t.Setenv("HOME", t.TempDir())
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		rep, err := Run(ctx, []string{ScenarioBundle}, Config{Rounds: 1, Quick: true, Sizes: tinySizes, Progress: testWriter{t}})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		sc := rep.Scenarios[0]
		cases := map[string]bool{}
		for _, r := range sc.Rows {
			cases[r.Case] = true
			if r.Beeuni.Median <= 0 || r.Baselines[0].Stat == nil || r.Baselines[0].Ratio <= 0 {
				t.Errorf("%s %s: beeuni %v, baseline %+v", r.Case, r.Metric, r.Beeuni.Median, r.Baselines[0])
			}
		}
		want := []string{"generated package (600 modules)"}
		if withNPM {
			want = append(want, "lodash-es@4.17.21", "zod@4.3.6")
		}
		if len(cases) != len(want) || len(sc.Targets) != 3 {
			t.Fatalf("npm %v: cases %v, targets %+v", withNPM, cases, sc.Targets)
		}
		for _, c := range want {
			if !cases[c] {
				t.Errorf("npm %v: no row for %s", withNPM, c)
			}
		}
		skipped := 0
		for _, tg := range sc.Targets {
			if tg.Skipped != "" {
				skipped++
				if !strings.Contains(tg.Skipped, "npm not found") {
					t.Errorf("skipped target says %q", tg.Skipped)
				}
			}
		}
		if want := map[bool]int{true: 0, false: 2}[withNPM]; skipped != want {
			t.Errorf("npm %v: %d skipped targets, want %d", withNPM, skipped, want)
		}
	}
}
