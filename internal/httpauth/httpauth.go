// Package httpauth checks bearer tokens on beeuni's HTTP routes, one way
// for the executor and the controller.
package httpauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"net/http"
	"strings"
)

// Bearer reports whether r carries `Authorization: Bearer <token>`. The
// scheme is case-insensitive (RFC 9110: `bearer` and `BEARER` are the
// same); the token is compared in constant time. An empty token matches
// nothing.
func Bearer(r *http.Request, token string) bool {
	scheme, got, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || token == "" || !strings.EqualFold(scheme, "Bearer") {
		return false
	}
	// Hashing first makes the comparison constant-time in the length too.
	g, w := sha256.Sum256([]byte(strings.TrimSpace(got))), sha256.Sum256([]byte(token))
	return subtle.ConstantTimeCompare(g[:], w[:]) == 1
}

// Refuse answers 401 with a JSON error telling the caller how to send
// the token; whose names it (e.g. "the executor's token (its --token or
// BEEUNI_EXECUTOR_TOKEN)").
func Refuse(w http.ResponseWriter, whose string) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="beeuni"`)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusUnauthorized)
	_ = json.NewEncoder(w).Encode(map[string]string{
		"error": "missing or wrong bearer token: send the header `Authorization: Bearer <token>` with " + whose})
}

// Require serves h to requests that carry token and refuses the others;
// with an empty token it is h.
func Require(token, whose string, h http.Handler) http.Handler {
	if token == "" {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !Bearer(r, token) {
			Refuse(w, whose)
			return
		}
		h.ServeHTTP(w, r)
	})
}
