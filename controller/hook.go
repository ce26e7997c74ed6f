package controller

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/beeuni/beeuni/internal/httpbody"
)

// maxHookBody bounds the merge hook's body: it carries at most a commit id.
const maxHookBody = 64 << 10

// hookRequest is the optional body of POST /hooks/merge.
type hookRequest struct {
	Commit string `json:"commit"`
}

// verifySignature checks X-Beeuni-Signature: sha256=<hex HMAC-SHA256 of body>
// in constant time.
func verifySignature(secret string, body []byte, header string) bool {
	hexSig, ok := strings.CutPrefix(header, "sha256=")
	if !ok {
		return false
	}
	got, err := hex.DecodeString(hexSig)
	if err != nil {
		return false
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return hmac.Equal(got, mac.Sum(nil))
}

// Sign returns the X-Beeuni-Signature header value for body, for CI scripts
// and tests that call the merge hook.
func Sign(secret string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// parseHook reads and checks the hook body. It returns the HTTP status and a
// message for the caller when the request is refused.
func parseHook(r *http.Request, secret string) (hookRequest, int, string) {
	body, err := httpbody.Read(nil, r, maxHookBody)
	if err != nil {
		if httpbody.TooLarge(err) {
			return hookRequest{}, http.StatusRequestEntityTooLarge, "the hook body is larger than 64 KiB: send at most {\"commit\": \"<sha>\"}"
		}
		return hookRequest{}, http.StatusBadRequest, "read the hook body: " + err.Error()
	}
	if secret != "" && !verifySignature(secret, body, r.Header.Get("X-Beeuni-Signature")) {
		return hookRequest{}, http.StatusUnauthorized, "missing or wrong X-Beeuni-Signature: send sha256=<hex HMAC-SHA256 of the body keyed with the controller's --hook-secret>"
	}
	var req hookRequest
	if len(strings.TrimSpace(string(body))) == 0 {
		return req, http.StatusAccepted, ""
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return hookRequest{}, http.StatusBadRequest, "the hook body must be a JSON object such as {\"commit\": \"<sha>\"}: " + err.Error()
	}
	if req.Commit != "" && !isHex(req.Commit) {
		return hookRequest{}, http.StatusBadRequest, "commit must be a hexadecimal commit id"
	}
	return req, http.StatusAccepted, ""
}

// branchHead is the commit a hook without one makes the controller look
// at: the local branch's head now, else (a remote, fetched by the look
// itself) the head last seen.
func (c *Controller) branchHead() string {
	if h := c.src.localHead(); h != "" {
		return h
	}
	return c.Status().Head
}

func isHex(s string) bool {
	if len(s) > 64 {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}
