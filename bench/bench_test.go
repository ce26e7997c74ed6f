package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tinySizes keep every scenario to a second or two; a call figure needs
// one whole call in CallDuration, and a 10 KB JSON call under -race on a
// loaded machine can take over 100 ms.
var tinySizes = Sizes{CallDuration: 400 * time.Millisecond, CallClients: []int{1, 2}, Executors: []int{1, 2}, ExecutorProcs: []int{2},
	RepoFiles: []int{60}, Switches: 2, ReloadClients: 2, SteadyDuration: 100 * time.Millisecond,
	MemoryTools: 3, MemoryIdle: 50 * time.Millisecond, Subscribers: []int{2}}

// buildBeeuni builds the beeuni binary the memory scenario starts; a build
// that fails fails the test (go test puts its own go first on PATH).
func buildBeeuni(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "beeuni")
	out, err := exec.Command("go", "build", "-o", bin, "github.com/beeuni/beeuni/cmd/beeuni").CombinedOutput()
	if err != nil {
		tb.Fatalf("build the beeuni binary for the memory scenario: %v\n%s", err, out)
	}
	return bin
}

func TestRunEveryScenario(t *testing.T) {
	if testing.Short() {
		t.Skip("starts NATS, a controller, executors and child processes")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Log("node not found on PATH: the Node.js baselines are checked as skipped")
	}
	cfg := Config{Rounds: 1, Quick: true, Sizes: tinySizes, Binary: buildBeeuni(t), Progress: testWriter{t}}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	rep, err := Run(ctx, nil, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(rep.Scenarios), len(Scenarios()); got != want {
		t.Fatalf("%d scenarios in the report, want %d", got, want)
	}
	if rep.Machine.Cores < 1 || rep.Machine.GoVersion == "" || rep.Machine.CPU == "" {
		t.Errorf("machine facts missing: %+v", rep.Machine)
	}
	for i, sc := range rep.Scenarios {
		if sc.Name != Scenarios()[i] {
			t.Errorf("scenario %d is %q, want %q", i, sc.Name, Scenarios()[i])
		}
		if len(sc.Rows) == 0 || len(sc.Targets) == 0 || len(sc.Baselines) == 0 {
			t.Errorf("%s: %d rows, %d targets, %d baselines", sc.Name, len(sc.Rows), len(sc.Targets), len(sc.Baselines))
		}
		for _, r := range sc.Rows {
			if len(r.Beeuni.Samples) != cfg.Rounds {
				t.Errorf("%s %s %s: %d beeuni samples, want %d", sc.Name, r.Case, r.Metric, len(r.Beeuni.Samples), cfg.Rounds)
			}
			if r.Metric != "failed calls" && r.Beeuni.Median <= 0 {
				t.Errorf("%s %s %s: beeuni figure %v", sc.Name, r.Case, r.Metric, r.Beeuni.Median)
			}
			for _, b := range r.Baselines {
				switch {
				case b.Stat == nil && b.Skipped == "":
					t.Errorf("%s %s %s: baseline %s neither measured nor skipped", sc.Name, r.Case, r.Metric, b.Name)
				case b.Stat == nil && !strings.HasPrefix(b.Skipped, "no baseline") && !(rep.Machine.Node == "" && strings.Contains(b.Name, "node")) &&
					!(rep.Machine.Bun == "" && strings.Contains(b.Name, "bun")) &&
					!(rep.Machine.Git == "" && strings.Contains(b.Name, "git")):
					t.Errorf("%s %s %s: baseline %s skipped (%s) although its tool is installed", sc.Name, r.Case, r.Metric, b.Name, b.Skipped)
				case b.Stat != nil && r.Metric != "failed calls" && (b.Stat.Median <= 0 || b.Ratio <= 0):
					t.Errorf("%s %s %s: baseline %s figure %v ratio %v", sc.Name, r.Case, r.Metric, b.Name, b.Stat.Median, b.Ratio)
				}
			}
		}
	}
	var table, js bytes.Buffer
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	for _, want := range append(Scenarios(), "machine:", "GOMAXPROCS", "target [") {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, table.String())
		}
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var back struct {
		Scenarios []struct {
			Name string `json:"name"`
			Rows []struct {
				Beeuni struct {
					Samples []float64 `json:"samples"`
				} `json:"beeuni"`
			} `json:"rows"`
		} `json:"scenarios"`
	}
	if err := json.Unmarshal(js.Bytes(), &back); err != nil {
		t.Fatalf("JSON report does not decode: %v", err)
	}
	if len(back.Scenarios) != len(Scenarios()) || len(back.Scenarios[0].Rows[0].Beeuni.Samples) != 1 {
		t.Errorf("JSON report lost figures: %s", js.String())
	}
}

func TestRunRefusesUnknownScenario(t *testing.T) {
	_, err := Run(context.Background(), []string{"warp"}, Config{})
	if err == nil || !strings.Contains(err.Error(), "use one of call, converge") {
		t.Fatalf("Run(warp) = %v, want an error listing the scenarios", err)
	}
}

func TestNewStat(t *testing.T) {
	tests := []struct {
		in                  []float64
		median, min, spread float64
	}{
		{[]float64{10}, 10, 10, 0},
		{[]float64{12, 10, 8}, 10, 8, 20},
		{[]float64{1, 3}, 2, 1, 50},
		{[]float64{10, 10, 10, 40}, 10, 10, 300},
	}
	for _, tc := range tests {
		s := newStat(tc.in)
		if s.Median != tc.median || s.Min != tc.min || s.Spread != tc.spread {
			t.Errorf("newStat(%v) = median %v min %v spread %v, want %v %v %v", tc.in, s.Median, s.Min, s.Spread, tc.median, tc.min, tc.spread)
		}
	}
}

func TestPercentile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i))
	}
	tests := []struct {
		p    float64
		want time.Duration
	}{{0.5, 50}, {0.99, 99}, {1, 100}, {0, 1}}
	for _, tc := range tests {
		if got := percentile(ds, tc.p); got != tc.want {
			t.Errorf("percentile(1..100, %v) = %v, want %v", tc.p, got, tc.want)
		}
	}
}

// testWriter logs progress lines with their time, to see where a slow run
// spends it.
type testWriter struct{ tb testing.TB }

func (w testWriter) Write(p []byte) (int, error) {
	w.tb.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}
