package bench

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sync"
	"time"
)

// newClient is the HTTP client of every load, beeuni's and the baselines'
// alike: keep-alive, enough idle connections for every client goroutine.
func newClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		MaxIdleConns: 512, MaxIdleConnsPerHost: 512, IdleConnTimeout: 90 * time.Second,
		DisableCompression: true, ForceAttemptHTTP2: false,
	}, Timeout: 30 * time.Second}
}

// sample is one call: when it started (from the load's start), how long it
// took, and whether it succeeded.
type sample struct {
	at  time.Duration
	lat time.Duration
	ok  bool
}

// loadResult is what a load measured.
type loadResult struct {
	samples  []sample
	elapsed  time.Duration
	firstErr string
}

// okLatencies returns the sorted latencies of the successful calls that
// started in [from, to).
func (l loadResult) okLatencies(from, to time.Duration) []time.Duration {
	var out []time.Duration
	for _, s := range l.samples {
		if s.ok && s.at >= from && s.at < to {
			out = append(out, s.lat)
		}
	}
	slices.Sort(out)
	return out
}

// failed counts the calls that started in [from, to) and failed.
func (l loadResult) failed(from, to time.Duration) int {
	n := 0
	for _, s := range l.samples {
		if !s.ok && s.at >= from && s.at < to {
			n++
		}
	}
	return n
}

func (l loadResult) rate() float64 {
	n := 0
	for _, s := range l.samples {
		if s.ok {
			n++
		}
	}
	return float64(n) / l.elapsed.Seconds()
}

// call is one POST of body to url; check decides whether the answer is a
// success.
type callSpec struct {
	url   string
	body  []byte
	check func(status int, body []byte) bool
}

// okCall accepts a 200 whose body says is_error false: beeuni's answer
// shape, which the Node.js baseline and the Go floor answer too.
func okCall(status int, body []byte) bool {
	return status == http.StatusOK && bytes.Contains(body, []byte(`"is_error":false`))
}

// runLoad makes clients goroutines call spec back to back until stop is
// closed or dur passes (dur 0: only stop ends it).
func runLoad(ctx context.Context, client *http.Client, spec callSpec, clients int, dur time.Duration, stop <-chan struct{}) loadResult {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if dur > 0 {
		var c context.CancelFunc
		ctx, c = context.WithTimeout(ctx, dur)
		defer c()
	}
	go func() {
		select {
		case <-stop:
			cancel()
		case <-ctx.Done():
		}
	}()
	start := time.Now()
	per := make([][]sample, clients)
	errs := make([]string, clients)
	var wg sync.WaitGroup
	for i := range clients {
		wg.Go(func() {
			buf := make([]byte, 0, 32<<10)
			for ctx.Err() == nil {
				t0 := time.Now()
				status, body, err := post(ctx, client, spec.url, spec.body, buf[:0])
				lat := time.Since(t0)
				if ctx.Err() != nil && err != nil {
					return // cut short by the end of the load, not a failure
				}
				ok := err == nil && spec.check(status, body)
				if !ok && errs[i] == "" {
					errs[i] = fmt.Sprintf("status %d, error %v, body %.200s", status, err, body)
				}
				per[i] = append(per[i], sample{at: t0.Sub(start), lat: lat, ok: ok})
				buf = body
			}
		})
	}
	wg.Wait()
	res := loadResult{elapsed: time.Since(start)}
	for i := range per {
		res.samples = append(res.samples, per[i]...)
		if res.firstErr == "" {
			res.firstErr = errs[i]
		}
	}
	return res
}

func post(ctx context.Context, client *http.Client, url string, body, buf []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b := bytes.NewBuffer(buf)
	_, err = io.Copy(b, resp.Body)
	return resp.StatusCode, b.Bytes(), err
}

// writeTree writes files (slash paths) under dir.
func writeTree(dir string, files map[string]string) error {
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return err
		}
	}
	return nil
}

func lookPath(name string) string {
	p, err := exec.LookPath(name)
	if err != nil {
		return ""
	}
	return p
}

// waitUntil polls cond every step until it holds or timeout passes.
func waitUntil(ctx context.Context, timeout, step time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(timeout)
	t := time.NewTicker(step)
	defer t.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-t.C:
		}
	}
	return true
}

// envSnapshot is the process environment as a map, as `beeuni executor`
// passes it to its server.
func envSnapshot() map[string]string {
	env := map[string]string{}
	for _, kv := range os.Environ() {
		if i := bytes.IndexByte([]byte(kv), '='); i > 0 {
			env[kv[:i]] = kv[i+1:]
		}
	}
	return env
}
