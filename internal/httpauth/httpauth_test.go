package httpauth

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestBearer(t *testing.T) {
	cases := []struct {
		header, token string
		want          bool
	}{
		{"Bearer s3cret", "s3cret", true},
		{"bearer s3cret", "s3cret", true},
		{"BEARER s3cret", "s3cret", true},
		{"  Bearer   s3cret ", "s3cret", true},
		{"Bearer s3cre", "s3cret", false},
		{"Bearer s3cretx", "s3cret", false},
		{"Basic s3cret", "s3cret", false},
		{"s3cret", "s3cret", false},
		{"Bearer", "s3cret", false},
		{"", "s3cret", false},
		{"Bearer ", "", false},
	}
	for _, tc := range cases {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		r.Header.Set("Authorization", tc.header)
		if got := Bearer(r, tc.token); got != tc.want {
			t.Errorf("Bearer(%q, %q) = %v, want %v", tc.header, tc.token, got, tc.want)
		}
	}
}

func TestRequire(t *testing.T) {
	ok := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	for _, tc := range []struct {
		token, header string
		want          int
	}{
		{"", "", http.StatusOK},
		{"t", "", http.StatusUnauthorized},
		{"t", "bearer t", http.StatusOK},
		{"t", "Bearer u", http.StatusUnauthorized},
	} {
		r := httptest.NewRequest(http.MethodGet, "/status", nil)
		if tc.header != "" {
			r.Header.Set("Authorization", tc.header)
		}
		w := httptest.NewRecorder()
		Require(tc.token, "the token", ok).ServeHTTP(w, r)
		if w.Code != tc.want {
			t.Errorf("token %q, header %q: %d, want %d", tc.token, tc.header, w.Code, tc.want)
		}
		if w.Code == http.StatusUnauthorized && w.Header().Get("WWW-Authenticate") == "" {
			t.Error("a 401 without WWW-Authenticate")
		}
	}
}
