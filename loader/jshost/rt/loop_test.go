package rt

import (
	"strings"
	"testing"
	"time"
)

// A batch's timers run earliest due first in the slots timers hold; other
// jobs keep their places (a 2 ms timer whose Go timer fired while a 0 ms
// one was being set on a loaded machine ran first once: e2e/compat's
// node_globals).
func TestByDue(t *testing.T) {
	t0 := time.Now()
	var got []string
	mk := func(name string, due time.Duration) job {
		j := job{fn: func() error { got = append(got, name); return nil }}
		if due >= 0 {
			j.due = t0.Add(due)
		}
		return j
	}
	for _, c := range []struct {
		jobs []job
		want string
	}{
		{[]job{mk("t2", 2*time.Millisecond), mk("t0", time.Millisecond)}, "t0 t2"},
		{[]job{mk("t2", 2*time.Millisecond), mk("fetch", -1), mk("t1a", time.Millisecond), mk("t1b", time.Millisecond)}, "t1a fetch t1b t2"},
		{[]job{mk("fetch", -1), mk("t5", 5*time.Millisecond)}, "fetch t5"},
	} {
		got = nil
		byDue(c.jobs)
		for _, j := range c.jobs {
			_ = j.fn()
		}
		if s := strings.Join(got, " "); s != c.want {
			t.Errorf("ran %q, want %q", s, c.want)
		}
	}
}
