package bench

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni/internal/npmcache"
	"github.com/beeuni/beeuni/loader/bundle"
)

// bundleTarget is the bound: bundling costs at most 1.5x plain
// esbuild on the same entry.
const bundleTarget = 1.5

// bundlePackages are the real packages of the scenario, pinned so figures
// compare across runs: lodash-es (650 small ES modules in one folder) and
// zod 4 (about 700 files in nested folders).
var bundlePackages = []bundleCase{
	{name: "lodash-es", spec: "lodash-es@4.17.21",
		tool: "import _ from 'lodash-es'\nexport default { description: 'chunk', parameters: { type: 'object' }, execute(a: { n: number[] }) { return _.chunk(a.n, 2) } }\n"},
	{name: "zod", spec: "zod@4.3.6",
		tool: "import { z } from 'zod'\nconst A = z.object({ q: z.string() })\nexport default { description: 'parse', parameters: z.toJSONSchema(A), execute(a: unknown) { return A.parse(a) } }\n"},
}

type bundleCase struct{ name, spec, tool string }

// generatedPackage is a package of n ES modules in one folder behind an
// index that re-exports them all, the shape of lodash-es; it needs no npm.
func generatedPackage(n int) map[string]string {
	files := map[string]string{
		"node_modules/gen-pkg/package.json": `{"name":"gen-pkg","version":"1.0.0","type":"module","main":"index.js"}`,
		"node_modules/gen-pkg/helper.js":    "export function helper(x) { return String(x).trim() }\n",
		"tools/gen.ts":                      "import * as g from 'gen-pkg'\nexport default { description: 'gen', parameters: { type: 'object' }, execute(a: { x: string }) { return g.f0(a.x) + Object.keys(g).length } }\n",
	}
	var index strings.Builder
	for i := range n {
		fmt.Fprintf(&index, "export { default as f%d } from './f%d.js'\n", i, i)
		files[fmt.Sprintf("node_modules/gen-pkg/f%d.js", i)] = fmt.Sprintf(
			"import { helper } from './helper.js'\nexport default function f%d(x) { return helper(x) + ':%d' }\n", i, i)
	}
	files["node_modules/gen-pkg/index.js"] = index.String()
	return files
}

func (r *run) bundle(ctx context.Context) (*Scenario, error) {
	sc := &Scenario{Name: ScenarioBundle, Title: "bundling a module that imports a large package, cold (no cache)",
		Baselines: []string{"esbuild api.Build"}}
	dir, err := r.scratch("bundle")
	if err != nil {
		return nil, err
	}
	const genFiles = 600
	if err := writeTree(dir, generatedPackage(genFiles)); err != nil {
		return nil, err
	}
	cases := []struct{ label, entry string }{{fmt.Sprintf("generated package (%d modules)", genFiles), "tools/gen.ts"}}
	var specs []string
	for _, c := range bundlePackages {
		specs = append(specs, c.spec)
	}
	r.progress("bundle: installing %s from the npm cache", strings.Join(specs, " "))
	switch err := npmcache.Project(ctx, dir, specs...); {
	case errors.Is(err, npmcache.ErrNoNPM):
		for _, c := range bundlePackages {
			sc.targetSkipped(fmt.Sprintf("%s: at most %.1fx plain esbuild", c.spec, bundleTarget), "npm not found on PATH: the real packages are not installed")
		}
	case err != nil:
		return nil, err
	default:
		for _, c := range bundlePackages {
			if err := writeTree(dir, map[string]string{"tools/" + c.name + ".ts": c.tool}); err != nil {
				return nil, err
			}
			cases = append(cases, struct{ label, entry string }{c.spec, "tools/" + c.name + ".ts"})
		}
	}
	for _, c := range cases {
		// One untimed build of each first: the files are in the page cache
		// for both sides from then on.
		if _, err := bundle.New(nil).Bundle(dir, c.entry); err != nil {
			return nil, fmt.Errorf("bundle %s: %w", c.entry, err)
		}
		if err := plainEsbuild(dir, c.entry); err != nil {
			return nil, err
		}
		var wall, cpu, bwall, bcpu []float64
		for round := range r.cfg.Rounds {
			r.progress("bundle: %s, round %d/%d", c.label, round+1, r.cfg.Rounds)
			beeuni := func() error { _, err := bundle.New(nil).Bundle(dir, c.entry); return err }
			base := func() error { return plainEsbuild(dir, c.entry) }
			// Alternate which side goes first, so neither always runs
			// right after the other's garbage.
			first, second := beeuni, base
			if round%2 == 1 {
				first, second = base, beeuni
			}
			d1, c1, err := timedCPU(first)
			if err != nil {
				return nil, err
			}
			d2, c2, err := timedCPU(second)
			if err != nil {
				return nil, err
			}
			if round%2 == 1 {
				d1, c1, d2, c2 = d2, c2, d1, c1
			}
			wall, cpu, bwall, bcpu = append(wall, ms(d1)), append(cpu, ms(c1)), append(bwall, ms(d2)), append(bcpu, ms(c2))
		}
		row := sc.row(c.label, "ms", "lower", wall, bwall)
		sc.row(c.label, "cpu ms", "lower", cpu, bcpu)
		b := row.Baselines[0]
		sc.target(fmt.Sprintf("%s: at most %.1fx plain esbuild", c.label, bundleTarget), b.Ratio <= bundleTarget,
			"%.2fx (%s ms vs %s ms)", b.Ratio, fmtNum(row.Beeuni.Median), fmtNum(b.Stat.Median))
	}
	sc.note("beeuni: bundle.New(nil).Bundle, a cold bundle (no cache): esbuild with beeuni's guard plugin (imports kept inside the project, checked by real path), import.meta per file, content hashes of every input")
	sc.note("baseline: esbuild api.Build on the same entry with beeuni's settings (bundle.Options: format cjs, platform node, target es2020, utf-8, no minify, a side source map), no plugin, nothing written")
	sc.note("real packages (%s) are installed once into the user cache with npm and copied into the project; cpu ms is the process's user+system time, steadier than wall time on a shared machine", strings.Join(specs, ", "))
	return sc, nil
}

// plainEsbuild is the baseline: esbuild's api.Build with the settings
// beeuni gives it (format, platform, target, loaders, charset), without
// beeuni's plugin.
func plainEsbuild(dir, entry string) error {
	o := bundle.Options(dir)
	o.EntryPoints, o.Outfile = []string{filepath.Join(dir, entry)}, filepath.Join(dir, "out.js")
	if res := api.Build(o); len(res.Errors) > 0 {
		return fmt.Errorf("esbuild %s: %s", entry, res.Errors[0].Text)
	}
	return nil
}

// timedCPU runs f and returns its wall time and the process's CPU time
// (user + system) over it.
func timedCPU(f func() error) (wall, cpu time.Duration, err error) {
	c0 := processCPU()
	wall, err = timed(f)
	return wall, processCPU() - c0, err
}

func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
