package executor

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// turnReply begins or ends session's turn and returns the answer.
func (e *env) turn(method, session string) TurnResponse {
	e.tb.Helper()
	r := e.mustDo(method, "/beeuni/sessions/"+session+"/turn", "")
	var tr TurnResponse
	if r.status != 200 || json.Unmarshal(r.body, &tr) != nil {
		e.tb.Fatalf("%s turn %s: %d %s", method, session, r.status, r.body)
	}
	return tr
}

func (e *env) answer(session string) string {
	e.tb.Helper()
	var h []string
	if session != "" {
		h = []string{HeaderSession, session}
	}
	got := e.call("answer", "", h...)
	if got.Output != got.Release {
		e.tb.Fatalf("answer %q came with release %q: the call ran on another set than it reports", got.Output, got.Release)
	}
	return got.Output
}

func TestTurnKeepsItsSetAcrossSwitch(t *testing.T) {
	e := start(t, Options{})
	v1 := e.switchTo("v1", project("v1"))

	if tr := e.turn("POST", "a"); tr.Release != "v1" || tr.Turn != "running" {
		t.Fatalf("begin a: %+v", tr)
	}
	v2 := e.switchTo("v2", project("v2"))

	steps := []struct {
		name, session, want string
	}{
		{"turn running across the switch keeps v1", "a", "v1"},
		{"session without a turn switches at once", "b", "v2"},
		{"call without a session uses the current set", "", "v2"},
		{"turn running keeps v1 on its next call", "a", "v1"},
	}
	for _, st := range steps {
		if got := e.answer(st.session); got != st.want {
			t.Fatalf("%s: got %q, want %q", st.name, got, st.want)
		}
	}
	if tr := e.turn("POST", "a"); tr.Release != "v1" {
		t.Fatalf("beginning a running turn again must keep its set: %+v", tr)
	}
	if tr := e.turn("POST", "c"); tr.Release != "v2" {
		t.Fatalf("a new session's turn begins on the current set: %+v", tr)
	}
	if isDone(v1) {
		t.Fatal("v1 freed while a turn runs on it")
	}
	if n := e.srv.Status().TurnsRunning; n != 2 {
		t.Fatalf("turns running %d, want 2", n)
	}

	if tr := e.turn("DELETE", "a"); tr.Release != "v2" || tr.Turn != "ended" {
		t.Fatalf("end a: %+v", tr)
	}
	if got := e.answer("a"); got != "v2" {
		t.Fatalf("after its turn ended a got %q, want v2", got)
	}
	waitDone(t, v1)
	e.turn("DELETE", "c")
	e.turn("DELETE", "c") // ending an ended turn is fine
	if isDone(v2) {
		t.Fatal("the current set was freed")
	}
	if n := e.srv.Status().TurnsRunning; n != 0 {
		t.Fatalf("turns running %d, want 0", n)
	}
}

// At most MaxTurns turns run: one more is refused with 503 and a message
// that says how to end turns; beginning a running turn again is not a new
// one, and ending a turn makes room.
func TestTooManyTurns(t *testing.T) {
	e := start(t, Options{MaxTurns: 2})
	e.switchTo("v1", project("v1"))
	e.turn("POST", "a")
	e.turn("POST", "b")
	r := e.mustDo("POST", "/beeuni/sessions/c/turn", "")
	if r.status != http.StatusServiceUnavailable || !strings.Contains(string(r.body), "DELETE /beeuni/sessions/{id}/turn") {
		t.Fatalf("a third turn: %d %s, want 503 naming DELETE", r.status, r.body)
	}
	if tr := e.turn("POST", "b"); tr.Release != "v1" {
		t.Fatalf("beginning a running turn at the limit: %+v", tr)
	}
	e.turn("DELETE", "a")
	if tr := e.turn("POST", "c"); tr.Turn != "running" {
		t.Fatalf("a turn after one ended: %+v", tr)
	}
	if n := e.srv.Status().TurnsRunning; n != 2 {
		t.Fatalf("turns running %d, want 2", n)
	}
}

