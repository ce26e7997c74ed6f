package executor

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// sleeper is a tool that sleeps args.ms, writing "start <tag>" and then
// "end <tag>" (or "aborted <tag>" when context.signal aborts) as lines of
// events.log in its directory: the file's order is the order things
// happened in, without reading clocks.
func sleeper(extra string) string {
	return `import { appendFileSync } from 'node:fs'
export default {
  description: 'Sleep, recording start and end.',
  parameters: { type: 'object', properties: { ms: { type: 'number' }, tag: { type: 'string' }, big: { type: 'integer' } } },
  ` + extra + `
  async execute(args: { ms?: number; tag?: string; big?: number }, context: { directory: string; signal: AbortSignal }) {
    const log = context.directory + '/events.log'
    appendFileSync(log, 'start ' + args.tag + '\n')
    const aborted = await new Promise((resolve) => {
      const t = setTimeout(() => resolve(false), args.ms ?? 0)
      context.signal.addEventListener('abort', () => { clearTimeout(t); resolve(true) })
    })
    appendFileSync(log, (aborted ? 'aborted ' : 'end ') + args.tag + '\n')
    if (aborted) throw new Error('aborted')
    return args.big ? 'x'.repeat(args.big) : String(args.tag)
  },
}
`
}

func bproject(version string) map[string]string {
	files := project(version)
	files["beeuni.yaml"] = strings.Replace(manifest, "tools:\n", "tools:\n  sleep: tools/sleep.ts\n  barrier: tools/barrier.ts\n  short: tools/short.ts\n  typed: tools/typed.ts\n", 1)
	files["tools/sleep.ts"] = sleeper("")
	files["tools/barrier.ts"] = sleeper("concurrent: false,")
	files["tools/short.ts"] = sleeper("timeout: 200,")
	files["tools/typed.ts"] = `export default {
  description: 'Wants a string.',
  parameters: { type: 'object', properties: { s: { type: 'string' } }, required: ['s'] },
  execute(a: { s: string }) { return a.s },
}
`
	return files
}

// batchReply posts a batch and decodes its 200 answer.
func (e *env) batch(body string, headers ...string) BatchResponse {
	e.tb.Helper()
	r := e.mustDo("POST", "/beeuni/batch", body, headers...)
	if r.status != http.StatusOK {
		e.tb.Fatalf("batch: %d %s", r.status, r.body)
	}
	var br BatchResponse
	if err := json.Unmarshal(r.body, &br); err != nil {
		e.tb.Fatalf("batch: %v: %s", err, r.body)
	}
	return br
}

