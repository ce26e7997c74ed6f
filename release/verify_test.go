package release

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestVerifyTree tampers with a laid-out release the ways a tool could
// and wants each found, naming the file.
func TestVerifyTree(t *testing.T) {
	rec, open := testOpener(t)
	cases := []struct {
		name   string
		tamper func(t *testing.T, dst string)
		want   []string // "path: reason substring"
	}{
		{"untouched", func(*testing.T, string) {}, nil},
		{"same size, other bytes", func(t *testing.T, dst string) {
			write(t, filepath.Join(dst, "tools/a.ts"), "export default {1}\n")
		}, []string{"tools/a.ts: tampered content"}},
		{"longer", func(t *testing.T, dst string) {
			write(t, filepath.Join(dst, "beeuni.yaml"), "tools: []\n# more\n")
		}, []string{"beeuni.yaml: tampered content"}},
		{"mode", func(t *testing.T, dst string) {
			os.Chmod(filepath.Join(dst, "bin/run"), 0o700)
		}, []string{"bin/run: has mode"}},
		{"missing", func(t *testing.T, dst string) {
			os.Remove(filepath.Join(dst, "beeuni.yaml"))
		}, []string{"beeuni.yaml: missing"}},
		{"added beside a module", func(t *testing.T, dst string) {
			write(t, filepath.Join(dst, "tools/util.ts"), "evil\n")
		}, []string{"tools/util.ts: not in the release"}},
		{"symlink retargeted", func(t *testing.T, dst string) {
			os.Remove(filepath.Join(dst, "tools/b.ts"))
			os.Symlink("/etc/passwd", filepath.Join(dst, "tools/b.ts"))
		}, []string{"tools/b.ts: tampered content"}},
		{"file made a symlink", func(t *testing.T, dst string) {
			os.Remove(filepath.Join(dst, "tools/a.ts"))
			os.Symlink("b.ts", filepath.Join(dst, "tools/a.ts"))
		}, []string{"tools/a.ts: has mode"}},
		{"folder swapped for a symlink", func(t *testing.T, dst string) {
			os.Chmod(filepath.Join(dst, "tools"), 0o755)
			os.RemoveAll(filepath.Join(dst, "tools"))
			os.Symlink("/etc", filepath.Join(dst, "tools"))
		}, []string{"tools: not in the release", "tools/a.ts: missing", "tools/b.ts: missing"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "r")
			if err := WriteTree(dst, rec, open); err != nil {
				t.Fatal(err)
			}
			tc.tamper(t, dst)
			var got []string
			for _, p := range VerifyTree(dst, rec, false) {
				got = append(got, p.String())
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems %q, want %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w[:strings.Index(w, ":")+1]) || !strings.Contains(got[i], w[strings.Index(w, ":")+2:]) {
					t.Errorf("problem %d is %q, want %q", i, got[i], w)
				}
			}
		})
	}
	if p := VerifyTree(filepath.Join(t.TempDir(), "absent"), rec, false); len(p) != 1 || p[0].Path != "." {
		t.Errorf("an absent folder: %v", p)
	}
}

// write replaces p's content in place, keeping its mode (as a tool writing
// through a hard link would); a new file gets 0644.
func write(t *testing.T, p, content string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkLayOutLinked is what a switch cost before verification: a
// 2,000-file release hard-linked from a content cache (BenchmarkVerifyTree
// is what verifying it adds).
func BenchmarkLayOutLinked(b *testing.B) {
	r, c1, _, _ := benchRepo(b, 2000)
	s := r.build(c1, nil)
	rec := s.Record("demo", 1, s.Time)
	open := r.open().ContentOpener(b.Context(), rec.Entries)
	_, link := cacheOf(b, rec, open)
	parent := b.TempDir()
	b.ResetTimer()
	cpu := cpuTime()
	for i := 0; b.Loop(); i++ {
		dst := filepath.Join(parent, fmt.Sprint(i))
		if err := WriteTreeWith(dst, rec, open, WriteOptions{Link: link}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

// cpuTime is the CPU time (user and system) this process has used: on a
// machine shared with other work it is steadier than the wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkVerifyTree is the cost an executor pays at every switch and
// restart to check a laid-out release: 2,000 files of about 600 bytes
// (benchRepo's), each opened and hashed.
func BenchmarkVerifyTree(b *testing.B) {
	for _, n := range []int{2000} {
		b.Run(fmt.Sprintf("files=%d", n), func(b *testing.B) {
			r, c1, _, _ := benchRepo(b, n)
			s := r.build(c1, nil)
			rec := s.Record("demo", 1, s.Time)
			dst := filepath.Join(b.TempDir(), "r")
			if err := WriteTree(dst, rec, r.open().ContentOpener(b.Context(), rec.Entries)); err != nil {
				b.Fatal(err)
			}
			var bytes int64
			for _, e := range rec.Entries {
				bytes += e.Size
			}
			b.SetBytes(bytes)
			b.ResetTimer()
			cpu := cpuTime()
			for b.Loop() {
				if p := VerifyTree(dst, rec, false); len(p) > 0 {
					b.Fatal(p)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
			b.ReportMetric(float64(b.Elapsed().Microseconds())/float64(b.N)/float64(len(rec.Entries)), "µs/file")
		})
	}
}