func TestCallInFlightFinishesOnItsSet(t *testing.T) {
	e := start(t, Options{})
	v1 := e.switchTo("v1", project("v1"))

	type result struct {
		r   reply
		err error
	}
	done := make(chan result, 1)
	go func() {
		r, err := e.do("POST", "/beeuni/tools/wait", `{"flag":"go"}`)
		done <- result{r, err}
	}()
	waitFor(t, 10*time.Second, func() error {
		if n := e.srv.inFlight.Load(); n != 1 {
			return fmt.Errorf("%d calls in flight", n)
		}
		return nil
	})
	e.switchTo("v2", project("v2"))
	if got := e.answer(""); got != "v2" {
		t.Fatalf("a new call during the switch got %q, want v2", got)
	}
	if isDone(v1) {
		t.Fatal("v1 freed while a call runs on it")
	}
	if err := os.WriteFile(filepath.Join(v1.Dir(), "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	res := <-done
	if res.err != nil {
		t.Fatal(res.err)
	}
	var cr CallResponse
	if res.r.status != 200 || json.Unmarshal(res.r.body, &cr) != nil || cr.Output != "v1:done" || cr.Release != "v1" || cr.IsError {
		t.Fatalf("the call in flight answered %d %s, want v1:done from v1", res.r.status, res.r.body)
	}
	waitDone(t, v1)
}

func TestManyCallsWhileSwitching(t *testing.T) {
	e := start(t, Options{})
	// Releases alternate between two checkouts whose answer tells them apart.
	dirs := [2]string{writeTree(t, project("even")), writeTree(t, project("odd"))}
	want := [2]string{"even", "odd"}
	load := func(i int) *ToolSet {
		return LoadToolSet(context.Background(), fmt.Sprintf("r%d", i), dirs[i%2], "experimental",
			e.optsJS())
	}
	sets := []*ToolSet{load(0)}
	e.srv.Switch(sets[0])

	const callers, callsEach = 200, 3
	var wg sync.WaitGroup
	var failed atomic.Int64
	stop := make(chan struct{})
	for c := range callers {
		wg.Go(func() {
			session := ""
			if c%4 == 0 {
				session = fmt.Sprintf("s%d", c)
				if r, err := e.do("POST", "/beeuni/sessions/"+session+"/turn", ""); err != nil || r.status != 200 {
					failed.Add(1)
					t.Errorf("begin turn %s: %v %d %s", session, err, r.status, r.body)
					return
				}
			}
			var releases []string
			for range callsEach {
				var h []string
				if session != "" {
					h = []string{HeaderSession, session}
				}
				r, err := e.do("POST", "/beeuni/tools/answer", "", h...)
				var cr CallResponse
				if err != nil || r.status != 200 || json.Unmarshal(r.body, &cr) != nil || cr.IsError {
					failed.Add(1)
					t.Errorf("call: %v %d %s", err, r.status, r.body)
					return
				}
				var n int
				fmt.Sscanf(cr.Release, "r%d", &n)
				if cr.Output != want[n%2] {
					failed.Add(1)
					t.Errorf("release %s answered %q, want %q", cr.Release, cr.Output, want[n%2])
				}
				releases = append(releases, cr.Release)
			}
			if session != "" {
				for _, r := range releases[1:] {
					if r != releases[0] {
						t.Errorf("turn %s saw releases %v: its set changed under it", session, releases)
						break
					}
				}
				e.do("DELETE", "/beeuni/sessions/"+session+"/turn", "")
			}
		})
	}
	switched := make(chan int)
	go func() {
		n := 1
		defer func() { switched <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			ts := load(n)
			sets = append(sets, ts)
			e.srv.Switch(ts)
			n++
		}
	}()
	wg.Wait()
	close(stop)
	n := <-switched
	if failed.Load() > 0 {
		t.Fatalf("%d calls failed across %d switches", failed.Load(), n-1)
	}
	t.Logf("%d calls across %d switches", callers*callsEach, n-1)
	for _, ts := range sets[:len(sets)-1] {
		waitDone(t, ts)
	}
	if isDone(sets[len(sets)-1]) {
		t.Fatal("the current set was freed")
	}
}

func TestIdleTurnIsEnded(t *testing.T) {
	e := start(t, Options{TurnIdleTimeout: 30 * time.Millisecond})
	v1 := e.switchTo("v1", project("v1"))
	e.turn("POST", "a")
	e.switchTo("v2", project("v2"))
	waitFor(t, 10*time.Second, func() error {
		if n := e.srv.Status().TurnsRunning; n != 0 {
			return fmt.Errorf("%d turns running", n)
		}
		return nil
	})
	if got := e.answer("a"); got != "v2" {
		t.Fatalf("after its idle turn was ended a got %q, want v2", got)
	}
	waitDone(t, v1)
	if !containsAll(e.logs.String(), "turn ended: idle too long", "session=a") {
		t.Fatalf("the ended turn was not logged:\n%s", e.logs.String())
	}
}

// A turn with a call running is never ended for idleness, however old.
func TestIdleTurnWithCallRunningIsKept(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano())
	e := start(t, Options{}, func(s *Server) { s.now = func() time.Time { return time.Unix(0, now.Load()) } })
	v1 := e.switchTo("v1", project("v1"))
	e.turn("POST", "a")
	e.turn("POST", "b")
	done := make(chan reply, 1)
	go func() {
		r, _ := e.do("POST", "/beeuni/tools/wait", `{"flag":"go"}`, HeaderSession, "a")
		done <- r
	}()
	waitFor(t, 10*time.Second, func() error {
		if n := e.srv.inFlight.Load(); n != 1 {
			return fmt.Errorf("%d calls in flight", n)
		}
		return nil
	})
	e.switchTo("v2", project("v2"))
	now.Add(int64(2 * DefaultTurnIdleTimeout))
	e.srv.endIdleTurns()
	if n := e.srv.Status().TurnsRunning; n != 1 {
		t.Fatalf("%d turns running, want 1 (a, whose call runs; b ended)", n)
	}
	if err := os.WriteFile(filepath.Join(v1.Dir(), "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.status != 200 {
		t.Fatalf("wait: %d %s", r.status, r.body)
	}
	if got := e.answer("a"); got != "v1" {
		t.Fatalf("a's turn lost its set: got %q", got)
	}
	if got := e.answer("b"); got != "v2" {
		t.Fatalf("b's ended turn still pins: got %q", got)
	}
}

func TestRunDrainsCallsAtShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv, err := NewServer(Options{Listener: ln})
	if err != nil {
		t.Fatal(err)
	}
	e := &env{tb: t, srv: srv, url: "http://" + ln.Addr().String(), logs: &syncBuffer{}}
	e.log = newTestLogger(e.logs)
	e.bundler = newTestBundler()
	e.client = newTestClient(t)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan error, 1)
	go func() { ran <- srv.Run(ctx) }()

	v1 := e.switchTo("v1", project("v1"))
	done := make(chan reply, 1)
	go func() {
		r, _ := e.do("POST", "/beeuni/tools/wait", `{"flag":"go"}`)
		done <- r
	}()
	waitFor(t, 10*time.Second, func() error {
		if n := srv.inFlight.Load(); n != 1 {
			return fmt.Errorf("%d calls in flight", n)
		}
		return nil
	})
	cancel()
	select {
	case err := <-ran:
		t.Fatalf("Run returned with a call in flight: %v", err)
	default:
	}
	if err := os.WriteFile(filepath.Join(v1.Dir(), "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if r := <-done; r.status != 200 || !containsAll(string(r.body), "v1:done") {
		t.Fatalf("the call in flight at shutdown: %d %s", r.status, r.body)
	}
	if err := <-ran; err != nil {
		t.Fatalf("Run: %v", err)
	}
	waitDone(t, v1)
}
