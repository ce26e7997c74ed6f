package bundle

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/beeuni/beeuni/internal/npmcache"
)

// realPackages are the large packages of the bundling target (issue 12):
// pinned, so figures compare across runs.
var realPackages = []string{"lodash-es@4.17.21", "zod@4.3.6"}

// packageTools are the entries that import them, by case name.
var packageTools = map[string]string{
	"lodash-es": "import _ from 'lodash-es'\nexport default { description: 'chunk', parameters: { type: 'object' }, execute(a: { n: number[] }) { return _.chunk(a.n, 2) } }\n",
	"zod":       "import { z } from 'zod'\nconst A = z.object({ q: z.string() })\nexport default { description: 'parse', parameters: z.toJSONSchema(A), execute(a: unknown) { return A.parse(a) } }\n",
}

// packageProject makes a project with the real packages installed (from
// the npm cache) and one tool per package; it skips without npm.
func packageProject(tb testing.TB) string {
	tb.Helper()
	root := tb.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := npmcache.Project(ctx, root, realPackages...); err != nil {
		if errors.Is(err, npmcache.ErrNoNPM) {
			tb.Skip("npm is not on PATH: skipping the real-package bundles (lodash-es, zod)")
		}
		tb.Fatal(err)
	}
	files := map[string]string{}
	for name, src := range packageTools {
		files["tools/"+name+".ts"] = src
	}
	write(tb, root, files)
	return root
}

// plainBuild is what a user would run instead: esbuild's api.Build on the
// same entry with the same settings, and no plugin.
func plainBuild(root, entry string) api.BuildResult {
	o := Options(root)
	o.EntryPoints, o.Outfile = []string{root + "/" + entry}, root+"/out.js"
	return api.Build(o)
}

func TestBundleRealPackages(t *testing.T) {
	root := packageProject(t)
	for name := range packageTools {
		r, err := newBundler(nil).Bundle(root, "tools/"+name+".ts")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p := plainBuild(root, "tools/"+name+".ts"); len(p.Errors) > 0 || len(r.Code) < len(p.OutputFiles[0].Contents)/2 {
			t.Fatalf("%s: %d bytes, plain esbuild %v", name, len(r.Code), p.Errors)
		}
		if strings.Contains(string(r.Code), "require(\""+name) {
			t.Fatalf("%s left external", name)
		}
	}
}

func BenchmarkBundlePackage(b *testing.B) {
	root := packageProject(b)
	for _, name := range []string{"lodash-es", "zod"} {
		entry := "tools/" + name + ".ts"
		b.Run(name+"/beeuni", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if _, err := newBundler(nil).Bundle(root, entry); err != nil {
					b.Fatal(err)
				}
			}
		})
		// What an executor pays when the release ships the controller's
		// bundle: seed a fresh bundler with the pack, then find the bundle
		// (every input read and hashed against the manifest).
		pack, err := newBundler(nil).Pack(root, []string{entry}, nil)
		if err != nil || pack == nil {
			b.Fatalf("pack %s: %v", entry, err)
		}
		b.Run(name+"/seeded", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				nb := newBundler(nil)
				if err := nb.Seed(pack); err != nil {
					b.Fatal(err)
				}
				if _, err := nb.Bundle(root, entry); err != nil || nb.Built() != 0 {
					b.Fatalf("seeded bundle: built %d, %v", nb.Built(), err)
				}
			}
		})
		b.Run(name+"/esbuild", func(b *testing.B) {
			defer reportCPU(b)()
			for b.Loop() {
				if r := plainBuild(root, entry); len(r.Errors) > 0 {
					b.Fatal(r.Errors[0].Text)
				}
			}
		})
	}
}

// reportCPU reports the process's CPU time (user + system) per op: steadier
// than wall time on a shared machine, and esbuild runs on every core.
func reportCPU(b *testing.B) func() {
	start := cpuTime()
	return func() { b.ReportMetric(float64(cpuTime()-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op") }
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
