package executor

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A client that stalls in its headers or its body is cut off, and the
// others are served meanwhile.
func TestSlowClientIsCutOff(t *testing.T) {
	e := start(t, Options{ReadHeaderTimeout: 100 * time.Millisecond, ReadTimeout: 200 * time.Millisecond})
	e.switchTo("v1", project("v1"))
	addr := e.url[len("http://"):]

	tests := []struct{ name, send string }{
		{"stalls in its headers", "POST /beeuni/tools/echo HTTP/1.1\r\nHost: x\r\n"},
		{"stalls in its body", "POST /beeuni/tools/echo HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"a\":"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			if _, err := io.WriteString(conn, tc.send); err != nil {
				t.Fatal(err)
			}
			if got := e.answer(""); got != "v1" {
				t.Fatalf("another client got %q while one stalls", got)
			}
			// The server answers (400) or closes; either way the
			// connection ends long before this deadline.
			_ = conn.SetReadDeadline(time.Now().Add(10 * time.Second))
			_, err = io.Copy(io.Discard, bufio.NewReader(conn))
			if ne, ok := errors.AsType[net.Error](err); ok && ne.Timeout() {
				t.Fatal("the server kept the stalled connection open")
			}
		})
	}
}

// The read timeout does not bound a call: a call that outlives it answers,
// with a body or without.
func TestCallOutlivesReadTimeout(t *testing.T) {
	const readTimeout = 20 * time.Millisecond
	for _, body := range []string{"", `{"flag":"go"}`} {
		t.Run("body="+body, func(t *testing.T) {
			e := start(t, Options{ReadTimeout: readTimeout})
			v1 := e.switchTo("v1", project("v1"))
			done := make(chan reply, 1)
			began := time.Now()
			go func() {
				r, _ := e.do("POST", "/beeuni/tools/wait", body)
				done <- r
			}()
			waitFor(t, 10*time.Second, func() error {
				if n := e.srv.inFlight.Load(); n != 1 {
					return fmt.Errorf("%d calls in flight", n)
				}
				if d := time.Since(began); d < 10*readTimeout {
					return fmt.Errorf("only %v since the call began", d)
				}
				return nil
			})
			if err := os.WriteFile(filepath.Join(v1.Dir(), "go"), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			if r := <-done; r.status != 200 || !containsAll(string(r.body), `"v1:done"`, `"is_error":false`) {
				t.Fatalf("a call longer than the read timeout: %d %s", r.status, r.body)
			}
		})
	}
}

// A client that goes away cancels its call: the tool's signal aborts and the
// call ends without waiting for the tool.
func TestClientGoneCancelsCall(t *testing.T) {
	e := start(t, Options{})
	e.switchTo("v1", project("v1"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, "POST", e.url+"/beeuni/tools/wait", nil)
	if err != nil {
		t.Fatal(err)
	}
	gone := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		gone <- err
	}()
	waitFor(t, 10*time.Second, func() error {
		if n := e.srv.inFlight.Load(); n != 1 {
			return fmt.Errorf("%d calls in flight", n)
		}
		return nil
	})
	cancel()
	if err := <-gone; !errors.Is(err, context.Canceled) {
		t.Fatalf("client: %v", err)
	}
	waitFor(t, 10*time.Second, func() error {
		if n := e.srv.inFlight.Load(); n != 0 {
			return fmt.Errorf("%d calls in flight after the client went away", n)
		}
		return nil
	})
	body := e.mustDo("GET", "/metrics", "").body
	if !containsAll(string(body), `beeuni_executor_calls_total{outcome="canceled",tool="wait"} 1`) {
		t.Fatalf("the canceled call is not counted as canceled:\n%s", body)
	}
}
