package executor

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

// FuzzCallBody sends any bytes as a tool call's body: the answer is 200 for
// an empty body or one JSON object, 413 over the limit, 400 otherwise; never
// a 500 or a crash.
func FuzzCallBody(f *testing.F) {
	const limit = 512
	e := start(f, Options{MaxBodyBytes: limit})
	e.switchTo("v1", project("v1"))
	for _, seed := range []string{"", " ", "{}", `{"a":[1,{"b":null}]}`, "[]", `"s"`, "1e999", "null", "{", `{"a":1}{}`,
		"\u00a0{}", `{"__proto__":{"x":1}}`, `{"s":"\ud800"}`, "{\"s\":\"\xff\"}", string(bytes.Repeat([]byte("x"), limit+1))} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		r, err := e.doTimeout(10*time.Second, "POST", "/beeuni/tools/echo", string(body))
		if err != nil {
			t.Fatalf("body %q: %v", body, err)
		}
		trimmed := bytes.Trim(body, " \t\r\n")
		want := 400
		switch {
		case len(body) > limit:
			want = 413
		case len(trimmed) == 0 || (json.Valid(trimmed) && trimmed[0] == '{'):
			want = 200
		}
		if r.status != want {
			t.Fatalf("body %q: %d %s, want %d", body, r.status, r.body, want)
		}
		var m map[string]any
		if err := json.Unmarshal(r.body, &m); err != nil {
			t.Fatalf("body %q: the answer is not a JSON object: %q", body, r.body)
		}
		if want == 200 && (m["is_error"] != false || m["release"] != "v1") {
			t.Fatalf("body %q: echo answered %s", body, r.body)
		}
	})
}
