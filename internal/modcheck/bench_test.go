package modcheck

import (
	"fmt"
	"testing"
	"time"

	"github.com/beeuni/beeuni/internal/confine"
)

// BenchmarkCheck is what the controller's module check adds to a release
// that changes modules: one confined check process that loads them (the
// test binary as the child here; the real binary is the same code).
func BenchmarkCheck(b *testing.B) {
	if confine.KernelABI() < confine.MinABI {
		b.Skip("no Landlock: the check process refuses to run")
	}
	for _, n := range []int{1, 20} {
		files := map[string]string{}
		var names []string
		for i := range n {
			name := fmt.Sprintf("t%02d", i)
			files["tools/"+name+".ts"] = tool("")
			names = append(names, name)
		}
		root := tree(b, files)
		for _, spare := range []bool{false, true} {
			b.Run(fmt.Sprintf("modules=%d/spare=%v", n, spare), func(b *testing.B) {
				c := checker(Options{Spare: spare})
				defer c.Close()
				for b.Loop() {
					fs, _, err := c.Check(b.Context(), root, specs(names...))
					if err != nil || len(fs) > 0 {
						b.Fatal(err, fs)
					}
					if spare {
						// The time between two merges: the spare warms up.
						b.StopTimer()
						waitSpare(b, c)
						b.StartTimer()
					}
				}
			})
		}
	}
}

// waitSpare waits until c has a spare process, then gives it the time of
// a quiet spell between two merges to warm up (a benchmark models the gap;
// no test relies on it).
func waitSpare(tb testing.TB, c *Checker) {
	tb.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(time.Millisecond) {
		c.mu.Lock()
		p := c.spare
		c.mu.Unlock()
		if p != nil {
			time.Sleep(300 * time.Millisecond)
			return
		}
	}
	tb.Fatal("no spare check process after 10s")
}