// eventLog reads the events.log lines of a set's folder.
func eventLog(tb testing.TB, ts *ToolSet) []string {
	tb.Helper()
	b, err := os.ReadFile(filepath.Join(ts.Dir(), "events.log"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		tb.Fatal(err)
	}
	return strings.Fields(strings.ReplaceAll(strings.ReplaceAll(string(b), "start ", "start:"), "end ", "end:"))
}

// before reports whether event a is logged before event b.
func before(evs []string, a, b string) bool {
	i, j := slices.Index(evs, a), slices.Index(evs, b)
	return i >= 0 && j >= 0 && i < j
}

func ids(rs []BatchResult) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

func groups(rs []BatchResult) []int {
	var out []int
	for _, r := range rs {
		out = append(out, r.Group)
	}
	return out
}

func TestBatchOrderAndGroups(t *testing.T) {
	e := start(t, Options{})
	ts := e.switchTo("v1", bproject("v1"))

	// §2.9 test 1: results in request order, not completion order.
	br := e.batch(`{"calls":[{"id":"A","name":"sleep","args":{"ms":300,"tag":"A"}},{"id":"B","name":"sleep","args":{"tag":"B"}}]}`)
	if got := ids(br.Results); !slices.Equal(got, []string{"A", "B"}) || br.Release != "v1" {
		t.Fatalf("results %v from %s", got, br.Release)
	}
	if !before(eventLog(t, ts), "end:B", "end:A") {
		t.Fatalf("B did not finish first (so the test shows nothing): %v", eventLog(t, ts))
	}
	if br.Results[0].Output != "A" || br.Results[0].Group != 0 || br.Results[1].Group != 0 || br.Results[0].ErrorKind != "" {
		t.Fatalf("results %+v", br.Results)
	}
	// Default ids are the indexes.
	br = e.batch(`{"calls":[{"name":"answer"},{"name":"answer"}]}`)
	if got := ids(br.Results); !slices.Equal(got, []string{"0", "1"}) {
		t.Fatalf("default ids %v", got)
	}
}

func TestBatchConcurrency(t *testing.T) {
	// §2.9 test 2, as ordering facts: with 2 at once both start before
	// either ends; with 1 the second starts after the first ends.
	for _, tc := range []struct {
		max     int
		overlap bool
	}{{2, true}, {1, false}} {
		t.Run(fmt.Sprint(tc.max), func(t *testing.T) {
			e := start(t, Options{})
			ts := e.switchTo("v1", bproject("v1"))
			e.batch(fmt.Sprintf(`{"max_concurrency":%d,"calls":[{"name":"sleep","args":{"ms":300,"tag":"a"}},{"name":"sleep","args":{"ms":300,"tag":"b"}}]}`, tc.max))
			evs := eventLog(t, ts)
			overlap := before(evs, "start:b", "end:a") && before(evs, "start:a", "end:b")
			if overlap != tc.overlap || (!tc.overlap && !before(evs, "end:a", "start:b")) {
				t.Fatalf("max_concurrency %d: events %v", tc.max, evs)
			}
		})
	}
}

func TestBatchBarriers(t *testing.T) {
	e := start(t, Options{})
	ts := e.switchTo("v1", bproject("v1"))
	// §2.9 test 3.
	br := e.batch(`{"calls":[
		{"id":"c1","name":"sleep","args":{"ms":100,"tag":"c1"}},
		{"id":"c2","name":"sleep","args":{"ms":50,"tag":"c2"}},
		{"id":"B","name":"barrier","args":{"ms":50,"tag":"B"}},
		{"id":"c3","name":"sleep","args":{"tag":"c3"}}]}`)
	if got := groups(br.Results); !slices.Equal(got, []int{0, 0, 1, 2}) {
		t.Fatalf("groups %v", got)
	}
	evs := eventLog(t, ts)
	if !before(evs, "end:c1", "start:B") || !before(evs, "end:c2", "start:B") || !before(evs, "end:B", "start:c3") || !before(evs, "start:c2", "end:c1") {
		t.Fatalf("events %v", evs)
	}
	// §2.9 test 4: adjacent barriers run one after the other.
	if err := os.Remove(filepath.Join(ts.Dir(), "events.log")); err != nil {
		t.Fatal(err)
	}
	br = e.batch(`{"calls":[{"name":"barrier","args":{"ms":100,"tag":"B1"}},{"name":"barrier","args":{"tag":"B2"}}]}`)
	if got := groups(br.Results); !slices.Equal(got, []int{0, 1}) || !before(eventLog(t, ts), "end:B1", "start:B2") {
		t.Fatalf("groups %v, events %v", got, eventLog(t, ts))
	}
	// memory is a barrier: it gets a group of its own.
	if got := groups(e.batch(`{"calls":[{"name":"answer"},{"name":"answer"}]}`).Results); !slices.Equal(got, []int{0, 0}) {
		t.Fatalf("two concurrent calls: groups %v", got)
	}
	if got := batchGroups([]bool{false, true, true, false, false, true}); fmt.Sprint(got) != "[[0] [1 2] [3] [4] [5]]" {
		t.Fatalf("batchGroups = %v", got)
	}
}

var batchTimeoutText = regexp.MustCompile(`^tool barrier timed out after \d+ms: the batch's timeout_ms 500 ran out$`)

func TestBatchDeadlines(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", bproject("v1"))

	// §2.9 test 5: the call's timeout_ms binds; the other call is unaffected.
	br := e.batch(`{"calls":[{"id":"slow","name":"sleep","args":{"ms":1000,"tag":"s"},"timeout_ms":100},{"id":"ok","name":"sleep","args":{"tag":"o"}}]}`)
	r := br.Results[0]
	if r.ErrorKind != "timeout" || !r.IsError || r.Output != "tool sleep timed out after 100ms: this batch call set timeout_ms 100; raise it (the tool allows up to 60s)" {
		t.Fatalf("slow = %+v", r)
	}
	if r := br.Results[1]; r.IsError || r.Output != "o" || r.ErrorKind != "" {
		t.Fatalf("ok = %+v", r)
	}

	// §2.9 test 6: the batch's deadline binds; a later group does not run.
	br = e.batch(`{"timeout_ms":500,"calls":[{"name":"barrier","args":{"ms":1000,"tag":"b"}},{"name":"sleep","args":{"tag":"f"}}]}`)
	if r := br.Results[0]; r.ErrorKind != "timeout" || !batchTimeoutText.MatchString(r.Output) {
		t.Fatalf("slow = %+v", r)
	}
	if r := br.Results[1]; r.ErrorKind != "not_run" || r.Output != "not run: the batch's timeout_ms 500 ran out before this call could start" || r.DurationMS != 0 || r.Group != 1 {
		t.Fatalf("fast = %+v", r)
	}

	// §2.9 test 7: a longer timeout_ms does not lengthen the tool's own.
	br = e.batch(`{"timeout_ms":60000,"calls":[{"name":"short","args":{"ms":5000,"tag":"x"},"timeout_ms":5000}]}`)
	if r := br.Results[0]; r.ErrorKind != "timeout" || r.Output != "tool short timed out after 200ms: make it faster, or export a larger `timeout` (in milliseconds)" {
		t.Fatalf("short = %+v", r)
	}
}

func TestBatchPerCallChecks(t *testing.T) {
	e := start(t, Options{ValidateArgs: ValidateEnforce})
	e.switchTo("v1", bproject("v1"))
	// §2.9 test 8.
	br := e.batch(`{"calls":[{"name":"nope"},{"name":"boom"},{"name":"typed","args":{"s":1}},{"name":"typed","args":{"s":"fine"}},{"name":"answer"}]}`,
		HeaderAgent, "researcher")
	want := []struct{ kind, output string }{
		{"not_loaded", "no tool named nope is loaded"},
		{"hidden", hiddenText("boom", "researcher")},
		{"hidden", hiddenText("typed", "researcher")},
		{"hidden", hiddenText("typed", "researcher")},
		{"", "v1"},
	}
	for i, w := range want {
		if r := br.Results[i]; r.ErrorKind != w.kind || r.Output != w.output || r.IsError != (w.kind != "") {
			t.Fatalf("result %d = %+v, want %s %q", i, r, w.kind, w.output)
		}
	}
	br = e.batch(`{"calls":[{"name":"typed","args":{"s":1}},{"name":"typed","args":{"s":"fine"}},{"name":"boom"}]}`)
	if r := br.Results[0]; r.ErrorKind != "invalid_arguments" || !strings.HasPrefix(r.Output, "invalid arguments for tool typed: 1 problem") || len(r.InvalidArguments) != 1 {
		t.Fatalf("invalid = %+v", r)
	}
	if r := br.Results[1]; r.IsError || r.Output != "fine" {
		t.Fatalf("valid = %+v", r)
	}
	if r := br.Results[2]; r.ErrorKind != "tool_error" || r.Output != "boom: set BOOM_OK to stop this" {
		t.Fatalf("thrown = %+v", r)
	}
	// Duplicate keys inside a call's args reach the call's checks.
	if r := e.batch(`{"calls":[{"name":"typed","args":{"s":"a","s":"b"}}]}`).Results[0]; r.ErrorKind != "invalid_arguments" {
		t.Fatalf("duplicate = %+v", r)
	}
}

func TestBatchStopOnError(t *testing.T) {
	e := start(t, Options{})
	ts := e.switchTo("v1", bproject("v1"))
	// §2.9 test 9.
	body := `{"calls":[{"id":"bad","name":"boom"},{"name":"barrier","args":{"tag":"B"}},{"name":"sleep","args":{"tag":"c"}}]%s}`
	br := e.batch(fmt.Sprintf(body, `,"stop_on_error":true`))
	for _, r := range br.Results[1:] {
		if r.ErrorKind != "not_run" || r.Output != "not run: call bad (boom) failed and stop_on_error is set" {
			t.Fatalf("after the failure = %+v", r)
		}
	}
	if evs := eventLog(t, ts); len(evs) != 0 {
		t.Fatalf("later groups ran: %v", evs)
	}
	br = e.batch(fmt.Sprintf(body, ""))
	if r := br.Results; r[1].IsError || r[2].IsError || r[1].Output != "B" {
		t.Fatalf("default runs on: %+v", r)
	}
}

func TestBatchEnvelope(t *testing.T) {
	e := start(t, Options{Token: "sekret", MaxBodyBytes: 4096})
	auth := []string{"Authorization", "Bearer sekret"}
	// §2.9 test 10: 503 before a tool set.
	if r := e.mustDo("POST", "/beeuni/batch", `{"calls":[{"name":"answer"}]}`, auth...); r.status != http.StatusServiceUnavailable {
		t.Fatalf("no set: %d %s", r.status, r.body)
	}
	e.switchTo("v1", bproject("v1"))
	many := strings.TrimSuffix(strings.Repeat(`{"name":"answer"},`, 65), ",")
	cases := []struct {
		name, body, want string
	}{
		{"duplicate ids", `{"calls":[{"id":"x","name":"answer"},{"name":"answer"},{"id":"x","name":"answer"}]}`, `calls[2].id "x" is used twice: give each call its own id (or leave id out)`},
		{"default id collides", `{"calls":[{"name":"answer"},{"id":"0","name":"answer"}]}`, `calls[1].id "0" is used twice`},
		{"no calls", `{"calls":[]}`, "calls is empty: send 1 to 64 calls"},
		{"65 calls", `{"calls":[` + many + `]}`, "calls has 65 entries: send at most 64 per batch (split it)"},
		{"args array", `{"calls":[{"name":"echo","args":[]}]}`, "calls[0].args must be a JSON object, not array"},
		{"unknown key", `{"calls":[{"name":"answer"}],"parallel":true}`, `unknown key "parallel": a batch takes calls, timeout_ms, max_concurrency and stop_on_error`},
		{"unknown call key", `{"calls":[{"name":"answer","arguments":{}}]}`, `calls[0]: unknown key "arguments"`},
		{"calls missing", `{}`, "calls is missing"},
		{"calls not a list", `{"calls":{}}`, "calls must be an array of calls"},
		{"not an object", `[1]`, "the body must be a JSON object, not array"},
		{"not JSON", `{"calls":`, "the body is not valid JSON"},
		{"empty", ``, "the body is empty"},
		{"no name", `{"calls":[{"args":{}}]}`, "calls[0].name is missing"},
		{"name not a string", `{"calls":[{"name":3}]}`, "calls[0].name must be the tool's name"},
		{"long id", `{"calls":[{"id":"` + strings.Repeat("i", 129) + `","name":"answer"}]}`, "calls[0].id must be a string of 1 to 128 bytes"},
		{"call not an object", `{"calls":["answer"]}`, "calls[0] must be a JSON object, not string"},
		{"timeout zero", `{"calls":[{"name":"answer","timeout_ms":0}]}`, "calls[0].timeout_ms must be a whole number of milliseconds, at least 1"},
		{"batch timeout fraction", `{"calls":[{"name":"answer"}],"timeout_ms":1.5}`, "timeout_ms must be a whole number of milliseconds, at least 1"},
		{"max_concurrency 65", `{"calls":[{"name":"answer"}],"max_concurrency":65}`, "max_concurrency must be a whole number from 1 to 64"},
		{"stop_on_error string", `{"calls":[{"name":"answer"}],"stop_on_error":"yes"}`, "stop_on_error must be true or false"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := e.mustDo("POST", "/beeuni/batch", tc.body, auth...)
			if r.status != http.StatusBadRequest || !strings.Contains(r.json(t)["error"].(string), tc.want) {
				t.Fatalf("%d %s, want 400 with %q", r.status, r.body, tc.want)
			}
		})
	}
	big := `{"calls":[{"name":"echo","args":{"a":"` + strings.Repeat("x", 4096) + `"}}]}`
	if r := e.mustDo("POST", "/beeuni/batch", big, auth...); r.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("too large: %d %s", r.status, r.body)
	}
	exact := `{"calls":[{"name":"echo","args":{"a":"` // the limit + 1 byte
	exact += strings.Repeat("x", 4096+1-len(exact)-len(`"}}]}`)) + `"}}]}`
	if r := e.mustDo("POST", "/beeuni/batch", exact, auth...); len(exact) != 4097 || r.status != http.StatusRequestEntityTooLarge {
		t.Fatalf("limit + 1 byte: %d %s", r.status, r.body)
	}
	if r := e.mustDo("POST", "/beeuni/batch", `{"calls":[{"name":"answer"}]}`); r.status != http.StatusUnauthorized {
		t.Fatalf("no token: %d", r.status)
	}
	if r := e.mustDo("POST", "/beeuni/batch", `{"calls":[{"name":"answer"}]}`, auth...); r.status != http.StatusOK {
		t.Fatalf("with token: %d %s", r.status, r.body)
	}
	metrics := string(e.mustDo("GET", "/metrics", "", auth...).body)
	if !containsAll(metrics, `beeuni_batch_requests_total{outcome="bad_request"} 20`, `beeuni_batch_requests_total{outcome="too_large"} 2`,
		`beeuni_batch_requests_total{outcome="unavailable"} 1`, `beeuni_batch_requests_total{outcome="ok"} 1`, "beeuni_batch_calls_count 2") {
		t.Fatalf("metrics:\n%s", metrics)
	}
}

