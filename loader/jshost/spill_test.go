package jshost

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestSweepSpills: outputs past their age go, half-written files past an
// hour go, then the oldest until the folder fits; the file just written
// stays whatever its size.
func TestSweepSpills(t *testing.T) {
	now := time.Now()
	type f struct {
		name string
		size int
		age  time.Duration
	}
	cases := []struct {
		name     string
		files    []f
		keep     string
		maxBytes int64
		left     []string
	}{
		{"age", []f{{"old.txt", 10, 25 * time.Hour}, {"young.txt", 10, 23 * time.Hour}}, "", 1 << 20, []string{"young.txt"}},
		{"temp files", []f{{".output-1.tmp", 10, 2 * time.Hour}, {".output-2.tmp", 10, time.Minute}}, "", 1 << 20, []string{".output-2.tmp"}},
		{"size: oldest first", []f{{"a.txt", 40, 3 * time.Hour}, {"b.txt", 40, 2 * time.Hour}, {"c.txt", 40, time.Hour}}, "", 90, []string{"b.txt", "c.txt"}},
		{"size: keep stays", []f{{"a.txt", 40, 3 * time.Hour}, {"new.txt", 200, 0}}, "new.txt", 100, []string{"new.txt"}},
		{"keep past its age", []f{{"new.txt", 10, 48 * time.Hour}}, "new.txt", 100, []string{"new.txt"}},
		{"under the limits", []f{{"a.txt", 10, time.Hour}, {"b.txt", 10, 0}}, "", 100, []string{"a.txt", "b.txt"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, x := range c.files {
				p := filepath.Join(dir, x.name)
				if err := os.WriteFile(p, make([]byte, x.size), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.Chtimes(p, now.Add(-x.age), now.Add(-x.age)); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.Mkdir(filepath.Join(dir, "sub"), 0o700); err != nil {
				t.Fatal(err)
			}
			keep := ""
			if c.keep != "" {
				keep = filepath.Join(dir, c.keep)
			}
			sweepSpills(dir, keep, now, SpillKeep, c.maxBytes)
			var left []string
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if !e.IsDir() {
					left = append(left, e.Name())
				}
			}
			if !slices.Equal(left, c.left) {
				t.Fatalf("left %q, want %q", left, c.left)
			}
		})
	}
}

// TestSpillLifetime: a spill, a Load and a Close each sweep the spill
// folder of the set's temp folder.
func TestSpillLifetime(t *testing.T) {
	tmp := t.TempDir()
	dir := spillFolder(tmp)
	stale := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("old output"), 0o600); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-SpillKeep - time.Minute)
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := func(when, p string) {
		t.Helper()
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Fatalf("%s: %s is still there (%v)", when, filepath.Base(p), err)
		}
	}
	atLoad := stale("at-load.txt")
	s, _ := loadTools(t, project(t, map[string]string{"tools/big.ts": tool("execute() { return 'x\\n'.repeat(3000) }")}), Options{TempDir: tmp}, "tools/big.ts")
	mustLoad(t, s)
	gone("Load", atLoad)
	atSpill := stale("at-spill.txt")
	r := call(t, s, "big", "{}")
	if r.Spilled == nil {
		t.Fatalf("not spilled: %+v", r)
	}
	gone("a spill", atSpill)
	if _, err := os.Stat(r.Spilled.Path); err != nil {
		t.Fatalf("the new spill: %v", err)
	}
	atClose := stale("at-close.txt")
	s.Close()
	gone("Close", atClose)
	if _, err := os.Stat(r.Spilled.Path); err != nil {
		t.Fatalf("a young spill was swept: %v", err)
	}
}
