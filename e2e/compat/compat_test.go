package compat

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "write golden/ from live Bun and RESULTS.md from this run (needs npm)")

// run holds what every case's calls share.
type run struct {
	beeuni   string   // the binary built for this run
	runner   string   // runner/run.mjs, absolute
	casesDir string   // cases/, absolute
	tmp      string   // one folder per case and runtime below it
	inst     *install // nil when Bun and the packages are not installed
	stubURL  string   // http://127.0.0.1:PORT
	stubHost string   // 127.0.0.1:PORT
}

// A result is one case's row: each runtime's answer and the verdict.
type result struct {
	c       *testCase
	skipped string // why the case did not run, or ""
	beeuni  answer
	bun     *answer // nil when Bun did not run
	node    *answer // nil when Node did not run
	golden  *answer // golden/<case>.txt, nil when missing
	// nodeGolden is golden/<case>.node.txt, for a case whose reference is
	// Node (testCase.NodeRef); nil when missing.
	nodeGolden *answer
	ref        answer // what beeuni is measured against: live Bun (Node), else the golden
	verdict    verdict
	took       time.Duration // the case's wall time, all runtimes
}

// TestCompat runs the corpus. By default it runs beeuni on the cases that
// need no package and compares with the committed goldens (Bun's answers);
// with COMPAT_LIVE=1 (or -update) and npm present it installs Bun and the
// packages into the user cache, runs every case on Bun and Node too, and
// checks the goldens against live Bun. expected.json
// decides pass or fail: a case expected to match that does not, or a known
// failure that now matches, fails the test.
func TestCompat(t *testing.T) {
	if testing.Short() {
		t.Skip("the compatibility corpus builds beeuni and runs processes; skipped with -short")
	}
	cases := loadManifest(t)
	expected := loadExpected(t)
	if re := os.Getenv("COMPAT_CASES"); re != "" {
		cases = filterCases(t, cases, re)
	}
	inst, why := installPackages(t)
	if inst == nil {
		if *update {
			t.Fatalf("-update needs live Bun: %s", why)
		}
		t.Logf("live Bun and Node skipped (%s): beeuni runs the cases that need no package against golden/", why)
	}
	r := newRun(t, inst)
	start := time.Now()
	results := r.runAll(cases)
	elapsed := time.Since(start)
	for i := range results {
		check(t, &results[i], expected)
	}
	for name := range expected {
		if !hasCase(loadManifest(t), name) {
			t.Errorf("expected.json: %s is not a case of manifest.json: remove it", name)
		}
	}
	t.Log(slowest(results, 8))
	table := renderTable(results, expected, inst != nil, elapsed)
	t.Log("\n" + table)
	if *update && os.Getenv("COMPAT_CASES") == "" {
		if err := os.WriteFile("RESULTS.md", []byte(table), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func newRun(t *testing.T, inst *install) *run {
	t.Helper()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "beeuni")
	build := exec.Command("go", "build", "-o", bin, "github.com/beeuni/beeuni/cmd/beeuni")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the beeuni binary: %v\n%s", err, out)
	}
	runner, err := filepath.Abs(filepath.Join("runner", "run.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	casesDir, err := filepath.Abs("cases")
	if err != nil {
		t.Fatal(err)
	}
	stub := startStub(t)
	return &run{beeuni: bin, runner: runner, casesDir: casesDir, tmp: tmp, inst: inst,
		stubURL: stub.URL, stubHost: stub.Listener.Addr().String()}
}

// jobs is how many cases run at once: the calls wait on process start-up
// and bundling more than on one core. COMPAT_JOBS overrides it.
func jobs() int {
	if n, err := strconv.Atoi(os.Getenv("COMPAT_JOBS")); err == nil && n > 0 {
		return n
	}
	return max(2, 2*runtime.NumCPU())
}

func (r *run) runAll(cases []testCase) []result {
	results := make([]result, len(cases))
	next := make(chan int)
	var wg sync.WaitGroup
	for range jobs() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				t0 := time.Now()
				results[i] = r.runCase(context.Background(), &cases[i])
				results[i].took = time.Since(t0)
			}
		}()
	}
	for i := range cases {
		next <- i
	}
	close(next)
	wg.Wait()
	return results
}

