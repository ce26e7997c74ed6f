package bench

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"testing"
)

// BenchmarkCallTool is the call scenario's beeuni side as a Go benchmark,
// for profiling: `go test -bench CallTool -cpuprofile cpu.out ./bench`.
func BenchmarkCallTool(b *testing.B) {
	dir := b.TempDir()
	if err := writeTree(dir, callProject); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	_, url, err := serveToolSet(ctx, &wg, dir, "bench", b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	client := newClient()
	defer client.CloseIdleConnections()
	for _, t := range callTools {
		for _, clients := range []int{1, 16} {
			call := func(b *testing.B) bool {
				status, body, err := post(ctx, client, url+"/beeuni/tools/"+t.name, []byte(t.body), nil)
				if err != nil || !okCall(status, body) {
					b.Errorf("status %d, %v: %.200s", status, err, body)
					return false
				}
				return true
			}
			b.Run(fmt.Sprintf("%s/clients=%d", t.name, clients), func(b *testing.B) {
				if clients == 1 {
					for b.Loop() {
						if !call(b) {
							return
						}
					}
					return
				}
				// RunParallel starts parallelism x GOMAXPROCS goroutines.
				b.SetParallelism(max(1, clients/runtime.GOMAXPROCS(0)))
				b.RunParallel(func(pb *testing.PB) {
					for pb.Next() {
						if !call(b) {
							return
						}
					}
				})
			})
		}
	}
}

// BenchmarkCallFloor is the Go floor of the call scenario under the same
// client, so a profile of beeuni's side can be set against it.
func BenchmarkCallFloor(b *testing.B) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	defer wg.Wait()
	defer cancel()
	answers := map[string][]byte{}
	for _, t := range callTools {
		answers[t.name] = []byte(`{"ok":true}`)
	}
	url, err := serveFloor(ctx, &wg, answers)
	if err != nil {
		b.Fatal(err)
	}
	client := newClient()
	defer client.CloseIdleConnections()
	b.SetParallelism(max(1, 16/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, _, err := post(ctx, client, url+"/beeuni/tools/ping", []byte(`{}`), nil); err != nil {
				b.Error(err)
				return
			}
		}
	})
}
