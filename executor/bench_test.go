package executor

import (
	"net/http"
	"strings"
	"testing"
)

// BenchmarkCall measures one tool call over HTTP on loopback, end to end.
func BenchmarkCall(b *testing.B) {
	e := start(b, Options{})
	e.switchTo("v1", project("v1"))
	b.ResetTimer()
	for b.Loop() {
		r, err := e.do("POST", "/beeuni/tools/echo", `{"q":"x"}`)
		if err != nil || r.status != http.StatusOK {
			b.Fatalf("%v %d %s", err, r.status, r.body)
		}
	}
}

// BenchmarkCallParallel is BenchmarkCall from 16 clients per CPU at once.
func BenchmarkCallParallel(b *testing.B) {
	e := start(b, Options{})
	e.switchTo("v1", project("v1"))
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			r, err := e.do("POST", "/beeuni/tools/echo", `{"q":"x"}`)
			if err != nil || r.status != http.StatusOK || !strings.Contains(string(r.body), `"is_error":false`) {
				b.Errorf("%v %d %s", err, r.status, r.body)
				return
			}
		}
	})
}