// runCase gives the case to each runtime, each in its own copy of the
// project, and measures beeuni against Bun (live, or the golden).
func (r *run) runCase(ctx context.Context, c *testCase) result {
	res := result{c: c}
	if data, err := os.ReadFile(filepath.Join("golden", c.Name+".txt")); err == nil {
		g := parseGolden(string(data))
		res.golden = &g
	} else if !errors.Is(err, fs.ErrNotExist) {
		res.skipped = err.Error()
		return res
	}
	if c.NodeRef != "" {
		if data, err := os.ReadFile(filepath.Join("golden", c.Name+".node.txt")); err == nil {
			g := parseGolden(string(data))
			res.nodeGolden = &g
		} else if !errors.Is(err, fs.ErrNotExist) {
			res.skipped = err.Error()
			return res
		}
		if r.inst == nil && res.nodeGolden == nil {
			res.skipped = "no Node golden yet and no live Node"
			return res
		}
	}
	if len(c.Packages) > 0 && r.inst == nil {
		res.skipped = "needs npm packages"
		return res
	}
	if r.inst == nil && res.golden == nil {
		res.skipped = "no golden yet and no live Bun"
		return res
	}
	call := func(runtimeName string) (answer, error) {
		dir, err := r.project(c, filepath.Join(r.tmp, c.Name, runtimeName))
		if err != nil {
			return answer{}, fmt.Errorf("make the %s project: %w", runtimeName, err)
		}
		var a answer
		if runtimeName == "beeuni" {
			a = r.callBeeuni(ctx, c, dir)
		} else {
			a = r.callRunner(ctx, c, dir, runtimeName)
		}
		return r.normalize(a, dir), nil
	}
	var err error
	if res.beeuni, err = call("beeuni"); err != nil {
		res.skipped = err.Error()
		return res
	}
	if r.inst != nil {
		b, err := call("bun")
		if err != nil {
			res.skipped = err.Error()
			return res
		}
		res.bun = &b
		if !c.BunOnly {
			n, err := call("node")
			if err != nil {
				res.skipped = err.Error()
				return res
			}
			res.node = &n
		}
	}
	switch {
	case c.NodeRef != "" && res.node != nil:
		res.ref = *res.node
	case c.NodeRef != "":
		res.ref = *res.nodeGolden
	case res.bun != nil:
		res.ref = *res.bun
	default:
		res.ref = *res.golden
	}
	res.verdict = judge(res.beeuni, res.ref)
	return res
}

// filterCases keeps the cases whose name matches the regular expression
// COMPAT_CASES, to run a few while writing them.
func filterCases(t *testing.T, cases []testCase, expr string) []testCase {
	re, err := regexp.Compile(expr)
	if err != nil {
		t.Fatalf("COMPAT_CASES: %v", err)
	}
	var out []testCase
	for _, c := range cases {
		if re.MatchString(c.Name) {
			out = append(out, c)
		}
	}
	return out
}

func hasCase(cases []testCase, name string) bool {
	for _, c := range cases {
		if c.Name == name {
			return true
		}
	}
	return false
}

// check holds one result to expected.json and to its golden.
func check(t *testing.T, res *result, expected map[string]expectation) {
	t.Helper()
	c := res.c
	exp, ok := expected[c.Name]
	if !ok {
		t.Errorf("%s: not in expected.json: add \"%s\": \"match\" (or \"known-failure: <why>\")", c.Name, c.Name)
	}
	if res.skipped != "" {
		return
	}
	if res.bun != nil {
		switch {
		case *update:
			if err := os.WriteFile(filepath.Join("golden", c.Name+".txt"), []byte(res.bun.goldenText()), 0o644); err != nil {
				t.Fatal(err)
			}
		case res.golden == nil:
			t.Errorf("%s: golden/%s.txt is missing: run go test ./e2e/compat -update", c.Name, c.Name)
		case *res.golden != *res.bun:
			t.Errorf("%s: golden/%s.txt is stale, Bun now answers otherwise: run go test ./e2e/compat -update\n%s", c.Name, c.Name, firstDifference(*res.golden, *res.bun))
		}
	}
	if res.node != nil && c.NodeRef != "" {
		switch {
		case *update:
			if err := os.WriteFile(filepath.Join("golden", c.Name+".node.txt"), []byte(res.node.goldenText()), 0o644); err != nil {
				t.Fatal(err)
			}
		case res.nodeGolden == nil:
			t.Errorf("%s: golden/%s.node.txt is missing: run go test ./e2e/compat -update", c.Name, c.Name)
		case *res.nodeGolden != *res.node:
			t.Errorf("%s: golden/%s.node.txt is stale, Node now answers otherwise: run go test ./e2e/compat -update\n%s", c.Name, c.Name, firstDifference(*res.nodeGolden, *res.node))
		}
	}
	if !ok {
		return
	}
	switch {
	case exp.match() && res.verdict != verdictMatch:
		t.Errorf("%s: beeuni no longer prints what %s prints (%s)\n%s", c.Name, c.reference(), res.verdict, firstDifference(res.ref, res.beeuni))
	case !exp.match() && res.verdict == verdictMatch:
		t.Errorf("%s: beeuni now prints what %s prints: update expected.json to \"match\" (it said %q)", c.Name, c.reference(), exp)
	case exp.refusal() && res.verdict == verdictWrong:
		// A clear refusal that became a silent wrong answer is worse.
		t.Errorf("%s: beeuni now answers silently wrong where it refused (expected.json: %q)\n%s", c.Name, exp, firstDifference(res.ref, res.beeuni))
	}
}
