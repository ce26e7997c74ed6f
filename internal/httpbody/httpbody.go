// Package httpbody reads request bodies under a limit and refuses the ones
// over it so the client hears the refusal.
package httpbody

import (
	"errors"
	"io"
	"net/http"
)

// drainMax is how much of a body over the limit is read and thrown away
// before the refusal is sent. A server that answers 413 and closes while
// the client is still writing resets the connection, and the client sees
// "broken pipe" instead of the 413 and its message; reading on lets the
// client finish and read the answer. Reading costs bandwidth, no memory;
// a body larger still is cut off as before.
const drainMax = 8 << 20

// Read returns the body, at most limit bytes. A body over the limit gives
// an error wrapping *http.MaxBytesError (test it with TooLarge), and the
// connection is closed after the reply. w may be nil.
func Read(w http.ResponseWriter, r *http.Request, limit int64) ([]byte, error) {
	raw := r.Body
	body, err := io.ReadAll(http.MaxBytesReader(w, raw, limit))
	if TooLarge(err) {
		_, _ = io.CopyN(io.Discard, raw, drainMax)
	}
	return body, err
}

// TooLarge reports whether err is Read's over-the-limit error.
func TooLarge(err error) bool {
	var e *http.MaxBytesError
	return errors.As(err, &e)
}
