package httpbody

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestRead: a body under the limit comes back whole; one over it is refused
// with 413. (That the drain saves the 413 from a reset shows only under
// load: e2e/process's TestFlood.)
func TestRead(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := Read(w, r, 1<<10)
		switch {
		case TooLarge(err):
			http.Error(w, "too large", http.StatusRequestEntityTooLarge)
		case err != nil:
			http.Error(w, err.Error(), http.StatusBadRequest)
		default:
			_, _ = w.Write(body)
		}
	}))
	defer srv.Close()

	resp, err := http.Post(srv.URL, "text/plain", bytes.NewReader([]byte("small")))
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(got) != "small" {
		t.Fatalf("small body: %s %q", resp.Status, got)
	}

	resp, err = http.Post(srv.URL, "text/plain", bytes.NewReader(make([]byte, 4<<20)))
	if err != nil {
		t.Fatalf("4 MiB body: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Fatalf("4 MiB body: %s", resp.Status)
	}
}
