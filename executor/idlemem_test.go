package executor

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// TestIdleRelease: with IdleRelease set, the server gives its heap back to
// the OS once after each busy spell (a switch, calls), not while idle and
// not before anything happened.
func TestIdleRelease(t *testing.T) {
	e := start(t, Options{IdleRelease: 5 * time.Millisecond})
	releases := func() string {
		body := string(e.mustDo("GET", "/metrics", "").body)
		for l := range strings.SplitSeq(body, "\n") {
			if v, ok := strings.CutPrefix(l, "beeuni_executor_idle_memory_releases_total "); ok {
				return v
			}
		}
		return "absent"
	}
	if got := releases(); got != "0" {
		t.Fatalf("released %s times before anything happened", got)
	}
	e.switchTo("v1", project("v1"))
	want := func(n int) {
		t.Helper()
		waitFor(t, 10*time.Second, func() error {
			if got := releases(); got != fmt.Sprint(n) {
				return fmt.Errorf("released %s times, want %d", got, n)
			}
			return nil
		})
	}
	want(1)
	for range 3 {
		e.call("answer", "")
	}
	want(2)
}
