package gctune

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestApply(t *testing.T) {
	gib := float64(1 << 30)
	percent := debug.SetGCPercent(-1)
	debug.SetGCPercent(percent)
	limit := debug.SetMemoryLimit(-1)
	t.Cleanup(func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	})
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, tc := range []struct {
		name        string
		env         map[string]string
		cgroup      string
		wantPercent int
		wantLimit   float64 // 0: Apply sets none
	}{
		{"defaults, no cgroup file", nil, filepath.Join(dir, "absent"), Percent, 0},
		{"cgroup without a limit", nil, write("max", "max\n"), Percent, 0},
		{"cgroup limit of 1 GiB", nil, write("1g", "1073741824\n"), Percent, gib * limitShare},
		{"garbage in the cgroup file", nil, write("bad", "lots\n"), Percent, 0},
		{"GOGC from the environment", map[string]string{"GOGC": "150"}, filepath.Join(dir, "absent"), 150, 0},
		{"GOMEMLIMIT from the environment", map[string]string{"GOMEMLIMIT": "2GiB"}, write("1g2", "1073741824"), Percent, 0},
		{"a lower limit set before stays", map[string]string{"lower": "1"}, write("1g3", "1073741824"), Percent, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// The runtime reads GOGC at start; stand in for it.
			if v, ok := tc.env["GOGC"]; ok && v == "150" {
				debug.SetGCPercent(150)
			}
			debug.SetMemoryLimit(limit)
			if tc.env["lower"] != "" {
				debug.SetMemoryLimit(256 << 20) // the executor's --max-memory
				defer debug.SetMemoryLimit(limit)
			}
			s := Apply(func(k string) string { return tc.env[k] }, tc.cgroup)
			if s.Percent != tc.wantPercent {
				t.Errorf("Percent %d, want %d", s.Percent, tc.wantPercent)
			}
			if got := debug.SetGCPercent(-1); got != tc.wantPercent {
				t.Errorf("GOGC in force %d, want %d", got, tc.wantPercent)
			}
			debug.SetGCPercent(tc.wantPercent)
			if s.LimitBytes != int64(tc.wantLimit) {
				t.Errorf("LimitBytes %d, want %d", s.LimitBytes, int64(tc.wantLimit))
			}
			want := int64(tc.wantLimit)
			switch {
			case tc.env["lower"] != "":
				want = 256 << 20
			case want == 0:
				want = limit
			}
			if got := debug.SetMemoryLimit(-1); got != want {
				t.Errorf("memory limit in force %d, want %d", got, want)
			}
		})
	}
}