func TestBatchOneToolSet(t *testing.T) {
	e := start(t, Options{})
	old := e.switchTo("v1", project("v1"))
	// §2.9 test 11: a switch during the batch changes nothing in it.
	type answer struct {
		br  BatchResponse
		err error
	}
	done := make(chan answer, 1)
	go func() {
		r, err := e.do("POST", "/beeuni/batch", `{"calls":[{"name":"wait"},{"name":"answer"},{"name":"wait","args":{"flag":"go2"}}]}`)
		var br BatchResponse
		if err == nil {
			err = json.Unmarshal(r.body, &br)
		}
		done <- answer{br, err}
	}()
	waitFor(t, 10*time.Second, func() error {
		if e.srv.inFlight.Load() < 1 {
			return errors.New("the batch is not running yet")
		}
		return nil
	})
	e.switchTo("v2", project("v2"))
	if isDone(old) {
		t.Fatal("the batch's set was freed while it ran")
	}
	for _, f := range []string{"go", "go2"} {
		if err := os.WriteFile(filepath.Join(old.Dir(), f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a := <-done
	if a.err != nil {
		t.Fatal(a.err)
	}
	for _, r := range a.br.Results {
		if r.IsError || !strings.HasPrefix(r.Output, "v1") {
			t.Fatalf("result %+v, want v1's", r)
		}
	}
	if a.br.Release != "v1" {
		t.Fatalf("release %s", a.br.Release)
	}
	waitDone(t, old)
	if br := e.batch(`{"calls":[{"name":"answer"}]}`); br.Release != "v2" || br.Results[0].Output != "v2" {
		t.Fatalf("after the switch: %+v", br)
	}
}

func TestBatchTurnPinning(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("r1", project("r1"))
	e.turn("POST", "s1")
	e.switchTo("r2", project("r2"))
	// §2.9 test 12.
	if br := e.batch(`{"calls":[{"name":"answer"}]}`, HeaderSession, "s1"); br.Release != "r1" || br.Results[0].Output != "r1" {
		t.Fatalf("pinned session: %+v", br)
	}
	if br := e.batch(`{"calls":[{"name":"answer"}]}`, HeaderSession, "s2"); br.Release != "r2" {
		t.Fatalf("other session: %+v", br)
	}
}

func TestBatchClientGone(t *testing.T) {
	e := start(t, Options{})
	ts := e.switchTo("v1", bproject("v1"))
	// §2.9 test 13: the running calls see the signal abort; the next group never starts.
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", e.url+"/beeuni/batch",
		strings.NewReader(`{"calls":[{"name":"sleep","args":{"ms":20000,"tag":"a"}},{"name":"sleep","args":{"ms":20000,"tag":"b"}},{"name":"barrier","args":{"tag":"c"}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		if resp, err := e.client.Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	waitFor(t, 10*time.Second, func() error {
		if evs := eventLog(t, ts); !slices.Contains(evs, "start:a") || !slices.Contains(evs, "start:b") {
			return fmt.Errorf("events %v", evs)
		}
		return nil
	})
	cancel()
	waitFor(t, 10*time.Second, func() error {
		if m := string(e.mustDo("GET", "/metrics", "").body); !strings.Contains(m, `beeuni_batch_requests_total{outcome="canceled"} 1`) {
			return errors.New("the batch has not ended")
		}
		return nil
	})
	evs := eventLog(t, ts)
	if !slices.Contains(evs, "aborted") || slices.Contains(evs, "start:c") {
		t.Fatalf("events %v: want a and b aborted, c never started", evs)
	}
	if n := strings.Count(strings.Join(evs, " "), "aborted"); n != 2 {
		t.Fatalf("%d calls saw the abort, want 2: %v", n, evs)
	}
}

func TestBatchSpillPerCall(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", bproject("v1"))
	// §2.9 test 14.
	br := e.batch(`{"calls":[{"name":"sleep","args":{"big":60000,"tag":"x"}},{"name":"sleep","args":{"tag":"y"}}]}`)
	if s := br.Results[0].Spilled; s == nil || s.Bytes != 60000 {
		t.Fatalf("big = %+v", br.Results[0].Spilled)
	}
	if br.Results[1].Spilled != nil || br.Results[1].Output != "y" {
		t.Fatalf("small = %+v", br.Results[1])
	}
}

func TestBatchManyAtOnce(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", project("v1"))
	// §2.9 test 16: 200 batches of 16 calls at once, race detector on.
	calls := strings.TrimSuffix(strings.Repeat(`{"name":"echo","args":{"n":1}},{"name":"answer"},`, 8), ",")
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for range 200 {
		wg.Go(func() {
			r, err := e.do("POST", "/beeuni/batch", `{"calls":[`+calls+`]}`)
			if err != nil {
				errs <- err
				return
			}
			var br BatchResponse
			if err := json.Unmarshal(r.body, &br); err != nil || len(br.Results) != 16 {
				errs <- fmt.Errorf("%d %s", r.status, r.body)
				return
			}
			for _, res := range br.Results {
				if res.IsError {
					errs <- fmt.Errorf("%+v", res)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}
